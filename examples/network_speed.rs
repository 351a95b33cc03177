//! Evaluations per second of the policy network on the CPU, as
//! `training/onnx_reference.py` measures ONNX Runtime (scripts/network_bench.sh runs both).
//! Arguments: the network file (`builtin` for the built-in one), seconds per setting,
//! batches (`1,8`), threads (`1,2`), board size (the network's own; a version-2 network
//! plays any).
use std::time::Instant;
use yeoul::network::Network;
use yeoul::network::planes::{InputPlanes, PLANES};

fn list(arg: Option<&String>, default: &str) -> Vec<usize> {
    arg.map_or(default, String::as_str)
        .split(',')
        .map(|x| x.parse().expect("a number"))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let net = match args.get(1).map(String::as_str) {
        None | Some("builtin") => Network::builtin().expect("the built-in network"),
        Some(path) => std::sync::Arc::new(Network::load(path.as_ref()).expect("a network file")),
    };
    let seconds: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3.0);
    let batches = list(args.get(3), "1,8");
    let threads = list(args.get(4), "1,2");
    let size = args
        .get(5)
        .map_or(net.board_size(), |a| a.parse().expect("a board size"));
    let Some(net) = net.for_size(size) else {
        eprintln!(
            "this network does not play {size}x{size} (a version-1 file plays its own size only)"
        );
        std::process::exit(2);
    };
    let points = size * size;
    // Random planes, as onnx_reference.py times (the speed does not depend on them).
    let mut state = 3u64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let positions: Vec<InputPlanes> = (0..batches.iter().copied().max().unwrap_or(1))
        .map(|_| {
            let bits: Vec<bool> = (0..PLANES * points).map(|_| random() % 10 < 3).collect();
            InputPlanes::from_fn(points, |plane, point| bits[plane * points + point])
        })
        .collect();
    eprintln!(
        "{} blocks x {} filters, {:.0} MFLOP per position",
        net.blocks(),
        net.filters(),
        net.flops() as f64 / 1e6
    );
    for &t in &threads {
        for &b in &batches {
            let mut scratch = net.scratch(b);
            scratch.set_threads(t);
            for _ in 0..20 {
                net.logits(&positions[..b], &mut scratch);
            }
            let started = Instant::now();
            let mut runs = 0u64;
            while started.elapsed().as_secs_f64() < seconds {
                std::hint::black_box(net.logits(&positions[..b], &mut scratch));
                runs += 1;
            }
            let elapsed = started.elapsed().as_secs_f64();
            println!(
                "yeoul batch {b} threads {t}: {:.1} positions/s, {:.3} ms per batch",
                runs as f64 * b as f64 / elapsed,
                elapsed / runs as f64 * 1e3
            );
        }
    }
}
