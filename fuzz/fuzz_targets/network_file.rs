//! The network file (`--net`): arbitrary bytes and mutated real files through the loader.
//! Either it is refused with a reason, or it loads and is usable: on its board size (and
//! on 9x9 too where its head plays every size), the move probabilities of a position are
//! finite, zero off the legal points, and sum to 1; its value (version 3) and its points'
//! owners lie in -1..1.
//! Built with `cfg(fuzzing)`, the loader skips the weights' checksum, so that mutated
//! weights reach the forward pass.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yeoul::network::Network;
use yeoul::network::planes::{InputPlanes, LEGAL, history_of_moves};
use yeoul::rules::{Board, BoardSize, Color, Point, Suicide};

include!("common_positions.rs");

fuzz_target!(|data: &[u8]| {
    let network = match Network::from_bytes(data) {
        Ok(network) => network,
        Err(why) => {
            assert!(!why.to_string().is_empty(), "a refusal names its reason");
            return;
        }
    };
    check(&network);
    if network.plays_every_size() {
        check(&network.for_size(9).expect("a network of every size plays 9x9"));
    }
});

fn check(network: &Network) {
    let mut scratch = network.scratch(2);
    let positions: Vec<InputPlanes> = sample_boards(network.board_size())
        .iter()
        .map(|(board, color, moves)| InputPlanes::encode(board, *color, &history_of_moves(moves)))
        .collect();
    let points = network.board_size() * network.board_size();
    let evaluation = network.evaluate(&positions, &mut scratch);
    let policy = evaluation.policy;
    assert_eq!(policy.len(), positions.len() * points);
    let heads = [
        (network.has_value(), evaluation.value, positions.len()),
        (network.has_ownership(), evaluation.ownership, positions.len() * points),
    ];
    for (present, outputs, len) in heads {
        assert_eq!(outputs.len(), if present { len } else { 0 });
        assert!(outputs.iter().all(|v| (-1.0..=1.0).contains(v)), "{outputs:?}");
    }
    for (planes, row) in positions.iter().zip(policy.chunks(points)) {
        let mut total = 0.0f64;
        for (p, &v) in row.iter().enumerate() {
            assert!(v.is_finite() && v >= 0.0, "probability {v} at {p}");
            if !planes.get(LEGAL, p) {
                assert_eq!(v, 0.0, "a probability off the legal points");
            }
            total += v as f64;
        }
        assert!((total - 1.0).abs() < 1e-3, "probabilities sum to {total}");
    }
}
