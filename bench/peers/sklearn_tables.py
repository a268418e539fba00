#!/usr/bin/python3
"""Small tables of measurements as CSV files, and scikit-learn's classifiers on them.

Writes, for each of scikit-learn's bundled tables (wine: 178 rows of 13
chemical measurements, 3 classes; cancer: 569 rows of 30 cell measurements,
2 classes; iris: 150 rows of 4, 3 classes), three class-stratified halves
(seeds 1, 2, 3) as NAME-SEED-train.csv and NAME-SEED-test.csv in the
directory given (a "label" column first, the values as given), then prints
the test error of a linear SVM and of an RBF SVM on each split, their
parameters chosen by 5-fold cross-validation on the training half, the
columns standardized on it. oddl trains on the same files:

    bench/peers/sklearn_tables.py DIR [WEKA_EXAMPLES]
    for f in DIR/*-train.csv; do bin/oddl train -q -data $f,${f%-train.csv}-test.csv; done

With WEKA_EXAMPLES (the ARFF examples of Debian's weka package, for
instance the folder usr/share/doc/weka/examples of `dpkg-deb -x` of the
package), it does the same with four of their numeric tables: diabetes
(Pima), glass and ionosphere halved as above, and segment with its own
training (segment-challenge) and test files (segment-1-*.csv).

With --pairs NAME..., it prints the same SVMs' errors on training and
test files already in DIR (NAME-train.csv and NAME-test.csv, a "label"
column first: bench/peers/mlbench_tables.R writes seven such tables);
on more than 4 000 training rows the parameters are chosen by 3-fold
cross-validation of 4 000 of them (seeded), and the SVMs trained on all.

    bench/peers/sklearn_tables.py DIR --pairs letter satellite shuttle

Needs Debian's python3-sklearn (no download: the tables ship with it).
"""
import os
import sys

import numpy as np
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.model_selection import GridSearchCV
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

TABLES = (("wine", load_wine), ("cancer", load_breast_cancer), ("iris", load_iris))


def write(path, X, y):
    with open(path, "w") as f:
        f.write("label," + ",".join("x%d" % i for i in range(X.shape[1])) + "\n")
        for xi, yi in zip(X, y):
            f.write(str(int(yi)) + "," + ",".join(repr(float(v)) for v in xi) + "\n")


def halves(y, seed):
    rng = np.random.default_rng(seed)
    train = []
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        rng.shuffle(idx)
        train += list(idx[: len(idx) // 2])
    train = np.array(sorted(train))
    return train, np.setdiff1d(np.arange(len(y)), train)


def arff(path, classes=None):
    """The numeric attributes and the last (nominal) one of an ARFF file."""
    rows, data = [], False
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if line.lower().startswith("@data"):
            data = True
        elif data:
            rows.append([v.strip().strip("'") for v in line.split(",")])
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    names = [r[-1] for r in rows]
    classes = classes or sorted(set(names))
    return X, np.array([classes.index(v) for v in names]), classes


def svms(name, Xtr, ytr, Xte, yte):
    sc = StandardScaler().fit(Xtr)
    Xtr, Xte = sc.transform(Xtr), sc.transform(Xte)
    if len(ytr) <= 4000:
        lin = GridSearchCV(LinearSVC(max_iter=50000), {"C": [0.01, 0.1, 1, 10]}, cv=5).fit(Xtr, ytr)
        rbf = GridSearchCV(SVC(kernel="rbf"), {"C": [1, 10, 100], "gamma": ["scale", 0.01, 0.1]}, cv=5).fit(Xtr, ytr)
    else:
        sub = np.random.default_rng(0).permutation(len(ytr))[:4000]
        lc = GridSearchCV(LinearSVC(dual=False, max_iter=50000), {"C": [0.01, 0.1, 1, 10]}, cv=3).fit(Xtr[sub], ytr[sub])
        rc = GridSearchCV(SVC(kernel="rbf"), {"C": [1, 10, 100], "gamma": ["scale", 0.01, 0.1]}, cv=3).fit(Xtr[sub], ytr[sub])
        lin = LinearSVC(dual=False, max_iter=50000, **lc.best_params_).fit(Xtr, ytr)
        rbf = SVC(kernel="rbf", **rc.best_params_).fit(Xtr, ytr)
    print("%s linear SVM %.2f%% RBF SVM %.2f%%" % (
        name, 100 * (lin.predict(Xte) != yte).mean(), 100 * (rbf.predict(Xte) != yte).mean()), flush=True)


def read_csv(path):
    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return a[:, 1:], a[:, 0].astype(int)


def split(out, name, X, y):
    for seed in (1, 2, 3):
        tr, te = halves(y, seed)
        base = os.path.join(out, "%s-%d" % (name, seed))
        write(base + "-train.csv", X[tr], y[tr])
        write(base + "-test.csv", X[te], y[te])
        svms("%s-%d" % (name, seed), X[tr], y[tr], X[te], y[te])


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--pairs":
        for name in sys.argv[3:]:
            base = os.path.join(sys.argv[1], name)
            Xtr, ytr = read_csv(base + "-train.csv")
            Xte, yte = read_csv(base + "-test.csv")
            svms(name, Xtr, ytr, Xte, yte)
        return
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: sklearn_tables.py DIR [WEKA_EXAMPLES] | DIR --pairs NAME...")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, load in TABLES:
        d = load()
        split(out, name, d.data, d.target)
    if len(sys.argv) == 3:
        ex = sys.argv[2]
        for name in ("diabetes", "glass", "ionosphere"):
            X, y, _ = arff(os.path.join(ex, name + ".arff"))
            split(out, name, X, y)
        Xtr, ytr, classes = arff(os.path.join(ex, "segment-challenge.arff"))
        Xte, yte, _ = arff(os.path.join(ex, "segment-test.arff"), classes)
        write(os.path.join(out, "segment-1-train.csv"), Xtr, ytr)
        write(os.path.join(out, "segment-1-test.csv"), Xte, yte)
        svms("segment-1", Xtr, ytr, Xte, yte)


if __name__ == "__main__":
    main()
