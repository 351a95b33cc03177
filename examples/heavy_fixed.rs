//! A fixed amount of heavy-playout work (the search's playout policy), for instruction
//! counts under callgrind, which are repeatable where wall-clock timings are not. Every
//! build since b7a0212 plays the same moves here, so its rate (printed last) compares
//! builds on the same work.
use rand::SeedableRng;
use rand_pcg::Pcg32;
use yeoul::rules::{Board, BoardSize, Color};
use yeoul::search::playout::{PlayoutLimits, playout};
use yeoul::search::policy::PlayoutPolicy;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(9);
    let count: u32 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let size = BoardSize::new(n).expect("size");
    let limits = PlayoutLimits::for_game_at(size, 0);
    let policy = PlayoutPolicy::heavy();
    let mut rng = Pcg32::seed_from_u64(5);
    let mut trace = Vec::with_capacity(limits.move_limit);
    let mut moves = 0u64;
    // Copied per playout, as the benchmark and the search do.
    let empty = Board::new(size);
    let start = std::time::Instant::now();
    for _ in 0..count {
        let mut board = empty;
        trace.clear();
        let r = playout(
            &mut board,
            Color::Black,
            limits,
            &policy,
            None,
            &mut rng,
            &mut trace,
        );
        moves += r.moves as u64;
    }
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{count} playouts, {moves} moves in {seconds:.3} s = {:.0}/s",
        f64::from(count) / seconds
    );
}
