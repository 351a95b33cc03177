"""The policy network and its file, the one format the engine reads (`src/network/`).

A residual tower (Leela Zero's and AlphaGo Zero's shape, without batch normalisation):
a 3x3 convolution from the input planes to F filters, B residual blocks of two 3x3
convolutions, and a policy head: a 1x1 convolution to one plane plus a bias that depends
only on a point's distance to the nearest edge, so that nothing in the network is tied to
an absolute point and it evaluates every board size (with the on-board input plane, the
zero padding beyond the board reads as the edge, as in KataGo's networks).
Every convolution has a bias and ReLU follows all but the second of each block, which
ReLU follows after the skip connection is added. Activations are NHWC, rows from the
bottom of the board as the planes number them.

The file is safetensors (https://github.com/huggingface/safetensors), float32 tensors:

    conv_in.weight           [3, 3, PLANES, F]  (HWIO)
    conv_in.bias             [F]
    blocks.{i}.conv1.weight  [3, 3, F, F]
    blocks.{i}.conv1.bias    [F]
    blocks.{i}.conv2.weight  [3, 3, F, F]
    blocks.{i}.conv2.bias    [F]
    policy.weight            [F]
    policy.edge_bias         [EDGE_DISTANCES]  (by distance to the nearest edge, 0 to 9)

and, in version 3, a value head on the same trunk: the trunk's output averaged and its
maximum taken over the board's points (2F numbers, whatever the board size), a dense
layer with ReLU, and one output through tanh, the expected result for the side to move
(+1 a win, -1 a loss):

    value.input_mean         [2F]  (fixed: the pooled features' mean and spread on the
    value.input_scale        [2F]   trunk the head was made for; the layer reads (f - mean) / scale)
    value.fc1.weight         [2F, VALUE_HIDDEN]
    value.fc1.bias           [VALUE_HIDDEN]
    value.fc2.weight         [VALUE_HIDDEN]
    value.fc2.bias           [1]

and, with the value head, a final-ownership head the trainer uses to teach the trunk
who owns each point at the end of a counted game (a dense target beside the one result
a game; KataGo's ownership head), a 1x1 convolution to one plane through tanh, +1 the
side to move's point, -1 the opponent's:

    ownership.weight         [F]
    ownership.bias           [1]

and metadata: format "yeoul-policy", version "3" (with the value head) or "2", planes, planes_version, board_size (the
size it was trained on), blocks, filters, note, and crc32: zlib's CRC-32 of the tensors' bytes (little-endian
float32, row-major) one after another in the order of their names, as 8 hex digits.
Version 1 had `policy.bias [N * N]`, a bias per point of the one size it was trained on,
in place of `policy.edge_bias`: `load` and `logits` still read it, and `save` writes a
network with that head (one trained from a version-1 file with `--init`) as version 1.
"""

import json
import zlib

import jax
import jax.numpy as jnp
import numpy as np
from safetensors.numpy import load_file, safe_open, save_file

FORMAT = "yeoul-policy"
VERSION = "2"
VALUE_VERSION = "3"
# The value head's hidden layer.
VALUE_HIDDEN = 32
VALUE_TENSORS = (
    "value.input_mean",
    "value.input_scale",
    "value.fc1.weight",
    "value.fc1.bias",
    "value.fc2.weight",
    "value.fc2.bias",
)
OWNERSHIP_TENSORS = ("ownership.weight", "ownership.bias")
# Tensors no optimiser changes (their gradient is stopped, and weight decay skips them).
FIXED = ("value.input_mean", "value.input_scale")
# Must match src/network/planes.rs (PLANES, PLANES_VERSION, LEGAL).
PLANES = 20
PLANES_VERSION = 1
LEGAL_PLANE = 15
BOARD = 19
POINTS = BOARD * BOARD
# Distances to the nearest edge on boards up to 19x19 (the centre of 19x19 is 9 away).
EDGE_DISTANCES = 10
# The filter counts the engine's forward pass is compiled for (src/network/).
FILTERS = (8, 16, 32, 48, 64, 96, 128, 192, 256)


