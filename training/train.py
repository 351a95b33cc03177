"""Trains the policy network on positions from `yeoul positions`.

    python3 training/train.py --train train.pos --validation val.pos --out net.safetensors \
        --blocks 6 --filters 64 --positions 10000000

Runs unchanged on a CPU, on one GPU, and data-parallel on several devices: the batch is
split over every device JAX sees (one process), or over several processes started with
JAX's distributed runtime (`--coordinator HOST:PORT --num-processes N --process-id K`, one
process per host or per GPU; on CPUs the collectives go through gloo). Each process draws
its own positions; gradients are averaged over all of them by XLA.

A fixed seed gives the same run; one of the 8 symmetries is drawn for every position.
Progress (rate, ETA) on stderr when it is a terminal; the result as one JSON line on stdout.
"""

import argparse
import json
import os
import queue
import sys
import threading
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax
from tqdm import tqdm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import net  # noqa: E402
import positions as positions_file  # noqa: E402
from positions import Positions  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", required=True, help="training positions (yeoul positions --out)")
    p.add_argument("--validation", help="validation positions (yeoul positions --validation-out)")
    p.add_argument("--out", required=True, help="network file to write (safetensors)")
    p.add_argument("--blocks", type=int, default=6)
    p.add_argument("--filters", type=int, default=64)
    p.add_argument("--batch", type=int, default=256, help="positions per step, over all devices")
    p.add_argument("--positions", type=float, default=1e6, help="training positions to see in all")
    p.add_argument("--lr", type=float, default=2e-3, help="peak learning rate (AdamW)")
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--warmup", type=float, default=0.02, help="share of the steps to warm up over")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--validation-positions", type=int, default=20000)
    p.add_argument("--eval-every", type=int, default=0, help="steps between validations (0: at the end)")
    p.add_argument("--checkpoint-minutes", type=float, default=10.0)
    p.add_argument("--time-limit", type=float, default=0.0, help="minutes; stop and write the network then")
    p.add_argument("--init", help="start from this network's weights")
    p.add_argument(
        "--value-weight",
        type=float,
        default=0.0,
        help="train a value head with the policy, its squared error weighed so (positions with results: "
        "yeoul positions format 2); 0: the policy alone",
    )
    p.add_argument(
        "--ownership-weight",
        type=float,
        default=0.0,
        help="train a final-ownership head beside the value, its squared error per point (averaged over the "
        "board) weighed so, on the positions whose ownership is known (yeoul positions --ownership, format 3)",
    )
    p.add_argument("--note", default="", help="written into the network file")
    p.add_argument("--coordinator", help="HOST:PORT of process 0 (distributed runs)")
    p.add_argument("--num-processes", type=int, default=1)
    p.add_argument("--process-id", type=int, default=0)
    args = p.parse_args(argv)
    # What the engine's forward pass is compiled for (src/network/, FILTERS).
    if args.filters not in net.FILTERS or not 0 <= args.blocks <= 64:
        p.error(f"--filters must be one of {net.FILTERS}, --blocks 0 to 64 (what the engine evaluates)")
    return args


def setup_distributed(args):
    if args.num_processes > 1:
        # Collectives between CPU processes (GPUs use their own); set before any JAX call.
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
        jax.distributed.initialize(
            coordinator_address=args.coordinator,
            num_processes=args.num_processes,
            process_id=args.process_id,
        )


def learning_rate(peak, warmup, progress):
    """Linear warm-up over the first `warmup` of the run, then a cosine down to 1% of the
    peak; `progress` (0..1) is the share of the steps or of the time limit spent,
    whichever is further, so that a run stopped by its time limit is annealed too."""
    if progress < warmup:
        return peak * progress / warmup
    t = min(1.0, (progress - warmup) / max(1e-9, 1.0 - warmup))
    return peak * (0.01 + 0.99 * 0.5 * (1.0 + np.cos(np.pi * t)))


def device_inputs(packed, moves, symmetries):
    """Packed positions to the network's inputs, on the device (inside the step)."""
    return positions_file.inputs(packed, moves, symmetries, net.PLANES, net.BOARD, jnp)


