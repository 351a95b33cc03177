"""Diagnostics for the value head (issue 59): how much of a game's result the positions
carry, and how fast a small network learns it from the result alone.

    python3 training/value_probe.py linear --train train.pos --validation val.pos
    python3 training/value_probe.py scratch --train train.pos --validation val.pos \
        --from-move 100 --minutes 10 --blocks 3 --filters 32
    python3 training/value_probe.py score --net own.safetensors --train train.pos \
        --validation val.pos

`linear`: least squares on per-point features (own minus opponent stones, chains in
atari, chains with two liberties) of positions from move 150, the winner called on the
validation positions from move 150. `scratch`: a fresh tower with a value head only (a 1x1
convolution to 32 and ReLU, mean and max over the board, 32 hidden, tanh) trained on the
positions from `--from-move`, reporting the validation MSE and winner called from move
150 every 200 steps. `score`: the result read from a network's ownership head instead of
its value head: the owned points summed (the side to move's less the opponent's, as area
counting counts) less the komi the side to move gives (6.5, Tygem's), through tanh(k *
score) with k fitted on training positions; the winner called and the MSE by stage,
beside the value head's on the same positions. All print to stdout.
"""

import argparse
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

LATE = 150


def late(positions, from_move):
    numbers = np.asarray(positions.records["number"])
    results = np.asarray(positions.records["result"])
    return np.where((numbers >= from_move) & (results != 0))[0], results


def linear(args):
    train, validation = Positions(args.train), Positions(args.validation)

    def features(p, indices):
        bits, _ = p.flat(indices)
        b = bits.astype(np.float32)
        own_minus = [b[:, 0] - b[:, 1], b[:, 4] - b[:, 7], b[:, 5] - b[:, 8]]
        return np.concatenate(own_minus + [np.ones((len(indices), 1), np.float32)], 1)

    candidates, results = late(train, LATE)
    rng = np.random.default_rng(args.seed)
    picked = np.sort(rng.choice(candidates, min(args.positions, len(candidates)), replace=False))
    x, y = features(train, picked), results[picked].astype(np.float32)
    w = np.linalg.solve(x.T @ x + 10 * np.eye(x.shape[1]), x.T @ y)
    held, held_results = late(validation, LATE)
    called = np.mean(np.sign(features(validation, held) @ w) == held_results[held])
    print(f"linear: {len(picked)} training positions, called {called:.3f} of {len(held)} from move {LATE}")


def scratch(args):
    train, validation = Positions(args.train), Positions(args.validation)
    candidates, results = late(train, args.from_move)
    held, held_results = late(validation, LATE)
    held = held[: args.validation_positions]
    keys = jax.random.split(jax.random.PRNGKey(args.seed), 4)
    f, c = args.filters, 32
    params = net.init(keys[0], args.blocks, f)
    params["probe.conv"] = jax.random.normal(keys[1], (f, c)) * np.sqrt(2 / f)
    params["probe.conv_bias"] = jnp.zeros(c)
    params["probe.fc1"] = jax.random.normal(keys[2], (2 * c, 32)) * np.sqrt(2 / (2 * c))
    params["probe.fc1_bias"] = jnp.zeros(32)
    params["probe.fc2"] = jax.random.normal(keys[3], (32,)) * 0.01
    params["probe.fc2_bias"] = jnp.zeros(())

    def value(p, x):
        g = jax.nn.relu(net.trunk(p, x) @ p["probe.conv"] + p["probe.conv_bias"])
        pooled = jnp.concatenate([g.mean((1, 2)), g.max((1, 2))], 1)
        hidden = jax.nn.relu(pooled @ p["probe.fc1"] + p["probe.fc1_bias"])
        return jnp.tanh(hidden @ p["probe.fc2"] + p["probe.fc2_bias"])

    schedule = optax.warmup_cosine_decay_schedule(0, args.lr, 200, 20_000, args.lr / 100)
    optimizer = optax.adamw(schedule, weight_decay=1e-4)
    state = optimizer.init(params)

    @jax.jit
    def step(p, state, packed, moves, symmetries, r):
        x, _ = positions_file.inputs(packed, moves, symmetries, net.PLANES, net.BOARD, jnp)
        loss, grads = jax.value_and_grad(lambda p: jnp.mean((value(p, x) - r) ** 2))(p)
        updates, state = optimizer.update(grads, state, p)
        return optax.apply_updates(p, updates), state, loss

    @jax.jit
    def evaluate_batch(p, packed, moves):
        x, _ = positions_file.inputs(packed, moves, jnp.zeros(moves.shape, jnp.int32), net.PLANES, net.BOARD, jnp)
        return value(p, x)

    def evaluate():
        values, truth = [], []
        for s in range(0, len(held), 500):
            part = held[s : s + 500]
            packed, moves = validation.packed(part)
            values.append(np.asarray(evaluate_batch(params, packed, moves)))
            truth.append(held_results[np.sort(part)])
        v, r = np.concatenate(values), np.concatenate(truth)
        return float(np.mean((v - r) ** 2)), float(np.mean(np.sign(v) == r))

    rng = np.random.default_rng(args.seed)
    started, seen, losses = time.time(), 0, []
    while time.time() - started < 60 * args.minutes:
        picked = rng.choice(candidates, args.batch)
        packed, moves = train.packed(picked)
        r = results[np.sort(picked)].astype(np.float32)
        symmetries = rng.integers(0, 8, args.batch).astype(np.int32)
        params, state, loss = step(params, state, packed, moves, symmetries, r)
        seen += args.batch
        losses.append(float(loss))
        if len(losses) % 200 == 0:
            mse, called = evaluate()
            rate = seen / (time.time() - started)
            print(f"{seen} positions: train MSE {np.mean(losses[-200:]):.4f}, validation from move {LATE}: "
                  f"MSE {mse:.4f}, called {called:.3f}; {rate:.0f} positions/s", flush=True)
    print("final", seen, evaluate())


