#!/usr/bin/env bash
# Light-playout speed beside the reference programs, measured in one run: `yeoul bench`
# (one thread, empty 9x9 and 19x19 boards) interleaved with libego 0.1.127's own benchmark
# (`-b`) and, when given, Pachi 12.90's flat Monte Carlo engine with light playouts. Prints
# the median playouts per second of each and the ratios. Quote only ratios taken this way:
# the machines here change speed between minutes and between sessions.
#
# Usage: scripts/reference_bench.sh LIBEGO9 LIBEGO19 [PACHI]
#   LIBEGO9, LIBEGO19: libego 0.1.127 built with -DBOARDSIZE=9 and -DBOARDSIZE=19
#   PACHI: a Pachi 12.90 binary (make DCNN=0 JOSEKIFIX=0)
# Environment: ROUNDS (default 3), YEOUL (default target/release/yeoul), SECONDS_EACH per yeoul
# measurement (default 3). benchmarks/journal/2026-12-04-issue-13-playout-speed-side-by-side-with-libego-and-pachi.md
# says how to build the references.
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
libego9=$1 libego19=$2 pachi=${3:-}
rounds=${ROUNDS:-3}
yeoul=${YEOUL:-target/release/yeoul}
seconds=${SECONDS_EACH:-3}
for binary in "$yeoul" "$libego9" "$libego19" ${pachi:+"$pachi"}; do
    [ -x "$binary" ] || { echo "not an executable: $binary" >&2; exit 2; }
done

results=$(mktemp)
trap 'rm -f "$results"' EXIT

# libego prints "<rate> kpps" for N thousand playouts from the empty board.
libego_rate() {
    "$1" -b "$2" | awk '/kpps/ && !/GHz/ { printf "%.0f\n", $1 * 1000; exit }'
}

# Pachi's montecarlo engine plays N light playouts for one genmove; the rate includes
# Pachi's start (a few milliseconds against several seconds).
pachi_rate() {
    local size=$1 playouts=$2 start end
    start=$(date +%s.%N)
    printf 'boardsize %s\nclear_board\ngenmove b\nquit\n' "$size" |
        "$pachi" -e montecarlo -t "=$playouts" >/dev/null 2>&1
    end=$(date +%s.%N)
    awk -v n="$playouts" -v s="$start" -v e="$end" 'BEGIN { printf "%.0f\n", n / (e - s) }'
}

for round in $(seq "$rounds"); do
    echo "round $round of $rounds" >&2
    "$yeoul" bench --seconds "$seconds" --threads 1 --policies light 2>/dev/null |
        awk '$1 == "light" && $3 == "empty" { sub("x.*", "", $2); print "yeoul", $2, $5 }' >>"$results"
    echo "libego 9 $(libego_rate "$libego9" 500)" >>"$results"
    echo "libego 19 $(libego_rate "$libego19" 100)" >>"$results"
    if [ -n "$pachi" ]; then
        echo "pachi 9 $(pachi_rate 9 150000)" >>"$results"
        echo "pachi 19 $(pachi_rate 19 50000)" >>"$results"
    fi
done

python3 - "$results" <<'EOF'
import statistics, sys
rates = {}
for line in open(sys.argv[1]):
    engine, size, rate = line.split()
    rates.setdefault((engine, int(size)), []).append(float(rate))
med = {k: statistics.median(v) for k, v in rates.items()}
engines = [e for e in ("yeoul", "libego", "pachi") if (e, 9) in med]
print("light playouts/s, 1 thread, empty board (median of %d interleaved rounds)"
      % len(rates[("yeoul", 9)]))
print("| | 9x9 | 19x19 |")
print("|---|---|---|")
for e in engines:
    print("| %s | %s | %s |" % (e, f"{med[(e, 9)]:,.0f}", f"{med[(e, 19)]:,.0f}"))
for e in engines[1:]:
    print("| yeoul / %s | %.2f | %.2f |"
          % (e, med[("yeoul", 9)] / med[(e, 9)], med[("yeoul", 19)] / med[(e, 19)]))
EOF
