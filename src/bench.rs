//! The light-playout benchmark behind `yeoul bench`: playouts per second from the empty
//! board and from a fixed mid-game position, on one thread and on several.

use crate::rules::{Board, BoardSize, Color, Suicide};
use crate::search::playout::{PlayoutLimits, light_playout, playout, random_light_move};
use crate::search::policy::PlayoutPolicy;
use rand::SeedableRng;
use rand_pcg::Pcg32;
use std::time::{Duration, Instant};

/// A starting position for the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartPosition {
    Empty,
    /// A third of the board's points played by a fixed light-playout sequence.
    MidGame,
}

impl StartPosition {
    pub fn name(self) -> &'static str {
        match self {
            StartPosition::Empty => "empty",
            StartPosition::MidGame => "mid-game",
        }
    }
}

/// Which playouts to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutKind {
    /// Uniformly random legal moves that keep own true eyes.
    Light,
    /// [`PlayoutPolicy::heavy`]: captures, escapes, nakade, 3x3 patterns, no bad self-atari.
    Heavy,
    /// The heavy policy drawing its 3x3 pattern move by the built-in model's γ.
    Learned,
    /// The heavy policy with the 2-liberty check.
    TwoLiberties,
}

impl PlayoutKind {
    pub fn name(self) -> &'static str {
        match self {
            PlayoutKind::Light => "light",
            PlayoutKind::Heavy => "heavy",
            PlayoutKind::Learned => "learned",
            PlayoutKind::TwoLiberties => "two-liberties",
        }
    }
}

/// One line of the benchmark table.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub kind: PlayoutKind,
    pub size: BoardSize,
    pub start: StartPosition,
    pub threads: usize,
    pub playouts: u64,
    pub moves: u64,
    pub seconds: f64,
}

impl BenchRow {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }

    pub fn per_thread(&self) -> f64 {
        self.playouts_per_second() / self.threads as f64
    }

    pub fn moves_per_playout(&self) -> f64 {
        self.moves as f64 / self.playouts.max(1) as f64
    }

    pub fn ns_per_move(&self) -> f64 {
        self.seconds * 1e9 * self.threads as f64 / self.moves.max(1) as f64
    }
}

/// The board, side to move and moves played for a start position.
pub fn start_position(size: BoardSize, start: StartPosition) -> (Board, Color, usize) {
    let mut board = Board::new(size);
    let mut color = Color::Black;
    let mut played = 0;
    if start == StartPosition::MidGame {
        let mut rng = Pcg32::seed_from_u64(2026);
        while played < size.points() / 3 {
            match random_light_move(&mut board, color, Suicide::Forbidden, &mut rng) {
                Some(p) => {
                    board.play_unchecked(p, color);
                }
                None => break,
            }
            color = color.opponent();
            played += 1;
        }
    }
    (board, color, played)
}

/// Runs playouts of `kind` from `start` on `threads` threads for about `duration`.
pub fn measure(
    kind: PlayoutKind,
    size: BoardSize,
    start: StartPosition,
    threads: usize,
    duration: Duration,
) -> BenchRow {
    let mut policy = PlayoutPolicy::heavy();
    if kind == PlayoutKind::Learned {
        policy.shape_gammas = crate::knowledge::Model::builtin()
            .ok()
            .map(|m| m.tactical_gammas());
    }
    policy.two_liberties = kind == PlayoutKind::TwoLiberties;
    let (board, to_move, played) = start_position(size, start);
    let limits = PlayoutLimits::for_game_at(size, played);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let began = Instant::now();
    let deadline = began + duration;
    let per_thread: Vec<(u64, u64)> = pool.install(|| {
        use rayon::prelude::*;
        (0..threads)
            .into_par_iter()
            .map(|t| {
                let mut rng = Pcg32::seed_from_u64(t as u64 + 1);
                let mut trace = Vec::with_capacity(limits.move_limit);
                let (mut playouts, mut moves) = (0u64, 0u64);
                while Instant::now() < deadline {
                    for _ in 0..16 {
                        let mut scratch = board;
                        let r = match kind {
                            PlayoutKind::Light => {
                                light_playout(&mut scratch, to_move, limits, &mut rng)
                            }
                            PlayoutKind::Heavy
                            | PlayoutKind::Learned
                            | PlayoutKind::TwoLiberties => {
                                trace.clear();
                                playout(
                                    &mut scratch,
                                    to_move,
                                    limits,
                                    &policy,
                                    None,
                                    &mut rng,
                                    &mut trace,
                                )
                            }
                        };
                        moves += r.moves as u64;
                        playouts += 1;
                    }
                }
                (playouts, moves)
            })
            .collect()
    });
    let seconds = began.elapsed().as_secs_f64();
    BenchRow {
        kind,
        size,
        start,
        threads,
        playouts: per_thread.iter().map(|r| r.0).sum(),
        moves: per_thread.iter().map(|r| r.1).sum(),
        seconds,
    }
}

/// The benchmark table as text.
pub fn format_table(rows: &[BenchRow]) -> String {
    let mut out = String::from(
        "policy  size   start     threads  playouts/s  per thread  moves/playout  ns/move\n",
    );
    for r in rows {
        out += &format!(
            "{:<7} {:<6} {:<9} {:>7} {:>11.0} {:>11.0} {:>14.1} {:>8.1}\n",
            r.kind.name(),
            format!("{0}x{0}", r.size),
            r.start.name(),
            r.threads,
            r.playouts_per_second(),
            r.per_thread(),
            r.moves_per_playout(),
            r.ns_per_move()
        );
    }
    out
}
