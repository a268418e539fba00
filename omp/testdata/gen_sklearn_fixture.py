#!/usr/bin/env python3
"""Write the scikit-learn cross-check fixture for package omp.

Usage: gen_sklearn_fixture.py OUT.json [--seed S]

A random dictionary D (K atoms of dimension n, unit norm, one per row) and
samples X (N rows; unit norm, then a few rescaled) are coded by
sklearn.linear_model.orthogonal_mp_gram on Gram = D Dᵀ and Xy = D Xᵀ, for
several sparsity and tolerance settings. The JSON file holds D and X
row-major, and for every case the codes of every sample as
[atom, coefficient] pairs in increasing atom order.
"""

import argparse
import json
import warnings

import numpy as np
import sklearn
from sklearn.linear_model import orthogonal_mp_gram

N_DIM, N_ATOMS, N_SAMPLES = 24, 48, 32

# Cases: (sparsity or None, tolerance or None). orthogonal_mp_gram ignores
# the sparsity when a tolerance is given, so no case sets both.
CASES = [(1, None), (5, None), (12, None), (24, None), (None, 0.05), (None, 1e-3)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=20240601)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    D = rng.standard_normal((N_ATOMS, N_DIM))
    D /= np.linalg.norm(D, axis=1, keepdims=True)
    X = rng.standard_normal((N_SAMPLES, N_DIM))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    X[::4] *= 3.0

    gram = D @ D.T
    xy = D @ X.T
    norms2 = np.sum(X * X, axis=1)

    cases = []
    for sparsity, tol in CASES:
        with warnings.catch_warnings():
            # Early stops (dependent atoms, tiny correlations) are expected.
            warnings.simplefilter("ignore", RuntimeWarning)
            coef = orthogonal_mp_gram(
                gram, xy, n_nonzero_coefs=sparsity, tol=tol,
                norms_squared=norms2 if tol is not None else None,
            )
        coef = coef.reshape(N_ATOMS, N_SAMPLES)
        codes = []
        for i in range(N_SAMPLES):
            nz = np.flatnonzero(coef[:, i])
            codes.append([[int(j), float(coef[j, i])] for j in nz])
        cases.append({"sparsity": sparsity, "tolerance": tol, "codes": codes})

    out = {
        "sklearn": sklearn.__version__,
        "seed": args.seed,
        "n": N_DIM,
        "K": N_ATOMS,
        "N": N_SAMPLES,
        "D": [float(v) for v in D.ravel()],
        "X": [float(v) for v in X.ravel()],
        "cases": cases,
    }
    with open(args.out, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
