//! Issue 59's probe of a dense value target: how well do playouts from each counted Tygem
//! game's final position give the margin recorded for it? (If well, their ownership of
//! every point is a target far richer than one result a game.)
//!
//!     cargo run --release --example final_ownership_probe -- TYGEM_DIR [PLAYOUTS] [light]
//!     cargo run --release --example final_ownership_probe -- TYGEM_DIR GAMES arbiter
//!
//! TYGEM_DIR holds month files and index files as `yeoul positions --tygem` reads them.
//! The first 2,000 counted games; komi 6.5 (Tygem's) taken from the area margin. With
//! `arbiter`, the arbiter's quick judgement of the first GAMES final boards instead,
//! counted as Tygem counts (territory, komi 6.5), on one thread, at `PROBE_PLAYOUTS`
//! search playouts a side if set (the quick judgement's 5,000 on 19x19 if not).

use rand::SeedableRng;
use std::path::PathBuf;
use yeoul::referee::{Effort, judge};
use yeoul::rules::{BoardSize, Color};
use yeoul::search::playout::{PlayoutLimits, playout};
use yeoul::search::policy::PlayoutPolicy;
use yeoul::train::ownership;
use yeoul::train::records::{Ending, Record};
use yeoul::train::tygem::read_tygem;

const GAMES: usize = 2_000;

/// The arbiter's count of the final boards of `counted` games against the record.
fn arbiter_probe<'a>(counted: impl Iterator<Item = (&'a Record, f64)>, games: usize) {
    let mut effort = Effort::for_board(BoardSize::NINETEEN.points(), 1).quick();
    if let Some(p) = std::env::var("PROBE_PLAYOUTS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        effort.playouts = p;
        effort.max_playouts = p;
    }
    let started = std::time::Instant::now();
    let (mut judged, mut agree, mut error, mut close) = (0, 0, 0.0, 0);
    for (record, recorded) in counted.take(games) {
        let Some(game) = ownership::final_game(record) else {
            continue;
        };
        let Ok(Some(judgement)) = judge(&game, &effort) else {
            continue;
        };
        let counted = judgement.score(&game).margin();
        judged += 1;
        agree += usize::from((counted > 0.0) == (recorded > 0.0));
        close += usize::from((counted - recorded).abs() <= 2.0);
        error += (counted - recorded).abs();
    }
    let share = |a: usize| 100.0 * a as f64 / judged.max(1) as f64;
    println!(
        "{judged} final boards judged: the winner agrees in {agree} ({:.1}%), the margin within \
         2 points in {close} ({:.1}%); mean |count - recorded| {:.2} points; {:.0} ms a board",
        share(agree),
        share(close),
        error / judged.max(1) as f64,
        started.elapsed().as_secs_f64() * 1000.0 / judged.max(1) as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: final_ownership_probe TYGEM_DIR [PLAYOUTS] [light]");
        std::process::exit(2);
    };
    let playouts: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(32);
    let policy = if args.get(2).is_some_and(|a| a == "light") {
        PlayoutPolicy::light()
    } else {
        PlayoutPolicy::heavy()
    };
    let (records, report) = read_tygem(&[PathBuf::from(dir)]);
    eprintln!("{report}");
    let counted = records.iter().filter_map(|r| match r.result?.ending {
        Ending::Counted(margin) => Some((r, r.result?.winner, f64::from(margin))),
        _ => None,
    });
    if args.get(2).is_some_and(|a| a == "arbiter") {
        let signed = counted.map(|(r, winner, m)| (r, if winner == Color::Black { m } else { -m }));
        arbiter_probe(signed, playouts);
        return;
    }
    let started = std::time::Instant::now();
    let (mut games, mut agree, mut error, mut wide, mut wide_agree) = (0, 0, 0.0, 0, 0);
    let mut trace = Vec::new();
    for (record, winner, margin) in counted.take(GAMES) {
        let Some(board) = ownership::final_game(record).map(|game| *game.board()) else {
            continue;
        };
        let recorded = if winner == Color::Black {
            margin
        } else {
            -margin
        };
        let to_move = Record::color(record.moves.len());
        let limits = PlayoutLimits::for_game_at(BoardSize::NINETEEN, record.moves.len());
        let mut rng = rand_pcg::Pcg32::seed_from_u64(games as u64);
        let mut sum = 0.0;
        for _ in 0..playouts {
            let mut board = board;
            trace.clear();
            let result = playout(
                &mut board, to_move, limits, &policy, None, &mut rng, &mut trace,
            );
            sum += f64::from(result.area_margin);
        }
        let estimate = sum / playouts.max(1) as f64 - ownership::KOMI;
        let same_winner = (estimate > 0.0) == (recorded > 0.0);
        games += 1;
        agree += usize::from(same_winner);
        error += (estimate - recorded).abs();
        if recorded.abs() > 5.0 {
            wide += 1;
            wide_agree += usize::from(same_winner);
        }
    }
    let share = |a: usize, n: usize| 100.0 * a as f64 / n.max(1) as f64;
    println!(
        "{games} counted games, {playouts} playouts each: the winner agrees in {agree} ({:.1}%), \
         in {wide_agree} of the {wide} won by more than 5 ({:.1}%); mean |estimate - recorded| \
         {:.2} points; {:.2} ms a game",
        share(agree, games),
        share(wide_agree, wide),
        error / games.max(1) as f64,
        started.elapsed().as_secs_f64() * 1000.0 / games.max(1) as f64
    );
}
