#!/usr/bin/env bash
# Unzips the Tygem games of yenw/computer-go-dataset (TYGEM/Kifu/YYYY-MM.zip and
# TYGEM/index/KifuYYYY.zip) into DEST, where `yeoul positions --tygem DEST` reads them.
# SOURCE is a checkout of the repository, or its bare git directory as the search tool's
# fetch brings it (files are then read from HEAD). Data, not code: keep DEST outside the
# repository. Usage: scripts/tygem.sh SOURCE DEST
set -euo pipefail
source=${1:?usage: scripts/tygem.sh SOURCE DEST}
dest=${2:?usage: scripts/tygem.sh SOURCE DEST}
mkdir -p "$dest"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ -d "$source/TYGEM" ]; then
    files=$(cd "$source" && ls TYGEM/Kifu/*.zip TYGEM/index/*.zip)
    fetch() { cp "$source/$1" "$2"; }
else
    files=$(git -C "$source" ls-tree -r --name-only HEAD TYGEM/Kifu TYGEM/index | grep '\.zip$')
    fetch() { git -C "$source" show "HEAD:$1" > "$2"; }
fi
count=0
for f in $files; do
    # The snapshot leaves out files over 4 MiB: a missing object, or no zip.
    if fetch "$f" "$scratch/x.zip" 2>/dev/null && unzip -o -q "$scratch/x.zip" -d "$dest" 2>/dev/null; then
        count=$((count + 1))
    else
        echo "skipped $f (not a zip in this copy)" >&2
    fi
done
echo "$count zip files unzipped into $dest" >&2