def init(key, blocks, filters, planes=PLANES):
    """He-initialised weights; the second convolution of each block starts near zero, so
    that the tower starts close to the identity (trains without normalisation)."""
    keys = jax.random.split(key, 2 * blocks + 2)

    def conv(k, cin, cout, scale=1.0):
        std = scale * np.sqrt(2.0 / (9 * cin))
        return jax.random.normal(k, (3, 3, cin, cout), jnp.float32) * std

    params = {
        "conv_in.weight": conv(keys[0], planes, filters),
        "conv_in.bias": jnp.zeros((filters,), jnp.float32),
    }
    for i in range(blocks):
        params[f"blocks.{i}.conv1.weight"] = conv(keys[1 + 2 * i], filters, filters)
        params[f"blocks.{i}.conv1.bias"] = jnp.zeros((filters,), jnp.float32)
        params[f"blocks.{i}.conv2.weight"] = conv(keys[2 + 2 * i], filters, filters, 0.1)
        params[f"blocks.{i}.conv2.bias"] = jnp.zeros((filters,), jnp.float32)
    params["policy.weight"] = jax.random.normal(keys[-1], (filters,), jnp.float32) * 0.01
    params["policy.edge_bias"] = jnp.zeros((EDGE_DISTANCES,), jnp.float32)
    return params


def init_value(key, filters, hidden=VALUE_HIDDEN, mean=None, scale=None):
    """A value head for a trunk of `filters` filters, its output near 0. `mean` and `scale`
    (2F each, measured on the trunk it will sit on) standardise the pooled features, kept
    fixed: the trunk has no normalisation and its outputs run to the thousands, which
    would saturate the head, and weights scaled down to match would be swamped by the
    optimiser's first steps."""
    k1, k2 = jax.random.split(key)
    mean = np.zeros(2 * filters, np.float32) if mean is None else np.asarray(mean, np.float32)
    scale = np.ones(2 * filters, np.float32) if scale is None else np.asarray(scale, np.float32)
    return {
        "value.input_mean": jnp.asarray(mean),
        "value.input_scale": jnp.asarray(scale),
        "value.fc1.weight": jax.random.normal(k1, (2 * filters, hidden), jnp.float32) * np.sqrt(2.0 / (2 * filters)),
        "value.fc1.bias": jnp.zeros((hidden,), jnp.float32),
        "value.fc2.weight": jax.random.normal(k2, (hidden,), jnp.float32) * 0.01,
        "value.fc2.bias": jnp.zeros((1,), jnp.float32),
    }


def init_ownership(key, filters):
    """An ownership head for a trunk of `filters` filters, its output near 0."""
    return {
        "ownership.weight": jax.random.normal(key, (filters,), jnp.float32) * 0.01,
        "ownership.bias": jnp.zeros((1,), jnp.float32),
    }


def has_ownership(params):
    return "ownership.weight" in params


def ownership_head(params, h):
    """Each point's expected final owner (batch, N*N), -1..1 from the side to move's view."""
    out = jnp.einsum("bhwc,c->bhw", h, params["ownership.weight"]).reshape(h.shape[0], -1)
    return jnp.tanh(out + params["ownership.bias"][0])


def trainable(params):
    """Which parameters an optimiser changes (for optax's masks)."""
    return {k: k not in FIXED for k in params}


def has_value(params):
    return "value.fc1.weight" in params


def edge_distance(n):
    """Each point's distance to the nearest edge of an n x n board, row-major."""
    line = np.minimum(np.arange(n), n - 1 - np.arange(n))
    return np.minimum(line[:, None], line[None, :]).reshape(-1)


def shape_of(params):
    """(blocks, filters) of a parameter dict."""
    blocks = sum(1 for k in params if k.endswith(".conv1.weight"))
    return blocks, params["conv_in.bias"].shape[0]


def _conv(x, w, b):
    y = jax.lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )
    return y + b


def trunk(params, x):
    """The residual tower's output (batch, N, N, F) for inputs (batch, N, N, PLANES)."""
    blocks, _ = shape_of(params)
    h = jax.nn.relu(_conv(x, params["conv_in.weight"], params["conv_in.bias"]))
    for i in range(blocks):
        y = jax.nn.relu(_conv(h, params[f"blocks.{i}.conv1.weight"], params[f"blocks.{i}.conv1.bias"]))
        y = _conv(y, params[f"blocks.{i}.conv2.weight"], params[f"blocks.{i}.conv2.bias"])
        h = jax.nn.relu(h + y)
    return h


