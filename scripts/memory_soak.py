#!/usr/bin/env python3
"""The engine's resident memory over a long analysis or a long pondering game (Linux).

Usage: scripts/memory_soak.py [--minutes 30] [--every 60] [--mode analyze|ponder]
                              [--size 19] ENGINE_COMMAND...

analyze: one `kata-analyze` of the empty board for the whole time.
ponder:  a game in which the engine (given --ponder) moves as Black and then ponders
         for --think seconds of the "opponent's" time before White's reply (the policy's
         favourite move) comes, move after move.
Prints one line per sample: minutes, resident MiB (VmRSS), peak MiB (VmHWM), moves.
"""
import argparse
import subprocess
import sys
import threading
import time


def status_mib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--every", type=float, default=60, help="seconds between samples")
    ap.add_argument("--mode", choices=["analyze", "ponder"], default="analyze")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--think", type=float, default=60, help="ponder: the opponent's seconds a move")
    ap.add_argument("engine", nargs="+")
    args = ap.parse_args()
    engine = subprocess.Popen(args.engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    lines = []
    reader = threading.Thread(target=lambda: [lines.append(l) for l in engine.stdout], daemon=True)
    reader.start()

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def answer():
        """The next complete answer (up to its empty line)."""
        out = []
        while True:
            while not lines:
                if engine.poll() is not None:
                    sys.exit(f"the engine exited ({engine.returncode})")
                time.sleep(0.01)
            line = lines.pop(0)
            if line == "\n" and out and out[0][:1] in "=?":
                return "".join(out)
            if line != "\n":
                out.append(line)

    send(f"boardsize {args.size}")
    send("clear_board")
    answer(), answer()
    moves = 0
    started = time.time()
    end = started + 60 * args.minutes
    next_sample = started
    print("minutes  rss_MiB  peak_MiB  moves", flush=True)

    def sample():
        print(f"{(time.time() - started) / 60:7.1f}  {status_mib(engine.pid, 'VmRSS:'):7.1f}  "
              f"{status_mib(engine.pid, 'VmHWM:'):8.1f}  {moves:5d}", flush=True)

    if args.mode == "analyze":
        send("kata-analyze b 100")
        while time.time() < end:
            if time.time() >= next_sample:
                sample()
                next_sample += args.every
            time.sleep(0.5)
            del lines[:-10]  # the analysis stream itself is not kept
        sample()
    else:
        while time.time() < end:
            send("genmove b")
            reply = answer()
            moves += 1
            if "resign" in reply or "pass" in reply.lower():
                send("clear_board")
                answer()
                continue
            think_until = time.time() + args.think
            while time.time() < min(think_until, end):
                if time.time() >= next_sample:
                    sample()
                    next_sample += args.every
                time.sleep(0.5)
            send("yeoul-policy 1")
            policy = answer()
            parts = policy[1:].split()
            if not parts:
                send("clear_board")
                answer()
                continue
            send(f"play w {parts[0]}")
            answer()
            moves += 1
        sample()
    send("quit")
    engine.wait(timeout=30)


if __name__ == "__main__":
    main()