def make_step(optimizer, value_weight=0.0, ownership_weight=0.0):
    """One optimiser step. With a value weight, the loss adds that weight times the value
    head's squared error on the positions whose result is known (results 0 left out);
    with an ownership weight, that weight times the ownership head's squared error per
    point on the positions whose final ownership is known."""

    def loss_fn(params, x, y, results, known_owner, owner):
        h = net.trunk(params, x)
        legal = x[..., net.LEGAL_PLANE].reshape(x.shape[0], -1)
        logits = jnp.where(legal > 0, net.policy_head(params, h), -1e9)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
        if value_weight:
            known = (results != 0).astype(jnp.float32)
            error = (net.value_head(params, net.pooled(h)) - results) ** 2
            loss = loss + value_weight * jnp.sum(error * known) / jnp.maximum(1.0, jnp.sum(known))
        if ownership_weight:
            error = jnp.mean((net.ownership_head(params, h) - owner) ** 2, axis=1)
            loss = loss + ownership_weight * jnp.sum(error * known_owner) / jnp.maximum(1.0, jnp.sum(known_owner))
        return loss

    @jax.jit
    def step(params, opt_state, packed, moves, symmetries, results, known_owner, packed_owner, lr):
        opt_state.hyperparams["learning_rate"] = lr
        x, y = device_inputs(packed, moves, symmetries)
        owner = positions_file.owner_targets(packed_owner, symmetries, net.BOARD, jnp)
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y, results, known_owner, owner)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step


@jax.jit
def _scores(params, packed, moves):
    x, y = device_inputs(packed, moves, jnp.zeros(moves.shape, jnp.int32))
    logits = net.masked_logits(params, x)
    played = jnp.take_along_axis(logits, y[:, None], axis=1)
    rank = jnp.sum(logits > played, axis=1)  # moves rated strictly above the one played
    logp = jax.nn.log_softmax(logits)
    return rank, jnp.take_along_axis(logp, y[:, None], axis=1)[:, 0]


# Move-number ranges of the top-1 table (Pachi's t-predict buckets, as `yeoul predict`).
PHASES = [(0, 9), (10, 19), (20, 29), (30, 59), (60, 89), (90, 119), (120, 179), (180, 269), (270, 1 << 16)]


def evaluate(params, positions, count, seed=0, batch=512, phases=False):
    """Top-1, top-5 and mean log-likelihood of the moves played, on `count` positions
    drawn once with `seed` (the same ones for every network); with `phases`, top-1 by
    move number too."""
    n = len(positions)
    rng = np.random.default_rng(seed)
    indices = np.sort(rng.choice(n, size=min(count, n), replace=False))
    ranks, logps = [], []
    for start in range(0, len(indices), batch):
        packed, moves = positions.packed(indices[start : start + batch])
        r, lp = _scores(params, packed, moves)
        ranks.append(np.asarray(r))
        logps.append(np.asarray(lp))
    ranks = np.concatenate(ranks)
    logps = np.concatenate(logps)
    result = {
        "positions": int(len(ranks)),
        "top1": float(np.mean(ranks < 1)),
        "top5": float(np.mean(ranks < 5)),
        "log_likelihood": float(np.mean(logps)),
    }
    if net.has_value(params) and getattr(positions, "version", 1) >= 2:
        result.update(evaluate_value(params, positions, indices, batch))
    if net.has_ownership(params) and getattr(positions, "version", 1) >= 3:
        result.update(evaluate_ownership(params, positions, indices, batch))
    if phases:
        numbers = positions.records["number"][indices]
        result["top1_by_move_number"] = {
            f"{lo}-{hi}" if hi < 1 << 16 else f"{lo}+": round(float(np.mean(ranks[(numbers >= lo) & (numbers <= hi)] < 1)), 4)
            for lo, hi in PHASES
        }
    return result


@jax.jit
def _values(params, packed, moves):
    x, _ = device_inputs(packed, moves, jnp.zeros(moves.shape, jnp.int32))
    return net.value(params, x)


# Move-number stages of the value's report (issue 59).
VALUE_STAGES = [(0, 49), (50, 99), (100, 149), (150, 1 << 16)]


def by_stage(numbers, error, right):
    """The mean squared error and share called of each stage's positions (None where a
    stage has none), keyed "0-49" ... "150+"."""
    stages = {}
    for lo, hi in VALUE_STAGES:
        s = (numbers >= lo) & (numbers <= hi)
        name = f"{lo}-{hi}" if hi < 1 << 16 else f"{lo}+"
        stages[name] = [round(float(error[s].mean()), 4), round(float(right[s].mean()), 4)] if s.any() else None
    return stages


