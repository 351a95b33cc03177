#!/bin/bash
# The engine's forward pass against ONNX Runtime on the same network, interleaved:
# batch 1 and 8, 1 and 2 threads (issue 35). Needs a release build of the example
# (cargo build --release --example network_speed) and training/requirements-bench.txt.
# Usage: scripts/network_bench.sh NET.safetensors [ROUNDS] [SECONDS] [SIZE]
# (SIZE: the board, 19 by default; a version-2 network plays any.)
# Prints each setting's median positions/s for both, their ratio, and the median and
# range of the per-round ratios.
set -eu
net=${1:?usage: scripts/network_bench.sh NET.safetensors [ROUNDS] [SECONDS] [SIZE]}
rounds=${2:-5}
seconds=${3:-3}
size=${4:-19}
cd "$(dirname "$0")/.."
python3 training/onnx_reference.py "$net" --check --size "$size"
runs=$(mktemp)
for r in $(seq "$rounds"); do
  target/release/examples/network_speed "$net" "$seconds" 1,8 1,2 "$size" 2>/dev/null |
    awk -v r="$r" '{print r, "yeoul", $3 "-" $5, $6}' >> "$runs"
  python3 training/onnx_reference.py "$net" --seconds "$seconds" --size "$size" 2>/dev/null |
    awk -v r="$r" '{print r, "onnxruntime", $3 "-" $5, $6}' >> "$runs"
done
python3 - "$runs" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, who, setting, rate = line.split()
    runs[setting.rstrip(":")].setdefault(who, {})[r] = float(rate)
print("| batch-threads | yeoul positions/s | onnxruntime positions/s | ratio of medians | per-round ratios: median (range) |")
print("|---|---|---|---|---|")
for setting, by in runs.items():
    ours, theirs = by["yeoul"], by["onnxruntime"]
    ratios = [ours[r] / theirs[r] for r in ours if r in theirs]
    mo, mt = statistics.median(ours.values()), statistics.median(theirs.values())
    print(f"| {setting} | {mo:.0f} | {mt:.0f} | {mo / mt:.2f} | {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |")
PY
rm -f "$runs"
