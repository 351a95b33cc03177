//! The model file (`--model`): arbitrary bytes and mutated real files through the loader.
//! Either it is refused with a reason, or it loads and is usable: every legal move of a
//! position gets a finite, positive strength, and the playouts' table is finite too.
//! Built with `cfg(fuzzing)`, the loader skips the file's checksum, so that mutations
//! reach the fields behind it (as libpng's fuzzers skip its CRCs).
#![no_main]

use libfuzzer_sys::fuzz_target;
use yeoul::knowledge::features::{Position, Recent};
use yeoul::knowledge::model::Model;
use yeoul::rules::{Board, BoardSize, Color, Point, Suicide};

include!("common_positions.rs");

fuzz_target!(|data: &[u8]| {
    let model = match Model::from_bytes(data) {
        Ok(model) => model,
        Err(why) => {
            assert!(!why.to_string().is_empty(), "a refusal names its reason");
            return;
        }
    };
    assert!(
        model
            .tactical_gammas()
            .iter()
            .all(|g| g.is_finite() && *g > 0.0)
    );
    for (board, color, moves) in sample_boards(19) {
        let recent = Recent {
            last: moves.last().copied().flatten(),
            before: moves.len().checked_sub(2).and_then(|k| moves[k]),
        };
        let position = Position::new(&board, color, recent);
        for p in board.size().all_points() {
            if board.is_legal(p, color, Suicide::Forbidden) {
                let s = model.move_strength(&position, p);
                assert!(s.is_finite() && s > 0.0, "strength {s} at {p:?}");
            }
        }
    }
});
