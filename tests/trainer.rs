//! The Python trainer (`training/`), from `cargo test`: its own tests (the capture learned,
//! random choices not, symmetries, files, two processes through JAX's distributed
//! runtime), and the engine's network against the trainer's on real positions exported by
//! `yeoul positions` (the file format, the planes' layout and the forward pass together).
//!
//! Needs python3 with training/requirements.txt; without them these tests skip, except
//! under `CI=true`, where they fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use yeoul::network::Network;
use yeoul::network::planes::{InputPlanes, history_of_record};
use yeoul::rules::{BoardSize, Color, Game, Move, Ruleset};
use yeoul::train::records;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Whether the trainer can run here; under CI it must.
fn trainer_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import jax, optax, safetensors, tqdm, numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: python3 with training/requirements.txt is needed"
        );
        eprintln!("skipped: python3 with training/requirements.txt is not installed");
    }
    ok
}

#[test]
fn the_trainers_own_tests_pass() {
    if !trainer_available() {
        return;
    }
    let out = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "training/tests", "-v"])
        .current_dir(ROOT)
        .env("JAX_PLATFORMS", "cpu")
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("OK"), "{stderr}");
}

const GAME: &str = "(;SZ[19]DT[2005-03-01];B[pd];W[dp];B[pp];W[dd];B[];W[fc];B[qn];W[cf];B[dc];\
                    W[cc];B[ec];W[db];B[fd];W[gc];B[eb];W[cb];B[hc];W[qf];B[qh];W[of])";

#[test]
fn the_engines_network_equals_the_trainers_on_exported_positions() {
    if !trainer_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("yeoul-crosscheck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sgf = dir.join("game.sgf");
    std::fs::write(&sgf, GAME).expect("write");
    let (train, validation) = (dir.join("t.pos"), dir.join("v.pos"));
    let status = Command::new(env!("CARGO_BIN_EXE_yeoul"))
        .arg("positions")
        .arg(&sgf)
        .args(["--validation-from", "none", "--out"])
        .arg(&train)
        .arg("--validation-out")
        .arg(&validation)
        .status()
        .expect("yeoul runs");
    assert!(status.success());
    let tiny: PathBuf = Path::new(ROOT).join("tests/data/tiny-net.safetensors");
    let logits_path = dir.join("logits.safetensors");
    let out = Command::new("python3")
        .arg("training/crosscheck.py")
        .arg(&train)
        .arg(&tiny)
        .arg(&logits_path)
        .current_dir(ROOT)
        .env("JAX_PLATFORMS", "cpu")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&logits_path).expect("the trainer's logits");
    let file = safetensors::SafeTensors::deserialize(&bytes).expect("safetensors");
    let theirs: Vec<f32> = file
        .tensor("logits")
        .expect("logits")
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    // The same positions as the engine meets them in play.
    let network = Network::load(&tiny).expect("the tiny network");
    let mut scratch = network.scratch(1);
    let record = records::read_record(GAME, "t").expect("a good record");
    let mut game = Game::new(BoardSize::NINETEEN, Ruleset::Chinese);
    let mut k = 0;
    for (i, mv) in record.moves.iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if mv.is_some() {
            let planes = InputPlanes::encode(
                game.board(),
                color,
                &history_of_record(game.record(), color),
            );
            let ours = network.logits(&[planes], &mut scratch);
            let expected = &theirs[k * 361..(k + 1) * 361];
            let worst = ours
                .iter()
                .zip(expected)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f32, f32::max);
            assert!(worst < 1e-4, "move {i}: off by {worst}");
            k += 1;
        }
        game.play(color, mv.map_or(Move::Pass, Move::Play))
            .expect("legal");
    }
    assert_eq!(k * 361, theirs.len(), "a position for every stone played");
    std::fs::remove_dir_all(&dir).expect("clean up");
}
