"""The trainer's tests (run by `cargo test` through tests/trainer.rs, or alone:
`python3 -m unittest discover -s training/tests`)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import net  # noqa: E402
import positions  # noqa: E402
import train  # noqa: E402

POINTS = net.POINTS


def synthetic(count, seed, chosen_is_capture):
    """Random stones and legal points; one legal point marked as a capture. The move is
    the capture, or (to learn nothing from) a legal point drawn at random."""
    rng = np.random.default_rng(seed)
    bits = np.zeros((count, net.PLANES, POINTS), np.uint8)
    moves = np.zeros(count, np.int64)
    for k in range(count):
        stones = rng.random(POINTS) < 0.25
        own = stones & (rng.random(POINTS) < 0.5)
        bits[k, 0] = own
        bits[k, 1] = stones & ~own
        bits[k, 2] = ~stones
        bits[k, 3] = 1
        legal = np.flatnonzero(~stones)
        bits[k, net.LEGAL_PLANE, legal] = 1
        capture = rng.choice(legal)
        bits[k, 16, capture] = 1
        moves[k] = capture if chosen_is_capture else rng.choice(legal)
    return bits, moves


def train_tiny(tmp, train_path, val_path, steps, *more):
    """A 1x8 network trained for `steps` batches of 32 into tmp/net.safetensors, with
    `more` options; its summary."""
    args = train.parse_args(
        ["--train", train_path, "--validation", val_path, "--out", os.path.join(tmp, "net.safetensors"),
         "--blocks", "1", "--filters", "8", "--batch", "32", "--positions", str(32 * steps),
         "--lr", "0.003", "--validation-positions", "1000", *more]
    )
    return train.train(args)[1]


def learnable_and_random(run):
    """`run(tmp, learnable)`'s summaries with a learnable target and with a random one,
    each in a folder of its own."""
    summaries = []
    for learnable in (True, False):
        with tempfile.TemporaryDirectory() as tmp:
            summaries.append(run(tmp, learnable))
    return summaries


def fit(tmp, chosen_is_capture, steps=300):
    train_path = os.path.join(tmp, "train.pos")
    val_path = os.path.join(tmp, "val.pos")
    positions.write(train_path, *synthetic(3000, 1, chosen_is_capture))
    positions.write(val_path, *synthetic(1000, 2, chosen_is_capture))
    return train_tiny(tmp, train_path, val_path, steps)


class Trainer(unittest.TestCase):
    def test_the_capture_is_learned_when_it_is_always_chosen(self):
        with tempfile.TemporaryDirectory() as tmp:
            summary = fit(tmp, True)
            self.assertGreater(summary["top1"], 0.9, summary)
            params, meta = net.load(os.path.join(tmp, "net.safetensors"))
            self.assertEqual((meta["blocks"], meta["filters"]), ("1", "8"))

    def test_random_choices_teach_nothing_better_than_chance(self):
        with tempfile.TemporaryDirectory() as tmp:
            summary = fit(tmp, False)
            legal = 0.75 * POINTS
            # Chance is 1 in about 270; a network that found a pattern would do far better.
            self.assertLess(summary["top1"], 0.02, summary)
            self.assertLess(summary["log_likelihood"], -np.log(legal) + 0.1, summary)


class Value(unittest.TestCase):
    def test_the_side_with_more_stones_is_learned_to_win_and_random_results_teach_nothing(self):
        def run(tmp, learnable):
            sets = []
            for count, seed in [(3000, 1), (1000, 2)]:
                bits, moves = synthetic(count, seed, True)
                lead = bits[:, 0].sum(axis=1).astype(int) - bits[:, 1].sum(axis=1).astype(int)
                rng = np.random.default_rng(seed)
                results = np.where(lead > 0, 1, -1) if learnable else rng.choice([-1, 1], count)
                results[lead == 0] = 0  # unknown: left out of the value's loss
                path = os.path.join(tmp, f"{seed}.pos")
                positions.write(path, bits, moves, results=results)
                sets.append(path)
            summary = train_tiny(tmp, *sets, 400, "--value-weight", "1")
            self.assertEqual(net.load(os.path.join(tmp, "net.safetensors"))[1]["version"], "3")
            return summary

        learned, random = learnable_and_random(run)
        self.assertGreater(learned["value_winner_called"], 0.8, learned)
        self.assertLess(learned["value_mse"], 0.6, learned)
        self.assertLess(random["value_winner_called"], 0.6, random)
        self.assertGreater(random["value_mse"], 0.9, random)

    def test_the_final_owner_is_learned_where_it_follows_the_stones_and_not_where_it_is_random(self):
        def run(tmp, learnable):
            sets = []
            for count, seed in [(3000, 1), (1000, 2)]:
                bits, moves = synthetic(count, seed, True)
                rng = np.random.default_rng(seed)
                owners = bits[:, 0].astype(int) - bits[:, 1].astype(int)  # each stone its side's
                if not learnable:
                    owners = rng.choice([-1, 1], owners.shape) * (owners != 0)
                owners = [o if k % 3 else None for k, o in enumerate(owners)]  # a third unknown
                results = rng.choice([-1, 1], count)
                path = os.path.join(tmp, f"{seed}.pos")
                positions.write(path, bits, moves, results=results, owners=owners)
                sets.append(path)
            return train_tiny(tmp, *sets, 300, "--value-weight", "1", "--ownership-weight", "1")

        learned, random = learnable_and_random(run)
        self.assertEqual(learned["ownership_positions"], 666, learned)
        self.assertGreater(learned["ownership_points_called"], 0.9, learned)
        self.assertLess(random["ownership_points_called"], 0.6, random)


class Symmetries(unittest.TestCase):
    def test_the_eight_symmetries_turn_planes_and_moves_together(self):
        bits, moves = synthetic(1, 5, True)
        images = set()
        for s in range(8):
            turned, moved = positions.transform(bits, moves, np.array([s]), net.BOARD)
            self.assertEqual(turned[0, 16, moved[0]], 1)
            self.assertEqual(turned[0].sum(), bits[0].sum())
            images.add(turned[0].tobytes())
        self.assertEqual(len(images), 8)
        same, moved = positions.transform(bits, moves, np.array([0]), net.BOARD)
        self.assertTrue((same == bits).all() and moved[0] == moves[0])
        # A quarter turn: the bottom-left corner (point 0) goes to another corner.
        corner = np.zeros((1, net.PLANES, POINTS), np.uint8)
        corner[0, 0, 0] = 1
        turned, moved = positions.transform(corner, np.array([0]), np.array([1]), net.BOARD)
        self.assertIn(int(np.flatnonzero(turned[0, 0])[0]), {18, 342, 360})
        self.assertEqual(turned[0, 0, moved[0]], 1)


class Files(unittest.TestCase):
    def test_a_network_file_round_trips_and_a_damaged_one_is_refused(self):
        import jax

        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "n.safetensors")
            params = net.init(jax.random.PRNGKey(0), 1, 4)
            net.save(path, params, "test")
            loaded, meta = net.load(path)
            self.assertEqual(meta["format"], net.FORMAT)
            for k in params:
                self.assertTrue(np.array_equal(np.asarray(params[k]), np.asarray(loaded[k])))
            self.assertEqual(meta["version"], "2")
            # A network with the per-point head of version 1 is saved as version 1.
            old = dict(params)
            del old["policy.edge_bias"]
            old["policy.bias"] = np.zeros(net.POINTS, np.float32)
            old_path = os.path.join(tmp, "old.safetensors")
            net.save(old_path, old, "test")
            self.assertEqual(net.load(old_path)[1]["version"], "1")
            data = bytearray(open(path, "rb").read())
            data[-1] ^= 1
            open(path, "wb").write(bytes(data))
            with self.assertRaises(ValueError):
                net.load(path)

    def test_a_value_head_makes_version_3_and_a_misshapen_one_is_refused_by_name(self):
        import jax

        with tempfile.TemporaryDirectory() as tmp:
            params = net.init(jax.random.PRNGKey(0), 1, 8)
            params.update(net.init_value(jax.random.PRNGKey(1), 8, 4))
            path = os.path.join(tmp, "v3.safetensors")
            net.save(path, params, "test")
            loaded, meta = net.load(path)
            self.assertEqual(meta["version"], "3")
            x = np.zeros((2, 9, 9, net.PLANES), np.float32)
            x[1, :, :, 0] = 1
            v = np.asarray(net.value(loaded, x))
            self.assertEqual(v.shape, (2,))
            self.assertTrue(np.all(np.abs(v) < 1))
            for name, bad in [("value.fc2.weight", np.zeros(5, np.float32)), ("value.fc1.bias", None)]:
                broken = dict(params)
                if bad is None:
                    del broken[name]
                else:
                    broken[name] = bad
                # Saved as version 3 by hand: the head is damaged, not absent.
                tensors = {k: np.asarray(v, np.float32) for k, v in broken.items()}
                meta3 = dict(meta)
                meta3["crc32"] = f"{net.checksum(tensors):08x}"
                bad_path = os.path.join(tmp, "bad.safetensors")
                from safetensors.numpy import save_file

                save_file(tensors, bad_path, metadata=meta3)
                with self.assertRaisesRegex(ValueError, name):
                    net.load(bad_path)

    def test_the_head_rates_every_board_size_by_distance_to_the_edge(self):
        import jax

        params = net.init(jax.random.PRNGKey(0), 1, 4)
        params["policy.weight"] = np.zeros(4, np.float32)
        params["policy.edge_bias"] = np.arange(net.EDGE_DISTANCES, dtype=np.float32)
        for n in (5, 9, 13, 19):
            x = np.ones((2, n, n, net.PLANES), np.float32)
            scores = np.asarray(net.logits(params, x))
            self.assertEqual(scores.shape, (2, n * n))
            # With no trunk signal, a point's score is its distance to the nearest edge.
            rows, cols = np.divmod(np.arange(n * n), n)
            distance = np.minimum(np.minimum(rows, cols), np.minimum(n - 1 - rows, n - 1 - cols))
            self.assertTrue(np.array_equal(scores[0], distance.astype(np.float32)))

    def test_results_round_trip_in_version_2_and_read_as_unknown_in_version_1(self):
        rng = np.random.default_rng(3)
        bits = rng.integers(0, 2, (5, 2, 9), dtype=np.uint8)
        moves = np.arange(5)
        results = np.array([1, -1, 0, 1, -1])
        margins = np.array([3.5, -3.5, 0, 0, -120.5])
        with tempfile.TemporaryDirectory() as d:
            v2, v1 = os.path.join(d, "v2.pos"), os.path.join(d, "v1.pos")
            positions.write(v2, bits, moves, results=results, margins=margins)
            positions.write(v1, bits, moves)
            p2, p1 = positions.Positions(v2), positions.Positions(v1)
            self.assertEqual((p2.version, p1.version), (2, 1))
            got, margin = p2.results(np.arange(5))
            np.testing.assert_array_equal(got, results)
            np.testing.assert_array_equal(margin, margins)
            np.testing.assert_array_equal(p2.flat(np.arange(5))[0], p1.flat(np.arange(5))[0])
            got, margin = p1.results(np.arange(5))
            self.assertFalse(got.any() or margin.any())

    def test_ownership_round_trips_in_version_3_and_turns_with_the_planes(self):
        bits, moves = synthetic(4, 7, True)
        owners = [bits[k, 0].astype(int) - bits[k, 1].astype(int) for k in range(4)]
        owners[2] = None
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "v3.pos")
            positions.write(path, bits, moves, results=np.array([1, -1, 1, 0]), owners=owners)
            p = positions.Positions(path)
            self.assertEqual(p.version, 3)
            known, packed = p.ownership(np.arange(4))
            np.testing.assert_array_equal(known, [1, 1, 0, 1])
            for s in range(8):
                symmetries = np.full(4, s, np.int32)
                x, _ = p.batch(np.arange(4), symmetries)
                target = positions.owner_targets(packed, symmetries, net.BOARD)
                stones = x[..., 0] - x[..., 1]
                for k in (0, 1, 3):
                    np.testing.assert_array_equal(target[k], stones[k].reshape(-1))
                self.assertFalse(target[2].any())
            np.testing.assert_array_equal(p.flat(np.arange(4))[0], bits)

    def test_a_positions_file_of_other_planes_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "p.pos")
            bits, moves = synthetic(3, 1, True)
            positions.write(path, bits, moves, planes_version=99)
            with self.assertRaises(ValueError):
                positions.Positions(path, net.PLANES, net.PLANES_VERSION)
            positions.write(path, bits, moves)
            x, y = positions.Positions(path, net.PLANES, net.PLANES_VERSION).batch(np.arange(3))
            self.assertEqual(x.shape, (3, net.BOARD, net.BOARD, net.PLANES))
            self.assertTrue((np.sort(y) == np.sort(moves)).all())


class Distributed(unittest.TestCase):
    def test_two_processes_train_one_network_through_jaxs_distributed_runtime(self):
        with tempfile.TemporaryDirectory() as tmp:
            train_path = os.path.join(tmp, "train.pos")
            positions.write(train_path, *synthetic(500, 1, True))
            out = os.path.join(tmp, "net.safetensors")
            port = 20000 + os.getpid() % 20000
            env = dict(os.environ, JAX_PLATFORMS="cpu")
            procs = [
                subprocess.Popen(
                    [sys.executable, os.path.join(os.path.dirname(HERE), "train.py"),
                     "--train", train_path, "--out", out, "--blocks", "1", "--filters", "8",
                     "--batch", "16", "--positions", "320",
                     "--coordinator", f"127.0.0.1:{port}", "--num-processes", "2", "--process-id", str(k)],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                )
                for k in range(2)
            ]
            outputs = [p.communicate(timeout=300) for p in procs]
            for p, (_, err) in zip(procs, outputs):
                self.assertEqual(p.returncode, 0, err[-2000:])
            summary = json.loads(outputs[0][0].strip().splitlines()[-1])
            self.assertEqual((summary["processes"], summary["devices"]), (2, 2))
            self.assertEqual(summary["positions_seen"], 320)
            self.assertTrue(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