def evaluate_value(params, positions, indices, batch=512):
    """The value head on `indices` with known results: mean squared error (results +1/-1,
    AlphaGo's scale) and the share whose winner its sign calls, over all and by stage."""
    results, _ = positions.results(indices)
    keep = np.sort(indices)[results != 0]
    results = results[results != 0]
    values = []
    for start in range(0, len(keep), batch):
        packed, moves = positions.packed(keep[start : start + batch])
        values.append(np.asarray(_values(params, packed, moves)))
    if not values:
        return {}
    v = np.concatenate(values)
    numbers = np.asarray(positions.records["number"][keep]).astype(np.int64)
    error, right = (v - results) ** 2, np.sign(v) == results
    return {
        "value_positions": int(len(v)),
        "value_mse": float(error.mean()),
        "value_winner_called": float(right.mean()),
        "value_by_stage_mse_and_called": by_stage(numbers, error, right),
    }


@jax.jit
def _owners(params, packed, moves):
    x, _ = device_inputs(packed, moves, jnp.zeros(moves.shape, jnp.int32))
    return net.ownership_head(params, net.trunk(params, x))


def evaluate_ownership(params, positions, indices, batch=512):
    """The ownership head on `indices` whose final ownership is known: squared error per
    point, and the share of owned points (not nobody's) whose owner its sign calls, over
    all and by stage (the value's stages)."""
    known, _ = positions.ownership(indices)
    keep = np.sort(indices)[known > 0]
    if not len(keep):
        return {}
    errors, right = [], []
    for start in range(0, len(keep), batch):
        part = keep[start : start + batch]
        packed, moves = positions.packed(part)
        _, packed_owner = positions.ownership(part)
        target = positions_file.owner_targets(packed_owner, np.zeros(len(part), np.int32), positions.size)
        o = np.asarray(_owners(params, packed, moves))
        errors.append(((o - target) ** 2).mean(axis=1))
        owned = target != 0
        right.append((np.sign(o) == target).sum(axis=1) / np.maximum(1, owned.sum(axis=1)))
    errors, right = np.concatenate(errors), np.concatenate(right)
    numbers = np.asarray(positions.records["number"][keep]).astype(np.int64)
    return {
        "ownership_positions": int(len(keep)),
        "ownership_mse": float(errors.mean()),
        "ownership_points_called": float(right.mean()),
        "ownership_by_stage_mse_and_called": by_stage(numbers, errors, right),
    }


class Batches:
    """Random batches of packed positions, with a random symmetry each, drawn by a thread
    ahead of the steps."""

    def __init__(self, positions, batch, seed, depth=6):
        self.positions = positions
        self.batch = batch
        self.rng = np.random.default_rng(seed)
        self.queue = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._fill, daemon=True)
        self.thread.start()

    def _fill(self):
        n = len(self.positions)
        try:
            while True:
                indices = self.rng.integers(0, n, self.batch)
                symmetries = self.rng.integers(0, 8, self.batch)
                packed, moves = self.positions.packed(indices)
                results, _ = self.positions.results(indices)
                known_owner, packed_owner = self.positions.ownership(indices)
                self.queue.put((packed, moves, symmetries.astype(np.int32), results, known_owner, packed_owner))
        except Exception as e:  # the training loop raises it, rather than wait forever
            self.queue.put(e)

    def next(self):
        item = self.queue.get()
        if isinstance(item, Exception):
            raise item
        return item


def atomic_save(path, params, note):
    tmp = path + ".tmp"
    net.save(tmp, jax.device_get(params), note)
    os.replace(tmp, path)


