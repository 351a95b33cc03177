#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/<target>/) from real inputs: the GTP regression
# files and transcripts, games of the 9-dan collection, the shipped model (and a small one
# trained here, so that mutations load fast) and the shipped and test networks.
# Usage: bash fuzz/seed.sh [SGF collection]   (default: ../shared/data/tom-9d/tom-2005.sgf)
#   CORPUS  where the corpora go (default: fuzz/corpus)
set -euo pipefail
cd "$(dirname "$0")"
root=$(realpath ..)
sgf=$(realpath "${1:-$root/../shared/data/tom-9d/tom-2005.sgf}")
corpus=$(realpath -m "${CORPUS:-corpus}")
mkdir -p "$corpus"/{gtp,sgf,model_file,network_file}

# GTP: each regression file's commands (its expectations are comments), each transcript.
for f in "$root"/gtp-tests/*.tst; do
    grep -v '^#?' "$f" | split -l 40 - "$corpus/gtp/$(basename "$f" .tst)-"
done
cp "$root"/gtp-tests/transcripts/*.in "$corpus/gtp/"

# SGF: single games, a collection of a few, a set-up position and a handicap game.
python3 - "$sgf" "$corpus/sgf" <<'PY'
import sys, re
text = open(sys.argv[1], encoding="utf-8", errors="replace").read(3_000_000)
games = re.findall(r"\(;.*?\)\s*(?=\(;|$)", text, re.S)[:60]
for k, g in enumerate(games[:50]):
    open(f"{sys.argv[2]}/game-{k:02}.sgf", "w").write(g)
open(f"{sys.argv[2]}/collection.sgf", "w").write("\n".join(games[50:60]))
open(f"{sys.argv[2]}/setup.sgf", "w").write("(;SZ[5]AB[aa][bb]AW[cc]PL[W];W[dd](;B[ee])(;B[ed]))")
open(f"{sys.argv[2]}/handicap.sgf", "w").write("(;SZ[9]HA[2]AB[cc][gg]KM[0.5];W[ee];B[]TB[aa])")
PY

# Model files: the shipped one, and a small one trained on a few games.
cp "$root/models/yeoul.model" "$corpus/model_file/shipped.model"
[ -f "$corpus/model_file/small.model" ] || (cd "$root" && cargo run --release --quiet -- train \
    --games 40 --min-shape-count 3 --positions 2000 --cycles 2 --validation-from none \
    --out "$corpus/model_file/small.model" "$sgf" >/dev/null 2>&1)

# Network files: the shipped one and the tests' tiny one.
cp "$root/models/policy.safetensors" "$corpus/network_file/shipped.safetensors"
cp "$root/tests/data/tiny-net.safetensors" "$corpus/network_file/tiny.safetensors"
cp "$root/tests/data/tiny-net-v2.safetensors" "$corpus/network_file/tiny-v2.safetensors"
cp "$root/tests/data/tiny-net-v3.safetensors" "$corpus/network_file/tiny-v3.safetensors"
for t in gtp sgf model_file network_file; do
    echo "$t: $(ls "$corpus/$t" | wc -l) files, $(du -sh "$corpus/$t" | cut -f1)"
done
