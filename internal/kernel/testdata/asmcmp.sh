#!/bin/sh
# asmcmp.sh [REV]: compare the machine code of every TEXT symbol of the
# assembly in internal/kernel at git revision REV (default HEAD) with the
# work tree's, symbol by symbol, whatever file each is in. Run from the
# repository's top. It assembles each .s file on its own (go tool asm),
# disassembles the object (go tool objdump) and keeps, per instruction,
# its bytes and any relocation — not addresses, source lines or labels —
# so the generators can be changed and checked to write the same code,
# including AVX-512 code that the machine at hand cannot run.
set -e
rev=${1:-HEAD}
top=$(git rev-parse --show-toplevel)
pkg=$(cd "$top" && go list ./internal/kernel)
inc=$(go env GOROOT)/pkg/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# dump DIR OUT writes OUT/<symbol>: one line an instruction (as objdump
# splits it, which for AVX-512 may be wrong, but alike on both sides).
dump() {
	mkdir -p "$2"
	for f in "$1"/*.s; do
		go tool asm -I "$inc" -D GOOS_linux -D GOARCH_amd64 -p "$pkg" -o "$2/.o" "$f"
		go tool objdump "$2/.o" | awk -v out="$2" '
			/^TEXT / { sym = $2; sub(/^.*kernel\./, "", sym); sub(/\(SB\)$/, "", sym); file = out "/" sym; next }
			/^  / {
				n = split($0, a, "\t"); rel = ""; b = ""; seen = 0
				for (i = 2; i <= n; i++) {
					if (a[i] == "") continue
					if (!seen) { seen = 1; continue } # the address
					if (b == "") { b = a[i]; continue }
					if (a[i] ~ /R_/) rel = a[i]
				}
				if (b !~ /^[0-9a-f]+$/) { print "asmcmp: cannot read: " $0 > "/dev/stderr"; exit 1 }
				print b, rel > file
			}'
	done
	rm -f "$2/.o"
}

mkdir -p "$tmp/src"
git -C "$top" archive "$rev" internal/kernel | tar -x -C "$tmp/src"
dump "$tmp/src/internal/kernel" "$tmp/before"
dump "$top/internal/kernel" "$tmp/after"
st=0
for f in "$tmp/before"/*; do
	s=$(basename "$f")
	if [ ! -f "$tmp/after/$s" ]; then echo "missing $s"; st=1
	elif cmp -s "$f" "$tmp/after/$s"; then echo "same    $s"
	else echo "differ  $s"; st=1; fi
done
for f in "$tmp/after"/*; do
	[ -f "$tmp/before/$(basename "$f")" ] || { echo "new     $(basename "$f")"; st=1; }
done
exit $st
