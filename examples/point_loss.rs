//! Players' moves on the same positions of 19x19 games, judged by `max` (issue 42): for
//! each player, the mean point loss a move (the score after the judge's move less the
//! score after the player's, both searched by the judge), the share of its moves that
//! are the policy network's first choice, among its top 5, and rated under 1%. A player
//! is a GTP engine's command line, `katrain:K` (KaTrain's calibrated-rank rule at kyu
//! rank K with the built-in network, in-process), or `game` (the move the record
//! played: the 9-dan players themselves). One position a game, drawn between
//! moves 20 and 200; a fast, repeatable proxy for a level's strength beside the matches.
//!
//!     cargo run --release --example point_loss -- --positions 200 --from 2011-07-01 \
//!         --judge-playouts 4000 ../shared/data/tom-9d/tom-2011.sgf \
//!         --player "target/release/yeoul --level normal --threads 1" --player katrain:8

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use yeoul::engine::seen::katrain_choice;
use yeoul::engine::{Engine, EngineConfig, Level, Reply};
use yeoul::match_runner::{GtpPlayer, Player};
use yeoul::rules::{BoardSize, Color, Game, Move, Point, Ruleset};
use yeoul::sgf::{Until, read_game};
use yeoul::train::records::{sgf_files, split_collection};

struct Options {
    positions: usize,
    from: Option<String>,
    judge_playouts: u64,
    seed: u64,
    inputs: Vec<PathBuf>,
    players: Vec<String>,
}

fn options() -> Options {
    let mut o = Options {
        positions: 200,
        from: None,
        judge_playouts: 4_000,
        seed: 1,
        inputs: Vec::new(),
        players: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--positions" => o.positions = value().parse().expect("--positions N"),
            "--from" => o.from = Some(value()),
            "--judge-playouts" => o.judge_playouts = value().parse().expect("a number"),
            "--seed" => o.seed = value().parse().expect("--seed N"),
            "--player" => o.players.push(value()),
            _ => o.inputs.push(PathBuf::from(arg)),
        }
    }
    o
}

fn property(text: &str, name: &str) -> Option<String> {
    let start = text.find(&format!("{name}["))? + name.len() + 1;
    let end = text[start..].find(']')? + start;
    Some(text[start..end].to_string())
}

/// The positions: one a game, drawn between moves 20 and 200, the side to move, with the
/// move the record played there.
fn positions(o: &Options, rng: &mut Pcg32) -> Vec<(Game, Move)> {
    let mut out = Vec::new();
    for file in sgf_files(&o.inputs) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for tree in split_collection(&text) {
            if o.from.as_ref().is_some_and(|from| {
                property(tree, "DT").is_none_or(|date| date.replace('.', "-") < *from)
            }) {
                continue;
            }
            let Ok(game) = read_game(tree, Ruleset::Chinese, Until::End) else {
                continue;
            };
            let moves = game.record().len();
            if game.size() != BoardSize::NINETEEN || moves < 40 {
                continue;
            }
            let at = rng.random_range(20..moves.min(200));
            if let Ok(g) = read_game(tree, Ruleset::Chinese, Until::MoveNumber(at))
                // A GTP player is told the moves: no set-up stones, for every player alike.
                && g.setup().is_none()
            {
                let next = game.record()[g.record().len()].1;
                out.push((g, next));
            }
        }
    }
    out.shuffle(rng);
    out.truncate(o.positions);
    out
}