KOMI = 6.5


def score(args):
    import train as trainer

    params, _ = net.load(args.net)
    if not net.has_ownership(params):
        raise SystemExit(f"{args.net}: no ownership head")

    @jax.jit
    def heads(packed, moves):
        x, _ = positions_file.inputs(packed, moves, jnp.zeros(moves.shape, jnp.int32), net.PLANES, net.BOARD, jnp)
        h = net.trunk(params, x)
        return net.ownership_head(params, h).sum(axis=1), net.value_head(params, net.pooled(h))

    def read(p, count):
        results = np.asarray(p.records["result"])
        known = np.flatnonzero(results != 0)
        rng = np.random.default_rng(args.seed)
        picked = np.sort(rng.choice(known, min(count, len(known)), replace=False))
        owned, values = [], []
        for s in range(0, len(picked), 500):
            packed, moves = p.packed(picked[s : s + 500])
            o, v = heads(packed, moves)
            owned.append(np.asarray(o))
            values.append(np.asarray(v))
        numbers = np.asarray(p.records["number"][picked]).astype(np.int64)
        # Black moves at even numbers (even games): White, to move, is given the komi.
        komi = np.where(numbers % 2 == 0, -KOMI, KOMI)
        return np.concatenate(owned) + komi, np.concatenate(values), results[picked].astype(np.float32), numbers

    train_score, _, train_results, _ = read(Positions(args.train), args.positions // 10)
    ks = np.geomspace(0.005, 1.0, 60)
    k = ks[np.argmin([np.mean((np.tanh(k * train_score) - train_results) ** 2) for k in ks])]
    held_score, held_value, results, numbers = read(Positions(args.validation), args.validation_positions)
    for name, v in [("ownership score", np.tanh(k * held_score)), ("value head", held_value)]:
        error, right = (v - results) ** 2, np.sign(v) == results
        stages = trainer.by_stage(numbers, error, right)
        print(f"{name}: {len(v)} positions, MSE {error.mean():.4f}, called {right.mean():.4f}; "
              f"by stage [MSE, called] {stages}")
    print(f"k {k:.4f} (fitted on {len(train_score)} training positions)")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["linear", "scratch", "score"])
    p.add_argument("--net", help="score: a network with an ownership head")
    p.add_argument("--train", required=True)
    p.add_argument("--validation", required=True)
    p.add_argument("--positions", type=int, default=120_000, help="linear: training positions")
    p.add_argument("--validation-positions", type=int, default=4_000, help="scratch: validation positions")
    p.add_argument("--from-move", type=int, default=100)
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--blocks", type=int, default=3)
    p.add_argument("--filters", type=int, default=32)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    {"linear": linear, "scratch": scratch, "score": score}[args.mode](args)


if __name__ == "__main__":
    main()
