#!/usr/bin/python3
"""scikit-learn's SVMs on the few-shot sets of `oddl reproduce -table small`.

    oddl reproduce -table small -seeds 3 -write-sets DIR
    bench/peers/small_svms.py DIR

For each NAME-SEED-train.csv in DIR (with its NAME-SEED-test.csv), prints
the test error of a linear SVM and an RBF SVM on the standardized columns
(as bench/peers/sklearn_tables.py does for tables) and of a linear SVM on
the values as written (the preprocessed pixels, not standardized), each
with its parameters chosen by 5-fold cross-validation on the training
rows (liblinear visits the samples in a random order: the standardized
linear SVM, as sklearn_tables.py fits it, may move by a sample from one
run to the next; the other is seeded). Needs Debian's python3-sklearn.
"""
import glob
import os
import sys

from sklearn.model_selection import GridSearchCV
from sklearn.svm import LinearSVC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sklearn_tables import read_csv, svms  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: small_svms.py DIR")
    for train in sorted(glob.glob(os.path.join(sys.argv[1], "*-train.csv"))):
        base = train[: -len("-train.csv")]
        name = os.path.basename(base)
        Xtr, ytr = read_csv(train)
        Xte, yte = read_csv(base + "-test.csv")
        svms(name, Xtr, ytr, Xte, yte)
        lin = GridSearchCV(LinearSVC(max_iter=50000, random_state=0), {"C": [0.01, 0.1, 1, 10, 100]}, cv=5).fit(Xtr, ytr)
        print("%s linear SVM on the values as written %.2f%% (C = %g)" % (
            name, 100 * (lin.predict(Xte) != yte).mean(), lin.best_params_["C"]), flush=True)


if __name__ == "__main__":
    main()
