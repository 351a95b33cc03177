"""Writes the test data that checks the engine's forward pass against this trainer's
(`cargo test`, src/network/): a tiny network with random weights and biases,
random input planes on 9x9, 13x13 and 19x19, and the logits and move probabilities JAX
computes for them; and the same network with a value and an ownership head (version 3)
and what those heads give for the same planes. (tests/data/tiny-net.safetensors and tiny-net-expected.safetensors are
the version-1 network and its 19x19 outputs, written by this script before version 2.)

    python3 training/make_test_data.py tests/data
"""

import os
import sys

import jax
import numpy as np
from safetensors.numpy import load_file, save_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import net  # noqa: E402

jax.config.update("jax_default_matmul_precision", "highest")


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(7)
    params = net.init(jax.random.PRNGKey(7), blocks=2, filters=8)
    # Biases and the residual branches away from their initial zeros, so that every
    # tensor's layout matters to the result.
    params = {
        k: np.asarray(v) + (rng.normal(0, 0.1, v.shape).astype(np.float32) if "bias" in k or "conv2" in k else 0)
        for k, v in params.items()
    }
    net.save(os.path.join(out_dir, "tiny-net-v2.safetensors"), params, "test network: 2 blocks x 8 filters, seed 7")
    expected = {}
    for size in (9, 13, 19):
        count, points = 6, size * size
        bits = (rng.random((count, net.PLANES, points)) < 0.3).astype(np.uint8)
        bits[:, net.LEGAL_PLANE, :] = rng.random((count, points)) < 0.8
        x = bits.reshape(count, net.PLANES, size, size).transpose(0, 2, 3, 1).astype(np.float32)
        expected[f"planes_{size}"] = bits
        expected[f"logits_{size}"] = np.asarray(net.logits(params, x), np.float32)
        expected[f"probabilities_{size}"] = np.asarray(jax.nn.softmax(net.masked_logits(params, x)), np.float32)
    save_file(
        expected,
        os.path.join(out_dir, "tiny-net-v2-expected.safetensors"),
        metadata={"note": "planes_N: (position, plane, row-major point) bits on NxN; logits and probabilities from training/net.py"},
    )
    # Version 3: the same trunk and policy with both heads, their weights (and the fixed
    # standardisation) away from the initial ones so that every tensor matters. A
    # generator of its own, so that the version-2 files above stay as they were.
    rng = np.random.default_rng(8)
    _, filters = net.shape_of(params)
    heads = {**net.init_value(jax.random.PRNGKey(8), filters), **net.init_ownership(jax.random.PRNGKey(9), filters)}
    heads = {k: np.asarray(v) + rng.normal(0, 0.3, v.shape).astype(np.float32) for k, v in heads.items()}
    heads["value.input_mean"] = rng.normal(2.0, 1.0, 2 * filters).astype(np.float32)
    heads["value.input_scale"] = rng.uniform(1.0, 4.0, 2 * filters).astype(np.float32)
    heads["value.fc2.weight"] *= 0.2  # the value well inside tanh's slopes, not at -1
    with_heads = {**params, **heads}
    net.save(os.path.join(out_dir, "tiny-net-v3.safetensors"), with_heads, "test network: 2 blocks x 8 filters with value and ownership heads, seed 7 and 8")
    expected = {}
    for size in (9, 13, 19):
        bits = load_file(os.path.join(out_dir, "tiny-net-v2-expected.safetensors"))[f"planes_{size}"]
        x = bits.reshape(bits.shape[0], net.PLANES, size, size).transpose(0, 2, 3, 1).astype(np.float32)
        h = net.trunk(with_heads, x)
        expected[f"logits_{size}"] = np.asarray(net.policy_head(with_heads, h), np.float32)
        expected[f"value_{size}"] = np.asarray(net.value_head(with_heads, net.pooled(h)), np.float32)
        expected[f"ownership_{size}"] = np.asarray(net.ownership_head(with_heads, h), np.float32)
    save_file(
        expected,
        os.path.join(out_dir, "tiny-net-v3-expected.safetensors"),
        metadata={"note": "for the planes_N of tiny-net-v2-expected: logits, value and ownership from training/net.py"},
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data")
