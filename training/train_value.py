"""Trains a value head on a frozen policy network's trunk, from positions with results
(`yeoul positions --tygem DIR --per-game K`: format 2).

    python3 training/train_value.py --net models/policy.safetensors --train value.pos \
        --validation value-val.pos --out net-v3.safetensors --positions 400000

The trunk does not change, so the policy does not either: each position's trunk output
is pooled once (`net.pooled`, under a random one of the 8 symmetries) and the head is
fitted on those features for several epochs, which costs seconds where the trunk's
forward pass costs minutes. Positions without a result (0) are left out. The loss is the
mean squared error with results as +1/-1, AlphaGo's scale. Prints one JSON line: the
validation error and how often the value calls the winner, by stage of the game.
"""

import argparse
import json
import os
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import net  # noqa: E402
import positions as positions_file  # noqa: E402
from positions import Positions  # noqa: E402

# Move-number stages of the report (issue 59).
STAGES = [(0, 49), (50, 99), (100, 149), (150, 1 << 16)]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--net", required=True, help="the policy network whose trunk is used (versions 2, 3)")
    p.add_argument("--train", required=True, help="positions with results (format 2)")
    p.add_argument("--validation", required=True, help="held-out positions with results")
    p.add_argument("--out", required=True, help="the network with its value head (version 3)")
    p.add_argument("--positions", type=int, default=400_000, help="training positions to pool (at most)")
    p.add_argument("--validation-positions", type=int, default=100_000)
    p.add_argument("--hidden", type=int, default=net.VALUE_HIDDEN)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--note", default="")
    return p.parse_args(argv)


@jax.jit
def _features(params, packed, moves, symmetries):
    x, _ = positions_file.inputs(packed, moves, symmetries, net.PLANES, net.BOARD, jnp)
    return net.pooled(net.trunk(params, x))


def pooled_features(params, positions, count, rng, turn=True, batch=512):
    """The pooled trunk of up to `count` positions that have a result, drawn with `rng`:
    features (count, 2F), results (+1/-1) and move numbers."""
    results, _ = positions.results(np.arange(len(positions)))
    known = np.flatnonzero(results != 0)
    chosen = np.sort(rng.choice(known, size=min(count, len(known)), replace=False))
    features = []
    started = time.time()
    for start in range(0, len(chosen), batch):
        indices = chosen[start : start + batch]
        packed, moves = positions.packed(indices)
        symmetries = rng.integers(0, 8 if turn else 1, len(indices)).astype(np.int32)
        features.append(np.asarray(_features(params, packed, moves, symmetries)))
        if sys.stderr.isatty() or (start // batch) % 100 == 0:
            rate = (start + len(indices)) / max(1e-9, time.time() - started)
            print(f"pooled {start + len(indices)}/{len(chosen)} ({rate:.0f}/s)", file=sys.stderr, flush=True)
    numbers = np.asarray(positions.records["number"][chosen]).astype(np.int64)
    return np.concatenate(features), results[chosen], numbers


def report(params, features, results, numbers):
    """Mean squared error (results +1/-1) and the share of positions whose winner the
    value's sign calls, over all and by stage."""
    v = np.asarray(net.value_head(params, jnp.asarray(features)))
    error = (v - results) ** 2
    right = np.sign(v) == results
    out = {"mse": float(error.mean()), "winner_called": float(right.mean())}
    out["by_stage"] = {
        f"{lo}-{hi}" if hi < 1 << 16 else f"{lo}+": {
            "positions": int(((numbers >= lo) & (numbers <= hi)).sum()),
            "mse": round(float(error[(numbers >= lo) & (numbers <= hi)].mean()), 4),
            "winner_called": round(float(right[(numbers >= lo) & (numbers <= hi)].mean()), 4),
        }
        for lo, hi in STAGES
    }
    return out


def fit(head, features, results, args, validation):
    optimizer = optax.adamw(args.lr, weight_decay=args.weight_decay, mask=net.trainable)
    state = optimizer.init(head)

    def loss_fn(head, f, y):
        return jnp.mean((net.value_head(head, f) - y) ** 2)

    @jax.jit
    def step(head, state, f, y):
        loss, grads = jax.value_and_grad(loss_fn)(head, f, y)
        updates, state = optimizer.update(grads, state, head)
        return optax.apply_updates(head, updates), state, loss

    rng = np.random.default_rng(args.seed)
    history = []
    for epoch in range(args.epochs):
        order = rng.permutation(len(features))
        for start in range(0, len(order) - args.batch + 1, args.batch):
            k = order[start : start + args.batch]
            head, state, _ = step(head, state, jnp.asarray(features[k]), jnp.asarray(results[k]))
        train_mse = float(loss_fn(head, jnp.asarray(features[:50_000]), jnp.asarray(results[:50_000])))
        val_mse = report(head, *validation)["mse"]
        history.append({"epoch": epoch + 1, "train_mse": round(train_mse, 4), "validation_mse": round(val_mse, 4)})
        print(json.dumps(history[-1]), file=sys.stderr, flush=True)
    return head, history


def main(args):
    params, metadata = net.load(args.net)
    trunk_params = {k: v for k, v in params.items() if not k.startswith("value.")}
    _, filters = net.shape_of(params)
    rng = np.random.default_rng(args.seed)
    started = time.time()
    training = Positions(args.train, net.PLANES, net.PLANES_VERSION)
    validation = Positions(args.validation, net.PLANES, net.PLANES_VERSION)
    train_set = pooled_features(trunk_params, training, args.positions, rng)
    validation_set = pooled_features(trunk_params, validation, args.validation_positions, rng, turn=False)
    pooled_seconds = time.time() - started
    mean, scale = train_set[0].mean(axis=0), train_set[0].std(axis=0) + 1e-3
    head = net.init_value(jax.random.PRNGKey(args.seed), filters, args.hidden, mean, scale)
    head, history = fit(head, train_set[0], train_set[1], args, validation_set)
    out = dict(trunk_params)
    out.update(head)
    note = args.note or (
        f"value head ({args.hidden} hidden) on the frozen trunk of {os.path.basename(args.net)}, "
        f"{len(train_set[0])} positions, {args.epochs} epochs, seed {args.seed}"
    )
    net.save(args.out, jax.device_get(out), note)
    summary = {
        "training_positions": int(len(train_set[0])),
        "validation_positions": int(len(validation_set[0])),
        "pooling_seconds": round(pooled_seconds, 1),
        "seconds": round(time.time() - started, 1),
        "training": report(head, *train_set),
        "validation": report(head, *validation_set),
        "history": history,
    }
    print(json.dumps(summary), flush=True)
    return summary


if __name__ == "__main__":
    main(parse_args())