def train(args):
    setup_distributed(args)
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    main_process = jax.process_index() == 0
    devices = jax.devices()
    if args.batch % len(devices):
        raise SystemExit(f"--batch {args.batch} must be a multiple of the {len(devices)} devices")
    local_batch = args.batch // jax.process_count()
    mesh = Mesh(np.array(devices), ("data",))
    data = NamedSharding(mesh, P("data"))
    replicated = NamedSharding(mesh, P())

    training = Positions(args.train, net.PLANES, net.PLANES_VERSION)
    validation = Positions(args.validation, net.PLANES, net.PLANES_VERSION) if args.validation else None
    steps = max(1, int(args.positions // args.batch))
    # The mask is a function of the parameters, not a schedule: a static argument.
    optimizer = optax.inject_hyperparams(optax.adamw, static_args=("mask",))(
        learning_rate=args.lr, weight_decay=args.weight_decay, mask=net.trainable
    )
    if args.init:
        params, _ = net.load(args.init)
    else:
        params = net.init(jax.random.PRNGKey(args.seed), args.blocks, args.filters)
    if args.value_weight and not net.has_value(params):
        # The head starts on standardised features of the trunk it sits on.
        sample = np.random.default_rng(args.seed).integers(0, len(training), 2048)
        features = []
        for start in range(0, len(sample), 512):
            packed, moves = training.packed(sample[start : start + 512])
            x, _ = device_inputs(packed, moves, jnp.zeros(moves.shape, jnp.int32))
            features.append(np.asarray(net.pooled(net.trunk(params, x))))
        features = np.concatenate(features)
        key = jax.random.PRNGKey(args.seed + 1)
        _, filters = net.shape_of(params)
        params.update(net.init_value(key, filters, mean=features.mean(0), scale=features.std(0) + 1e-3))
    if args.ownership_weight and not net.has_ownership(params):
        params.update(net.init_ownership(jax.random.PRNGKey(args.seed + 2), net.shape_of(params)[1]))
    params = jax.device_put(params, replicated)
    opt_state = jax.device_put(optimizer.init(params), replicated)
    step = make_step(optimizer, args.value_weight, args.ownership_weight)
    batches = Batches(training, local_batch, [args.seed, jax.process_index()])
    blocks, filters = net.shape_of(params)
    note = args.note or (
        f"{blocks} blocks x {filters} filters, AdamW lr {args.lr}, batch {args.batch}, seed {args.seed}"
    )
    started = time.time()
    last_checkpoint = last_log = started
    progress = tqdm(total=steps, unit="step", disable=None if main_process else True, smoothing=0.05)
    loss_sum, loss_count, done = 0.0, 0, 0
    history = []
    for done in range(1, steps + 1):
        packed, moves, symmetries, results, known_owner, packed_owner = (
            jax.make_array_from_process_local_data(data, a) for a in batches.next()
        )
        progress_share = (done - 1) / steps
        if args.time_limit:
            progress_share = max(progress_share, (time.time() - started) / (60 * args.time_limit))
        lr = np.float32(learning_rate(args.lr, args.warmup, progress_share))
        params, opt_state, loss = step(
            params, opt_state, packed, moves, symmetries, results, known_owner, packed_owner, lr
        )
        if done % 50 == 0 or done == steps:
            loss_sum += float(loss)
            loss_count += 1
            progress.set_postfix(loss=f"{loss_sum / loss_count:.3f}", pos_s=f"{done * args.batch / (time.time() - started):.0f}")
            progress.update(50 if done % 50 == 0 else done % 50)
        now = time.time()
        if progress.disable and main_process and now - last_log > 60:
            # No bar when stderr is not a terminal: a line a minute instead.
            rate = done * args.batch / (now - started)
            eta = (steps - done) * args.batch / rate
            if args.time_limit:
                eta = min(eta, 60 * args.time_limit - (now - started))
            print(
                f"step {done}/{steps}, {done * args.batch} positions, {rate:.0f} positions/s, "
                f"loss {float(loss):.3f}, lr {float(lr):.2e}, ETA {eta / 60:.0f} min",
                file=sys.stderr,
                flush=True,
            )
            last_log = now
        if main_process and now - last_checkpoint > 60 * args.checkpoint_minutes:
            atomic_save(args.out, params, note + f", checkpoint at {done * args.batch} positions")
            last_checkpoint = now
        if args.eval_every and done % args.eval_every == 0 and validation is not None:
            result = evaluate(params, validation, args.validation_positions)
            result["positions_seen"] = done * args.batch
            history.append(result)
            print(json.dumps(result), file=sys.stderr, flush=True)
        if args.time_limit and now - started > 60 * args.time_limit:
            break
        if done % 50 == 0:
            loss_sum, loss_count = 0.0, 0
    progress.close()
    seconds = time.time() - started
    seen = done * args.batch
    summary = {
        "blocks": blocks,
        "filters": filters,
        "positions_seen": seen,
        "seconds": round(seconds, 1),
        "positions_per_second": round(seen / seconds, 1),
        "devices": len(devices),
        "processes": jax.process_count(),
        "last_loss": float(loss),
    }
    if validation is not None:
        summary.update(evaluate(params, validation, args.validation_positions))
        summary["history"] = history
    if main_process:
        atomic_save(args.out, params, note + f", {seen} positions seen")
        print(json.dumps(summary), flush=True)
    return params, summary


if __name__ == "__main__":
    train(parse_args())
