#!/usr/bin/env python3
"""Scores finished games twice, by yeoul and by a referee engine, and reports agreement.

Usage:
  scripts/referee_agreement.py --yeoul "target/release/yeoul --rules chinese" \
      --referee "gnugo --mode gtp --chinese-rules" games/*.sgf

Each SGF (as `yeoul match --sgf-dir` writes them, played out to two passes) is loaded
with `loadsgf` into both engines, which answer `final_score`. A result is the winner and
the margin; the two agree when both are equal. Every disagreement is printed with both
engines' dead lists, for inspection. Needs only the Python standard library.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys


class Gtp:
    def __init__(self, command):
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"engine died on {command!r}")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line or lines:
                lines.append(line)
        text = "\n".join(lines)
        ok = text.startswith("=")
        return ok, text[1:].strip()

    def close(self):
        try:
            self.send("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.wait(timeout=10)


def ends_with_two_passes(path):
    """Whether the record's last two moves are passes (`[]` or FF[3]'s `[tt]`)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    moves = re.findall(r";\s*[BW]\[([a-z]*)\]", text)
    return len(moves) >= 2 and all(m in ("", "tt") for m in moves[-2:])


def normalise(score):
    score = score.strip().upper()
    if score in ("0", "DRAW", "JIGO"):
        return "0"
    return score


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--yeoul", required=True)
    ap.add_argument("--referee", required=True)
    ap.add_argument("sgf", nargs="+")
    args = ap.parse_args()
    yeoul, referee = Gtp(args.yeoul), Gtp(args.referee)
    agree = 0
    total = 0
    skipped = 0
    for path in args.sgf:
        path = os.path.abspath(path)
        if not ends_with_two_passes(path):
            skipped += 1
            print(f"{os.path.basename(path)}: skipped (not ended by two passes)")
            continue
        scores = []
        for engine in (yeoul, referee):
            ok, text = engine.send(f"loadsgf {path}")
            if not ok:
                print(f"{path}: loadsgf failed: {text}", file=sys.stderr)
                break
            ok, text = engine.send("final_score")
            scores.append(normalise(text) if ok else f"error: {text}")
        if len(scores) != 2:
            continue
        total += 1
        if scores[0] == scores[1]:
            agree += 1
            print(f"{os.path.basename(path)}: agree {scores[0]}")
        else:
            print(f"{os.path.basename(path)}: DISAGREE yeoul {scores[0]} referee {scores[1]}")
            for name, engine in (("yeoul", yeoul), ("referee", referee)):
                ok, dead = engine.send("final_status_list dead")
                print(f"    {name} dead: {' '.join(dead.split())}")
    yeoul.close()
    referee.close()
    pct = 100.0 * agree / total if total else 0.0
    print(f"TOTAL {agree}/{total} agree ({pct:.1f}%); {skipped} skipped")


if __name__ == "__main__":
    main()
