#!/usr/bin/python3
"""The exploration that set the kernel rule's grid (oddl.DefaultKernelGrid,
DefaultKernelWeights, DefaultKernelFeatures), in numpy: for each table,
a fifth of its training file held out (seeded), the columns standardized
on the other four fifths, m random Fourier features √(2/m)·cos(Ω·z + b)
with Ω ~ N(0, γ/n), and a ridge classifier of the centred one-hot labels
(the weight relative to the mean diagonal of the features' Gram matrix,
the label means as intercepts) — the kernel rule as oddl fits it. It
prints the held-out error in % for every m, γ and weight. The test files
are not read.

    bench/peers/mlbench_tables.R DIR
    bench/peers/kernel_grid.py DIR letter satellite shuttle
"""
import os
import sys

import numpy as np


def read_csv(path):
    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return a[:, 1:], a[:, 0].astype(int)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: kernel_grid.py DIR NAME...")
    for name in sys.argv[2:]:
        X, y = read_csv(os.path.join(sys.argv[1], name + "-train.csv"))
        idx = np.random.default_rng(1).permutation(len(y))
        va, tr = idx[: len(y) // 5], idx[len(y) // 5:]
        mu, sd = X[tr].mean(0), X[tr].std(0)
        sd[sd == 0] = 1
        Z = (X - mu) / sd
        n, q = Z.shape[1], y.max() + 1
        Y = np.eye(q)[y]
        for m in (1024, 2048, 4096):
            for g in (0.25, 1, 4):
                W = np.random.default_rng(2).normal(0, np.sqrt(g / n), (n, m))
                b = np.random.default_rng(3).uniform(0, 2 * np.pi, m)
                F = np.sqrt(2 / m) * np.cos(Z @ W + b)
                mf, ybar = F[tr].mean(0), Y[tr].mean(0)
                A = F[tr] - mf
                G, R = A.T @ A, A.T @ (Y[tr] - ybar)
                unit = np.trace(G) / m
                errs = []
                for lam in (1e-4, 1e-3, 1e-2, 1e-1):
                    V = np.linalg.solve(G + lam * unit * np.eye(m), R)
                    S = (F[va] - mf) @ V + ybar
                    errs.append("%.2f" % (100 * np.mean(np.argmax(S, 1) != y[va])))
                print("%s m=%d γ=%g λ=0.0001/0.001/0.01/0.1: %s" % (name, m, g, " / ".join(errs)), flush=True)


if __name__ == "__main__":
    main()
