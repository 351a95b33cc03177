#!/usr/bin/env python3
"""Counts what went wrong in a soak (scripts/soak.sh OUT_DIR): one row a leg, and a total.

Usage: scripts/soak_report.py OUT_DIR [--markdown]

Columns, counted for yeoul's side(s) only (GNU Go's own faults are listed apart):
  games    games finished, of those the leg asked for (missing ones count as hangs)
  crash    engine died; hang: a move past --move-timeout, or the leg past its time limit
  illegal  an illegal move; malformed: an answer that broke the protocol or a refused command
  time     a move past the time left (a loss on time), or, under twogtp's sudden death,
           a game whose total thinking time was over the main time
  periods  byo-yomi periods lost by thinking past a period (`yeoul match` legs)
  ending   games that ended neither with two passes nor with a resignation
  score    counted games where yeoul's own final_score named another winner than the referee
"""
import glob
import os
import re
import sys

COLUMNS = ["games", "crash", "hang", "illegal", "malformed", "time", "periods", "ending", "score"]


def sgf_moves(text):
    return re.findall(r";\s*([BW])\[([a-s]{0,2})\]", text)


def ended_properly(path):
    """Two passes at the end, or a resignation in RE."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return False
    result = re.search(r"RE\[([^\]]*)\]", text)
    if result and "+R" in result.group(1):
        return True
    moves = sgf_moves(text)
    size = re.search(r"SZ\[(\d+)\]", text)
    size = int(size.group(1)) if size else 19
    passes = [m for _, m in moves[-2:] if m == "" or (m == "tt" and size <= 19)]
    return len(moves) >= 2 and len(passes) == 2


def winner(result):
    result = result.strip()
    return result[0] if result[:1] in ("B", "W") and "+" in result else None


def twogtp_leg(dir, leg, row, gnugo_faults):
    dat = os.path.join(dir, "game.dat")
    header, rows = None, []
    if os.path.exists(dat):
        for line in open(dat, encoding="utf-8", errors="replace"):
            line = line.rstrip("\n")
            if line.startswith("#GAME"):
                header = line[1:].split("\t")
            elif header and line and not line.startswith("#"):
                rows.append(dict(zip(header, line.split("\t"))))
    opponent_is_yeoul = leg["opponent"].startswith("yeoul")
    clock = leg["clock"]
    limit = float(clock.split(":")[1]) if clock.startswith("absolute:") else None
    row["games"] = len(rows)
    for r in rows:
        if r.get("ERR") == "1":
            message = r.get("ERR_MSG", "").lower()
            # twogtp does not say whose fault it was; the message names the program.
            key = ("crash" if "died" in message or "terminat" in message or "exit" in message
                   else "illegal" if "illegal" in message else "malformed")
            if "gnu go" in message and not opponent_is_yeoul:
                gnugo_faults.append(f"leg {leg['leg']} game {r['GAME']}: {r.get('ERR_MSG')}")
            else:
                row[key] += 1
        if limit is not None:
            times = [float(r.get("TIME_B", "0"))]
            if opponent_is_yeoul:
                times.append(float(r.get("TIME_W", "0")))
            row["time"] += sum(t > limit for t in times)
        if not ended_properly(os.path.join(dir, f"game-{r['GAME']}.sgf")):
            row["ending"] += 1
        ours, referee = winner(r.get("RES_B", "")), winner(r.get("RES_R", ""))
        if "+R" not in r.get("RES_B", "") and ours and referee and ours != referee:
            row["score"] += 1


def match_leg(dir, leg, row, gnugo_faults):
    out = os.path.join(dir, "match.out")
    err = os.path.join(dir, "match.err")
    text = open(out, encoding="utf-8", errors="replace").read() if os.path.exists(out) else ""
    log = open(err, encoding="utf-8", errors="replace").read() if os.path.exists(err) else ""
    row["games"] = len(re.findall(r"^game \d+:", log, re.M))
    opponent_is_yeoul = leg["opponent"].startswith("yeoul")
    for label in ("A", "B"):
        m = re.search(rf"^{label}  .*?((?:\s+\d+){{7}})\s*$", text, re.M)
        if not m:
            continue
        illegal, crash, timeout, protocol, refused, on_time, periods = map(int, m.group(1).split())
        faults = {"illegal": illegal, "crash": crash, "hang": timeout,
                  "malformed": protocol + refused, "time": on_time, "periods": periods}
        if label == "A" or opponent_is_yeoul:
            for key, n in faults.items():
                row[key] += n
        elif any(faults.values()):
            gnugo_faults.append(f"leg {leg['leg']}: GNU Go {faults}")
    for sgf in glob.glob(os.path.join(dir, "game-*.sgf")):
        if not ended_properly(sgf):
            text = open(sgf, encoding="utf-8", errors="replace").read()
            # A game lost on time or forfeited is already counted in its own column.
            result = re.search(r"RE\[([^\]]*)\]", text)
            if not (result and re.search(r"\+[TF]", result.group(1))):
                row["ending"] += 1


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    markdown = "--markdown" in sys.argv[2:]
    table, gnugo_faults = [], []
    for dir in sorted(glob.glob(os.path.join(out, "leg-*"))):
        try:
            fields = open(os.path.join(dir, "leg")).read().split()
        except OSError:
            continue
        leg = dict(zip(["driver", "size", "level", "rules", "opponent", "clock", "asked"], fields))
        leg["leg"] = dir.rsplit("-", 1)[1]
        row = {c: 0 for c in COLUMNS}
        (twogtp_leg if leg["driver"] == "twogtp" else match_leg)(dir, leg, row, gnugo_faults)
        try:
            rc, seconds = open(os.path.join(dir, "exit")).read().split()
        except (OSError, ValueError):
            rc, seconds = "running", "0"
        row["hang"] += max(0, int(leg["asked"]) - row["games"]) if rc != "running" else 0
        leg.update(row, rc=rc, minutes=int(seconds) / 60)
        table.append(leg)
    head = ["leg", "driver", "size", "level", "rules", "opponent", "clock", "asked"] + COLUMNS + ["minutes"]
    total = {c: sum(t[c] for t in table) for c in COLUMNS + ["minutes"]}
    total.update(leg="all", asked=sum(int(t["asked"]) for t in table))
    rows = table + [total]

    def cell(r, c):
        v = r.get(c, "")
        return f"{v:.0f}" if isinstance(v, float) else str(v)

    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(cell(r, c) for c in head) + " |")
    else:
        widths = [max(len(c), *(len(cell(r, c)) for r in rows)) for c in head]
        for r in [dict(zip(head, head))] + rows:
            print("  ".join(cell(r, c).rjust(w) for c, w in zip(head, widths)))
    for line in gnugo_faults:
        print("GNU Go fault (not counted):", line)


if __name__ == "__main__":
    main()
