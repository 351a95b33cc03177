#!/bin/bash
# The whole network training as one call on a lent GPU machine (the `device` tool), or
# anywhere else: the SGF collections carried compressed, the positions exported there by
# the x86-64 release binary on every core, training for a fixed time, the network, its
# validation and the logs written to $OUT.
#
# Here, once:     scripts/gpu_train.sh --prepare
#                 (a stripped release binary and the tom-9d collections, xz-compressed,
#                 in target/gpu/: carry that folder, about 25 MiB)
# There:          bash scripts/gpu_train.sh       (device tool: carry ["target/gpu"])
# Settings by environment: MINUTES (training time, 6), BLOCKS (10), FILTERS (128),
# BATCH (1024), LR (0.002), POSITIONS (exported, 10000000), OUT (a new temporary folder).
# A small try on a CPU: POSITIONS=20000 MINUTES=1 BLOCKS=1 FILTERS=8 BATCH=64 OUT=/tmp/o \
#     bash scripts/gpu_train.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --prepare ]; then
    cargo build --release
    mkdir -p target/gpu
    strip -o target/gpu/yeoul target/release/yeoul
    tar -cJf target/gpu/tom-9d.tar.xz -C ../shared/data tom-9d
    ls -la target/gpu
    exit 0
fi
OUT=${OUT:-$(mktemp -d)}
MINUTES=${MINUTES:-6}
BLOCKS=${BLOCKS:-10}
FILTERS=${FILTERS:-128}
BATCH=${BATCH:-1024}
LR=${LR:-0.002}
POSITIONS=${POSITIONS:-10000000}
mkdir -p "$OUT"
work=$(mktemp -d)
started=$(date +%s)
tar -xJf target/gpu/tom-9d.tar.xz -C "$work"
target/gpu/yeoul positions "$work/tom-9d" --out "$work/train.pos" \
    --validation-out "$work/val.pos" --positions "$POSITIONS" \
    --validation-positions 100000 > "$OUT/export.txt" 2> "$OUT/export.log"
echo "exported in $(( $(date +%s) - started )) s" >> "$OUT/export.txt"
python3 -c "import jax; print(jax.__version__, jax.devices())" > "$OUT/devices.txt" 2>&1
python3 training/train.py --train "$work/train.pos" --validation "$work/val.pos" \
    --out "$OUT/net.safetensors" --blocks "$BLOCKS" --filters "$FILTERS" --batch "$BATCH" \
    --lr "$LR" --positions 1e12 --time-limit "$MINUTES" --validation-positions 20000 \
    --checkpoint-minutes 2 > "$OUT/train.json" 2> "$OUT/train.log"
python3 training/evaluate.py "$OUT/net.safetensors" "$work/val.pos" > "$OUT/evaluation.json" 2>> "$OUT/train.log"
echo "done in $(( $(date +%s) - started )) s" >> "$OUT/export.txt"
cat "$OUT/export.txt" "$OUT/evaluation.json"
rm -rf "$work"
