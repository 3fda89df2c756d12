#!/usr/bin/env bash
# alternate.sh OUTDIR [ROUNDS] [ANCHORS]: times the whole operations
# against the C anchors in alternation, in one sitting on one host.
#
# Per round: the anchors (ANCHORS, default ../shared/anchors/run), then
# BenchmarkAnchor of lab/anchorbench (ML-KEM-768 and ML-DSA-65 in a test
# binary that registers no lab variant, as a production program) natively
# (native.txt) and with AVX-512 masked (TUNELAB_CPU=avx512f=off,
# avx2.txt), the anchors again, AVX2, native. Every binary is pinned to
# the last CPU. OUTDIR gets anchors.txt and the two tunelab files, all in
# benchstat format (`tunelab compare OUTDIR/anchors.txt OUTDIR/native.txt`),
# and ratios.txt: per operation and tier, the median over rounds of C's
# time over tunelab's, each side's time in a round being the faster of
# its two runs (a pinned Go run can fall in a garbage-collection mark
# phase; the C anchors have no collector).
set -euo pipefail
out=$1 rounds=${2:-10}
cd "$(dirname "$0")/../.."
anchors=${3:-$(pwd)/../shared/anchors/run}
mkdir -p "$out"
go test -c -o "$out/anchor.test" ./lab/anchorbench
cpu=$(($(nproc) - 1))

# ours FILE ENV...: one run of BenchmarkAnchor into FILE.
ours() {
	local f=$1
	shift
	env "$@" taskset -c "$cpu" "$out/anchor.test" -test.run '^$' -test.bench '^BenchmarkAnchor$' -test.benchtime 3000x | grep '^Benchmark' >>"$f"
}

# theirs: one run of the anchors, appended to anchors.txt.
theirs() {
	"$anchors" -o "$out/anchors.tmp"
	grep '^Benchmark' "$out/anchors.tmp" >>"$out/anchors.txt"
}

for r in $(seq "$rounds"); do
	theirs
	ours "$out/native.txt" TUNELAB_CPU=
	ours "$out/avx2.txt" TUNELAB_CPU=avx512f=off
	theirs
	ours "$out/avx2.txt" TUNELAB_CPU=avx512f=off
	ours "$out/native.txt" TUNELAB_CPU=
	echo "round $r of $rounds done at $(date +%T), load $(cut -d' ' -f1 /proc/loadavg)"
done
for tier in native avx2; do
	awk -v tier="$tier" '
		function name(s) { sub(/-[0-9]+$/, "", s); sub(/^BenchmarkAnchor\//, "", s); return s }
		function median(a, m,    i, j, x) {
			for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		# the faster of each pair of consecutive runs of an operation
		FNR == 1 { file++ }
		/ns\/op/ { k = name($1); n = ++count[file, k]; r = int((n + 1) / 2)
			if (n % 2 == 1 || $3 < best[file, k, r]) best[file, k, r] = $3
			rounds[k] = r; ops[k] = 1 }
		END {
			for (k in ops) {
				m = 0
				for (r = 1; r <= rounds[k]; r++) if ((1, k, r) in best && (2, k, r) in best) v[++m] = best[1, k, r] / best[2, k, r]
				med = median(v, m)
				printf "%-8s %-20s C/tunelab %.2fx (median of %d rounds)\n", tier, k, med, m
				delete v
			}
		}' "$out/anchors.txt" "$out/$tier.txt"
done | sort | tee "$out/ratios.txt"
