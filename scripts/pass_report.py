"""The passes of a match against yeoul (issue 62): from `gtpkit.py match`'s SGF folder,
yeoul's wins with the Wilson 95% interval, the mean margin of the counted games, and every
pass of yeoul's before the game's last two moves; with --first, each game's first pass of
yeoul's that answers no pass, with its reason and win rate from yeoul's `-v` logs (one
file a process, as `scripts/yseed_log.sh` writes them) and the referee's count of the
position after it.

    python3 scripts/pass_report.py DIR [--first --logs LOGDIR --level normal]
"""

import argparse
import glob
import math
import os
import re
import subprocess

COLUMNS = "abcdefghjklmnopqrst"


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p, d = k / n, 1 + z * z / n
    c, r = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - r) / d, (c + r) / d


def game(path):
    text = open(path).read()
    ours = "B" if "yeoul" in re.search(r"PB\[([^\]]*)\]", text).group(1) else "W"
    moves = re.findall(r";([BW])\[([a-z]{0,2})\]", text)
    result = re.search(r"RE\[([^\]]*)\]", text).group(1)
    return ours, moves, result


def is_pass(p):
    return p in ("", "tt")


def vertex(p):
    return "pass" if is_pass(p) else f"{COLUMNS[ord(p[0]) - 97].upper()}{19 - (ord(p[1]) - 97)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--first", action="store_true")
    ap.add_argument("--logs", default="logs")
    ap.add_argument("--level", default="")
    ap.add_argument("--referee", default="gnugo --mode gtp --chinese-rules")
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.dir, "*.sgf")))
    logs = []
    for f in glob.glob(os.path.join(args.logs, f"*{args.level}*.log")):
        pattern = r"genmove\] (?:Black|White) (\S+) \((\w+)\).*?win rate ([0-9.]+)%"
        logs.append(re.findall(pattern, open(f).read()))
    won, margins, early, answering = 0, [], [], 0
    for f in files:
        ours, moves, result = game(f)
        m = re.match(r"([BW])\+([0-9.]+)?", result)
        if m:
            sign = 1 if m.group(1) == ours else -1
            won += sign > 0
            if m.group(2):
                margins.append(sign * float(m.group(2)))
        for i, (c, p) in enumerate(moves):
            if c == ours and is_pass(p) and i < len(moves) - 2:
                if i > 0 and is_pass(moves[i - 1][1]):
                    answering += 1
                else:
                    early.append(f"{os.path.basename(f)}: move {i + 1} of {len(moves)}, {result}")
    lo, hi = wilson(won, len(files))
    mean = sum(margins) / max(1, len(margins))
    print(f"{args.dir}: yeoul won {won} of {len(files)} (Wilson {100 * lo:.1f}-{100 * hi:.1f}%); mean margin "
          f"{mean:+.1f} over {len(margins)} counted games; passes before the last two moves: {len(early)} "
          f"first, {answering} answering one")
    for line in early:
        print("  " + line)
    if not args.first:
        return
    for f in files:
        ours, moves, result = game(f)
        played = [vertex(p) for c, p in moves if c == ours]
        log = next((s for s in logs if [m[0].lower() for m in s][: len(played)] == [v.lower() for v in played]), None)
        for i, (c, p) in enumerate(moves):
            if c == ours and is_pass(p) and not (i > 0 and is_pass(moves[i - 1][1])):
                k = sum(1 for c2, _ in moves[: i + 1] if c2 == ours) - 1
                reason, rate = (log[k][1], log[k][2] + "%") if log and k < len(log) else ("?", "?")
                out = subprocess.run(args.referee.split(), input=f"loadsgf {f} {i + 2}\nfinal_score\nquit\n",
                                     capture_output=True, text=True).stdout
                count = re.findall(r"= ([BW]\+[0-9.]+|0)", out)
                print(f"  {os.path.basename(f)}: first pass at move {i + 1} of {len(moves)} ({reason}, win rate "
                      f"{rate}); count after it {count[-1] if count else '?'}; final {result}")
                break


if __name__ == "__main__":
    main()
