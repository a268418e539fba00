#!/usr/bin/python3
"""Batch OMP with scikit-learn, the peer of oddl's omp.Coder.

Codes random unit-norm signals on a random unit-norm dictionary with
sklearn.linear_model.orthogonal_mp_gram -- scikit-learn's OMP on a
precomputed Gram matrix, the same algorithm as oddl's Batch-OMP -- for the
shapes of oddl's BenchmarkEncode, and prints the throughput in signals per
second:

  total  Xy = D Xᵀ (one numpy GEMM) plus orthogonal_mp_gram: what
         omp.Coder.Encode does.
  omp    orthogonal_mp_gram alone (Xy given).
  gemm   Xy alone.

The Gram matrix D Dᵀ is computed once per shape and not timed (oddl computes
it in New, also outside the timed loop). orthogonal_mp_gram is called with
its defaults (copy_Gram=True, as sklearn's own sparse_encode does). Each
measurement is the best of --repeat runs.

--threads limits the BLAS threads of numpy (through threadpoolctl, which
scikit-learn depends on); the Python loop over samples is single-threaded
either way.

Output: one line per shape, or one JSON object per line with --json.
"""

import argparse
import json
import time
import warnings

import numpy as np
import sklearn
from sklearn.linear_model import orthogonal_mp_gram

# (n, K, L): the shapes of oddl's BenchmarkEncode.
SHAPES = [(784, 960, 5), (784, 2560, 5), (256, 960, 5), (1024, 228, 15)]


def unit_rows(rng, rows, cols):
    """Returns rows×cols Gaussian rows scaled to unit norm."""
    a = rng.standard_normal((rows, cols))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    return a


def best_of(repeat, f):
    """Runs f repeat times and returns the shortest wall time in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def run_shape(n, k, sparsity, signals, repeat, seed):
    rng = np.random.default_rng(seed)
    D = unit_rows(rng, k, n)
    X = unit_rows(rng, signals, n)
    gram = D @ D.T

    def gemm():
        return D @ X.T

    xy = gemm()

    def omp():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return orthogonal_mp_gram(gram, xy, n_nonzero_coefs=sparsity)

    def total():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return orthogonal_mp_gram(gram, D @ X.T, n_nonzero_coefs=sparsity)

    t_gemm = best_of(repeat, gemm)
    t_omp = best_of(repeat, omp)
    t_total = best_of(repeat, total)
    return {
        "n": n,
        "K": k,
        "L": sparsity,
        "signals": signals,
        "total_signals_per_s": signals / t_total,
        "omp_signals_per_s": signals / t_omp,
        "gemm_signals_per_s": signals / t_gemm,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--signals", type=int, default=4096, help="signals per shape (default 4096)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is kept (default 3)")
    ap.add_argument("--threads", type=int, default=0, help="BLAS threads (default: numpy's own setting)")
    ap.add_argument("--shape", action="append", default=None,
                    help="n,K,L to run instead of the default shapes (repeatable)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print JSON lines")
    args = ap.parse_args()

    shapes = SHAPES
    if args.shape:
        shapes = [tuple(int(v) for v in s.split(",")) for s in args.shape]

    limits = None
    if args.threads > 0:
        from threadpoolctl import threadpool_limits
        limits = threadpool_limits(limits=args.threads, user_api="blas")

    from threadpoolctl import threadpool_info
    np.ones((2, 2)) @ np.ones((2, 2))  # load the BLAS so that it is listed
    blas = ", ".join(f"{i['internal_api']} {i['version']}" for i in threadpool_info()
                     if i["user_api"] == "blas") or "unknown"

    try:
        for n, k, sparsity in shapes:
            r = run_shape(n, k, sparsity, args.signals, args.repeat, args.seed)
            r["sklearn"] = sklearn.__version__
            r["numpy"] = np.__version__
            r["blas"] = blas
            r["blas_threads"] = args.threads or "default"
            if args.json:
                print(json.dumps(r))
            else:
                print(
                    f"sklearn {sklearn.__version__} orthogonal_mp_gram n={n},K={k},L={sparsity} "
                    f"signals={args.signals} blas={blas} threads={r['blas_threads']}: "
                    f"total {r['total_signals_per_s']:.0f} signals/s, "
                    f"omp {r['omp_signals_per_s']:.0f} signals/s, "
                    f"gemm {r['gemm_signals_per_s']:.0f} signals/s",
                    flush=True,
                )
    finally:
        if limits is not None:
            limits.restore_original_limits()


if __name__ == "__main__":
    main()
