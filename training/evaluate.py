"""Top-1, top-5 and log-likelihood of a network on held-out positions.

    python3 training/evaluate.py NET.safetensors val.pos [--positions N]
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import net  # noqa: E402
import train  # noqa: E402
from positions import Positions  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("net")
    p.add_argument("positions")
    p.add_argument("--positions", dest="count", type=int, default=1 << 30, help="at most this many (drawn once, seed 0)")
    args = p.parse_args()
    params, meta = net.load(args.net)
    result = train.evaluate(params, Positions(args.positions, net.PLANES, net.PLANES_VERSION), args.count, phases=True)
    result.update({"blocks": int(meta["blocks"]), "filters": int(meta["filters"]), "bytes": os.path.getsize(args.net), "note": meta.get("note", "")})
    print(json.dumps(result))


if __name__ == "__main__":
    main()
