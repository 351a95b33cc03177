"""Logits of a network for the positions of a positions file, as the trainer computes them
(reading the file, the planes' layout, the forward pass): tests/trainer.rs compares them
with the engine's for the same positions.

    python3 training/crosscheck.py POSITIONS NET OUT.safetensors
"""

import os
import sys

import jax
import numpy as np
from safetensors.numpy import save_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import net  # noqa: E402
from positions import Positions  # noqa: E402

jax.config.update("jax_default_matmul_precision", "highest")


def main(positions_path, net_path, out):
    positions = Positions(positions_path, net.PLANES, net.PLANES_VERSION)
    params, _ = net.load(net_path)
    x, moves = positions.batch(np.arange(len(positions)))
    logits = np.asarray(net.logits(params, x), np.float32)
    save_file({"logits": logits, "moves": moves.astype(np.int32)}, out)


if __name__ == "__main__":
    main(*sys.argv[1:4])
