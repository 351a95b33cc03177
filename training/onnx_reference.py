"""ONNX Runtime, the usual CPU reference, on the same network as the engine.

    python3 training/onnx_reference.py NET.safetensors --check        # ORT against JAX
    python3 training/onnx_reference.py NET.safetensors --seconds 3    # evaluations/s
    python3 training/onnx_reference.py NET.safetensors --size 9 ...   # a version-2 network on 9x9

Builds an ONNX graph (NCHW, the layout ORT's convolutions prefer) from the network file,
checks its logits against training/net.py's on random planes (within 1e-4), and times
batches of 1 and 8 on 1 and 2 intra-op threads. Prints one line per setting, as
`cargo run --release --example network_speed` does, for scripts/network_bench.sh.
Needs requirements-bench.txt.
"""

import argparse
import os
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import net  # noqa: E402


def build(params, size=net.BOARD):
    if "policy.bias" in params and size != net.BOARD:  # version 1: a bias per point of 19x19
        raise SystemExit(f"a version-1 network plays {net.BOARD}x{net.BOARD} only")
    blocks, filters = net.shape_of(params)
    points = size * size
    nodes, inits = [], []

    def const(name, value):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value, np.float32), name))
        return name

    def conv(x, name, out):
        w = np.asarray(params[f"{name}.weight"]).transpose(3, 2, 0, 1)  # HWIO -> OIHW
        nodes.append(
            helper.make_node(
                "Conv",
                [x, const(f"{name}.w", w), const(f"{name}.b", params[f"{name}.bias"])],
                [out],
                pads=[1, 1, 1, 1],
            )
        )
        return out

    h = conv("planes", "conv_in", "conv_in")
    nodes.append(helper.make_node("Relu", [h], ["h0"]))
    h = "h0"
    for i in range(blocks):
        y = conv(h, f"blocks.{i}.conv1", f"b{i}c1")
        nodes.append(helper.make_node("Relu", [y], [f"b{i}r1"]))
        y = conv(f"b{i}r1", f"blocks.{i}.conv2", f"b{i}c2")
        nodes.append(helper.make_node("Add", [h, y], [f"b{i}sum"]))
        nodes.append(helper.make_node("Relu", [f"b{i}sum"], [f"h{i + 1}"]))
        h = f"h{i + 1}"
    w = np.asarray(params["policy.weight"]).reshape(1, filters, 1, 1)
    nodes.append(helper.make_node("Conv", [h, const("policy.w", w)], ["head"]))
    nodes.append(helper.make_node("Reshape", ["head", const_int("shape", [-1, points], inits)], ["flat"]))
    if "policy.bias" in params:  # version 1
        bias = np.asarray(params["policy.bias"])
    else:  # the same bias a point as training/net.py's logits
        bias = np.asarray(params["policy.edge_bias"])[net.edge_distance(size)]
    nodes.append(helper.make_node("Add", ["flat", const("policy.b", bias)], ["logits"]))
    graph = helper.make_graph(
        nodes,
        "yeoul-policy",
        [helper.make_tensor_value_info("planes", TensorProto.FLOAT, ["batch", net.PLANES, size, size])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", points])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return model


def const_int(name, value, inits):
    inits.append(numpy_helper.from_array(np.asarray(value, np.int64), name))
    return name


def session(model, threads):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def random_planes(count, size=net.BOARD, seed=3):
    rng = np.random.default_rng(seed)
    return (rng.random((count, net.PLANES, size, size)) < 0.3).astype(np.float32)


def check(params, model, size):
    x = random_planes(8, size)
    ours = session(model, 1).run(["logits"], {"planes": x})[0]
    theirs = np.asarray(net.logits(params, x.transpose(0, 2, 3, 1)))
    worst = float(np.max(np.abs(ours - theirs)))
    print(f"ONNX Runtime against JAX: largest difference {worst:.2e}")
    if worst > 1e-4:
        raise SystemExit("ONNX Runtime and JAX disagree")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("net")
    p.add_argument("--check", action="store_true")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--batches", default="1,8")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--save", help="also write the ONNX file here")
    p.add_argument("--size", type=int, default=net.BOARD, help="board size (a version-2 network plays any)")
    args = p.parse_args()
    params, _ = net.load(args.net)
    params = {k: np.asarray(v) for k, v in params.items()}
    model = build(params, args.size)
    if args.save:
        onnx.save(model, args.save)
    if args.check:
        check(params, model, args.size)
        return
    for threads in (int(t) for t in args.threads.split(",")):
        s = session(model, threads)
        for batch in (int(b) for b in args.batches.split(",")):
            x = random_planes(batch, args.size)
            for _ in range(20):
                s.run(["logits"], {"planes": x})
            runs, started = 0, time.perf_counter()
            while time.perf_counter() - started < args.seconds:
                s.run(["logits"], {"planes": x})
                runs += 1
            elapsed = time.perf_counter() - started
            print(f"onnxruntime batch {batch} threads {threads}: {runs * batch / elapsed:.1f} positions/s, {elapsed / runs * 1e3:.3f} ms per batch")


if __name__ == "__main__":
    main()