def policy_head(params, h):
    """Raw move scores (batch, N*N) from the trunk's output."""
    out = jnp.einsum("bhwc,c->bhw", h, params["policy.weight"]).reshape(h.shape[0], -1)
    if "policy.bias" in params:  # version 1: a bias per point of its one size
        return out + params["policy.bias"]
    return out + params["policy.edge_bias"][edge_distance(h.shape[1])]


def pooled(h):
    """The trunk's output averaged, then its maximum, over the board: (batch, 2F)."""
    return jnp.concatenate([h.mean(axis=(1, 2)), h.max(axis=(1, 2))], axis=1)


def value_head(params, features):
    """The expected result for the side to move (-1..1) from the pooled trunk (batch, 2F)."""
    mean = jax.lax.stop_gradient(params["value.input_mean"])
    scale = jax.lax.stop_gradient(params["value.input_scale"])
    features = (features - mean) / scale
    hidden = jax.nn.relu(features @ params["value.fc1.weight"] + params["value.fc1.bias"])
    return jnp.tanh(hidden @ params["value.fc2.weight"] + params["value.fc2.bias"][0])


def value(params, x):
    """The value head's output (batch,) for inputs (batch, N, N, PLANES)."""
    return value_head(params, pooled(trunk(params, x)))


def logits(params, x):
    """Raw move scores, shape (batch, N*N), for inputs x of shape (batch, N, N, PLANES)."""
    return policy_head(params, trunk(params, x))


def masked_logits(params, x):
    """Scores with the illegal points (no bit in the legal plane) pushed to -1e9: the
    engine chooses among legal moves only, and so does the loss."""
    legal = x[..., LEGAL_PLANE].reshape(x.shape[0], -1)
    return jnp.where(legal > 0, logits(params, x), -1e9)


def save(path, params, note=""):
    blocks, filters = shape_of(params)
    metadata = {
        "format": FORMAT,
        "version": "1" if "policy.bias" in params else VALUE_VERSION if has_value(params) else VERSION,
        "planes": str(PLANES),
        "planes_version": str(PLANES_VERSION),
        "board_size": str(BOARD),
        "blocks": str(blocks),
        "filters": str(filters),
        "note": note,
    }
    tensors = {k: np.ascontiguousarray(np.asarray(v, np.float32)) for k, v in params.items()}
    metadata["crc32"] = f"{checksum(tensors):08x}"
    save_file(tensors, path, metadata=metadata)


def checksum(tensors):
    crc = 0
    for name in sorted(tensors):
        crc = zlib.crc32(np.ascontiguousarray(tensors[name], "<f4").tobytes(), crc)
    return crc


def load(path):
    """Parameters and metadata of a network file; a file of another format is refused."""
    with safe_open(path, framework="numpy") as f:
        metadata = f.metadata() or {}
    if metadata.get("format") != FORMAT:
        raise ValueError(f"{path}: not a yeoul policy network")
    if metadata.get("version") not in ("1", VERSION, VALUE_VERSION):
        raise ValueError(f"{path}: network file version {metadata.get('version')}; this trainer reads 1 to 3")
    if metadata.get("planes_version") != str(PLANES_VERSION):
        raise ValueError(f"{path}: trained on planes version {metadata.get('planes_version')}")
    tensors = load_file(path)
    if "crc32" in metadata and metadata["crc32"] != f"{checksum(tensors):08x}":
        raise ValueError(f"{path}: the weights fail the checksum")
    params = {k: jnp.asarray(v) for k, v in tensors.items()}
    if metadata.get("version") == VALUE_VERSION:
        _, filters = shape_of(params)
        for name, shape in zip(VALUE_TENSORS, value_shapes(filters, params)):
            if name not in params or tuple(params[name].shape) != shape:
                got = None if name not in params else tuple(params[name].shape)
                raise ValueError(f"{path}: value tensor {name} is {got}, expected {shape}")
    return params, metadata


def value_shapes(filters, params):
    """The value tensors' shapes for a trunk of `filters` filters (the hidden width read
    from the file's first layer)."""
    first = params.get("value.fc1.weight")
    hidden = first.shape[-1] if first is not None and first.ndim == 2 else VALUE_HIDDEN
    return [(2 * filters,), (2 * filters,), (2 * filters, hidden), (hidden,), (hidden,), (1,)]


def describe(metadata):
    return json.dumps({k: metadata[k] for k in sorted(metadata)})