/// A player's move in `game`, or `None` when it passed, resigned or failed.
fn player_move(
    player: &str,
    (game, played): &(Game, Move),
    policy: &[(Point, f32)],
    rng: &mut Pcg32,
    engines: &mut HashMap<String, GtpPlayer>,
    time: &mut Duration,
) -> Option<Point> {
    let color = game.to_move();
    if player == "game" {
        return match played {
            Move::Play(p) => Some(*p),
            Move::Pass => None,
        };
    }
    if let Some(kyu) = player.strip_prefix("katrain:") {
        let kyu: f64 = kyu.parse().expect("katrain:KYU");
        return katrain_choice(policy, kyu, 361, rng).map(|k| policy[k].0);
    }
    let engine = engines.entry(player.to_string()).or_insert_with(|| {
        GtpPlayer::start(player, Duration::from_secs(60)).expect("the player starts")
    });
    engine
        .new_game(game.size(), game.komi(), Ruleset::Chinese)
        .ok()?;
    for &(c, mv) in game.record() {
        engine.play(c, mv).ok()?;
    }
    let started = Instant::now();
    let reply = engine.genmove(color);
    *time += started.elapsed();
    match reply {
        Ok(Reply::Move(Move::Play(p))) => Some(p),
        _ => None,
    }
}

#[derive(Default)]
struct Tally {
    moves: usize,
    loss: f64,
    judges_move: usize,
    first: usize,
    top5: usize,
    under_1: usize,
    time: Duration,
}

fn main() {
    let o = options();
    let mut rng = Pcg32::seed_from_u64(o.seed);
    let games = positions(&o, &mut rng);
    // `max` on 19x19: the policy network rates the moves, its search judges them.
    let config = EngineConfig {
        level: Level::MAX,
        playouts: Some(o.judge_playouts),
        ..EngineConfig::default()
    };
    let mut judge = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut engines = HashMap::new();
    let mut tallies: Vec<Tally> = o.players.iter().map(|_| Tally::default()).collect();
    for (k, position) in games.iter().enumerate() {
        let game = &position.0;
        let color = game.to_move();
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        judge.set_game(game.clone());
        let Some(policy) = judge.policy(color) else {
            continue;
        };
        let Ok(wide) = judge.current_analysis(color, &AtomicBool::new(false)) else {
            continue;
        };
        let Move::Play(best) = wide.best else {
            continue;
        };
        let mut scores: HashMap<Point, Option<f32>> = HashMap::new();
        let best_score = judge.score_after(game, best).ok().flatten();
        for (player, tally) in o.players.iter().zip(tallies.iter_mut()) {
            let time = &mut tally.time;
            let Some(p) = player_move(player, position, &policy, &mut rng, &mut engines, time)
            else {
                continue;
            };
            let score = if p == best {
                best_score
            } else {
                *scores
                    .entry(p)
                    .or_insert_with(|| judge.score_after(game, p).ok().flatten())
            };
            let (Some(b), Some(s)) = (best_score, score) else {
                continue;
            };
            let rank = policy
                .iter()
                .position(|&(q, _)| q == p)
                .unwrap_or(usize::MAX);
            let probability = policy.get(rank).map_or(0.0, |&(_, prob)| prob);
            tally.moves += 1;
            tally.loss += f64::from(sign * (b - s));
            tally.judges_move += usize::from(p == best);
            tally.first += usize::from(rank == 0);
            tally.top5 += usize::from(rank < 5);
            tally.under_1 += usize::from(probability < 0.01);
        }
        if (k + 1) % 20 == 0 {
            eprintln!("{} positions", k + 1);
        }
    }
    println!(
        "{} positions; judge: max, {} playouts",
        games.len(),
        o.judge_playouts
    );
    for (player, t) in o.players.iter().zip(&tallies) {
        let pct = |x: usize| 100.0 * x as f64 / t.moves.max(1) as f64;
        println!(
            "{player}: {} moves, mean loss {:.2} points, judge's move {:.1}%, first {:.1}%, \
             top-5 {:.1}%, under 1% {:.1}%, {:.2} s a move",
            t.moves,
            t.loss / t.moves.max(1) as f64,
            pct(t.judges_move),
            pct(t.first),
            pct(t.top5),
            pct(t.under_1),
            t.time.as_secs_f64() / t.moves.max(1) as f64
        );
    }
}
