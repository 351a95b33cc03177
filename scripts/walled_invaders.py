#!/usr/bin/env python3
"""Walled-off invaders (issue 14): a Black area `depth` lines deep along an edge, walled by a
solid Black line and a White line outside it, with one or two White stones inside (random
points, none next to the wall), on all four edges, under Chinese and Japanese rules. Prints,
per board size, depth and number of invaders, how many positions list every invader dead.

Usage: scripts/walled_invaders.py "target/release/yeoul --threads 2" [SEED]
"""
import subprocess, sys, random
COLS="ABCDEFGHJKLMNOPQRST"
def name(x,y): return f"{COLS[x]}{y+1}"
def rot(x,y,n,k):
    for _ in range(k): x,y = y, n-1-x
    return x,y
def case(n, depth, invaders, k, rules, engine):
    # Black owns rows 0..depth-1, wall on row depth, White wall on row depth+1
    cmds=[f"boardsize {n}","clear_board","komi 0"]
    for x in range(n):
        cmds.append("play b "+name(*rot(x,depth,n,k)))
        cmds.append("play w "+name(*rot(x,depth+1,n,k)))
    for (x,y) in invaders:
        cmds.append("play w "+name(*rot(x,y,n,k)))
    cmds += ["final_status_list dead","final_score"]
    out = subprocess.run(engine.split()+["--rules",rules], input="\n".join(cmds)+"\n", capture_output=True, text=True).stdout
    answers=[a for a in out.split("\n\n") if a.strip()]
    dead=set(answers[-2].strip("= \n").split())
    want={name(*rot(x,y,n,k)) for (x,y) in invaders}
    return want <= dead, answers[-2].strip(), answers[-1].strip()
engine=sys.argv[1]
random.seed(int(sys.argv[2]) if len(sys.argv)>2 else 1)
for n,depth,count in [(9,4,1),(9,4,2),(9,3,1),(9,3,2),(13,4,1),(13,4,2),(13,5,1),(19,4,1),(19,4,2),(19,5,1),(19,5,2),(19,6,1)]:
    fails=0; tot=0
    for trial in range(4):
        inv=set()
        while len(inv)<count:
            inv.add((random.randrange(n), random.randrange(depth-1)))
        for k in range(4):
            for rules in ["chinese","japanese"]:
                ok,d,s=case(n,depth,sorted(inv),k,rules,engine)
                tot+=1
                if not ok:
                    fails+=1
                    print("FAIL",n,depth,sorted(inv),k,rules,d,s, flush=True)
    print(f"size {n} depth {depth} invaders {count}: {tot-fails}/{tot} dead", flush=True)
