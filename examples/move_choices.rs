//! How human a player's moves look to the policy network, on 19x19 games (issue 42):
//! the share of its moves that are the network's first choice, among its top 5, and
//! rated under 1%; its first- and second-line moves before move 50, a game; with
//! `--katrain K`, KaTrain's calibrated-rank rule at kyu rank K (its draw, then the
//! network's favourite of the moves drawn; several draws a position) on the same
//! positions; with `--judge N`, the mean point loss a move of N positions drawn at
//! random, judged by `max` searches of `--judge-playouts` playouts (the score after the
//! judge's move less the score after the move played, both searched).
//!
//!     cargo run --release --example move_choices -- --player yeoul DIR...
//!     cargo run --release --example move_choices -- --from 2011-07-01 --games 300 \
//!         ../shared/data/tom-9d/tom-2011.sgf
//!
//! With `--level L` (and `--level-set KEY=VALUE` as `yeoul` takes it:
//! `--level-set impression-within=0.1`), the level's own choice on `--sample N` of the same
//! positions drawn at random (a screen before the level plays games).
//!
//! A game counts when its PB or PW contains `--player` (any case; every player when
//! none is given), and only that player's moves; games not 19x19 are skipped.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg32;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use yeoul::engine::seen::katrain_choice;
use yeoul::engine::{Decision, Engine, EngineConfig, Level, LevelChanges, Reply};
use yeoul::rules::{BoardSize, Color, Game, Move, Point, Ruleset};
use yeoul::sgf::{Until, read_game};
use yeoul::train::records::{sgf_files, split_collection};

/// Draws of KaTrain's rule a position.
const KATRAIN_DRAWS: usize = 8;

struct Options {
    player: Option<String>,
    from: Option<String>,
    games: usize,
    katrain: Vec<f64>,
    judge: usize,
    judge_playouts: u64,
    seed: u64,
    level: Option<Level>,
    sample: usize,
    level_changes: LevelChanges,
    inputs: Vec<PathBuf>,
}

fn options() -> Options {
    let mut o = Options {
        player: None,
        from: None,
        games: usize::MAX,
        katrain: Vec::new(),
        judge: 0,
        judge_playouts: 3_000,
        seed: 1,
        level: None,
        sample: 300,
        level_changes: LevelChanges::default(),
        inputs: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--player" => o.player = Some(value().to_lowercase()),
            "--from" => o.from = Some(value()),
            "--games" => o.games = value().parse().expect("--games N"),
            "--katrain" => {
                o.katrain = value()
                    .split(',')
                    .map(|k| k.parse().expect("--katrain KYU[,KYU...]"))
                    .collect()
            }
            "--judge" => o.judge = value().parse().expect("--judge N"),
            "--judge-playouts" => o.judge_playouts = value().parse().expect("a number"),
            "--seed" => o.seed = value().parse().expect("--seed N"),
            "--level" => o.level = Some(value().parse().expect("--level LEVEL")),
            "--sample" => o.sample = value().parse().expect("--sample N"),
            "--level-set" => {
                let setting = value();
                if let Err(e) = o.level_changes.set(&setting) {
                    panic!("--level-set {setting}: {e}");
                }
            }
            _ => o.inputs.push(PathBuf::from(arg)),
        }
    }
    o
}

/// The value of the root property `name` (`PB`, `PW`, `DT`) of an SGF text.
fn property(text: &str, name: &str) -> Option<String> {
    let start = text.find(&format!("{name}["))? + name.len() + 1;
    let end = text[start..].find(']')? + start;
    Some(text[start..end].to_string())
}

/// One position of the player's: the game before the move, and the move.
struct Position {
    game: Game,
    color: Color,
    played: Point,
}

/// Shares of moves by the network's rating.
#[derive(Default)]
struct Shares {
    moves: f64,
    first: f64,
    top5: f64,
    under_1: f64,
}

impl Shares {
    fn add(&mut self, rank: usize, probability: f32, weight: f64) {
        self.moves += weight;
        self.first += weight * f64::from(u8::from(rank == 0));
        self.top5 += weight * f64::from(u8::from(rank < 5));
        self.under_1 += weight * f64::from(u8::from(probability < 0.01));
    }

    fn line(&self) -> String {
        let pct = |x: f64| 100.0 * x / self.moves.max(1e-9);
        format!(
            "first {:5.1}%  top-5 {:5.1}%  under 1% {:5.1}%",
            pct(self.first),
            pct(self.top5),
            pct(self.under_1)
        )
    }
}

fn main() {
    let o = options();
    // `max` on 19x19: the policy network rates the moves, its search judges them.
    let config = EngineConfig {
        level: Level::MAX,
        playouts: Some(o.judge_playouts),
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
    let mut rng = Pcg32::seed_from_u64(o.seed);
    let mut positions = Vec::new();
    let mut games = 0;
    let mut low_lines = 0usize;
    for file in sgf_files(&o.inputs) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            eprintln!("{}: unreadable", file.display());
            continue;
        };
        for tree in split_collection(&text) {
            if games >= o.games {
                break;
            }
            if o.from.as_ref().is_some_and(|from| {
                property(tree, "DT").is_none_or(|date| date.replace('.', "-") < *from)
            }) {
                continue;
            }
            let names = [property(tree, "PB"), property(tree, "PW")]
                .map(|n| n.unwrap_or_default().to_lowercase());
            let colors: Vec<Color> = Color::BOTH
                .into_iter()
                .filter(|c| {
                    o.player
                        .as_ref()
                        .is_none_or(|p| names[c.index()].contains(p))
                })
                .collect();
            let Ok(game) = read_game(tree, Ruleset::Chinese, Until::End) else {
                continue;
            };
            if colors.is_empty() || game.size() != BoardSize::NINETEEN {
                continue;
            }
            games += 1;
            let Ok(mut replay) = read_game(tree, Ruleset::Chinese, Until::MoveNumber(0)) else {
                continue;
            };
            for (k, &(color, mv)) in game.record().iter().enumerate() {
                if let Move::Play(p) = mv
                    && colors.contains(&color)
                {
                    let (col, row) = BoardSize::NINETEEN.col_row(p);
                    let line = 1 + col.min(row).min(18 - col).min(18 - row);
                    if k < 50 && line <= 2 {
                        low_lines += 1;
                    }
                    positions.push(Position {
                        game: replay.clone(),
                        color,
                        played: p,
                    });
                }
                if replay.play(color, mv).is_err() {
                    break;
                }
            }
        }
    }
    let mut played = Shares::default();
    let mut katrain: Vec<Shares> = o.katrain.iter().map(|_| Shares::default()).collect();
    for position in &positions {
        engine.set_game(position.game.clone());
        let policy = engine.policy(position.color).expect("the built-in network");
        let Some(rank) = policy.iter().position(|&(p, _)| p == position.played) else {
            continue;
        };
        played.add(rank, policy[rank].1, 1.0);
        for (shares, &kyu) in katrain.iter_mut().zip(&o.katrain) {
            for _ in 0..KATRAIN_DRAWS {
                if let Some(k) = katrain_choice(&policy, kyu, 361, &mut rng) {
                    shares.add(k, policy[k].1, 1.0 / KATRAIN_DRAWS as f64);
                }
            }
        }
    }
    println!(
        "{} games, {} moves: {}; first- and second-line moves before move 50: {:.2} a game",
        games,
        positions.len(),
        played.line(),
        low_lines as f64 / games.max(1) as f64
    );
    for (shares, kyu) in katrain.iter().zip(&o.katrain) {
        println!(
            "KaTrain's rule at {kyu}k, same positions: {}",
            shares.line()
        );
    }
    if let Some(level) = o.level {
        let mut config = EngineConfig {
            level,
            threads: 1,
            seed: o.seed,
            ..EngineConfig::default()
        };
        config.level_changes = o.level_changes;
        let mut player = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
        let mut sample: Vec<&Position> = positions.iter().collect();
        sample.shuffle(&mut rng);
        let mut shares = Shares::default();
        let mut impressions = 0usize;
        for position in sample.into_iter().take(o.sample) {
            engine.set_game(position.game.clone());
            let policy = engine.policy(position.color).expect("the built-in network");
            player.set_game(position.game.clone());
            let Ok(Reply::Move(Move::Play(p))) =
                player.choose(position.color, &AtomicBool::new(false))
            else {
                continue;
            };
            impressions += usize::from(
                player
                    .last_search()
                    .is_some_and(|(_, d)| *d == Decision::Impression),
            );
            if let Some(rank) = policy.iter().position(|&(q, _)| q == p) {
                shares.add(rank, policy[rank].1, 1.0);
            }
        }
        println!(
            "{level} on {} of the positions: {}; first impressions played {impressions}",
            shares.moves,
            shares.line()
        );
    }
    if o.judge > 0 {
        let mut sample: Vec<&Position> = positions.iter().collect();
        sample.shuffle(&mut rng);
        let (mut loss, mut judged) = (0.0f64, 0usize);
        for position in sample.into_iter().take(o.judge) {
            engine.set_game(position.game.clone());
            let Ok(result) = engine.current_analysis(position.color, &AtomicBool::new(false))
            else {
                continue;
            };
            let Move::Play(best) = result.best else {
                continue;
            };
            let sign = if position.color == Color::Black {
                1.0
            } else {
                -1.0
            };
            let lost = if best == position.played {
                0.0
            } else {
                let game = &position.game;
                match (
                    engine.score_after(game, best),
                    engine.score_after(game, position.played),
                ) {
                    (Ok(Some(b)), Ok(Some(p))) => sign * (b - p),
                    _ => continue,
                }
            };
            loss += f64::from(lost);
            judged += 1;
        }
        println!(
            "mean point loss a move by max ({} playouts): {:.2} over {judged} positions",
            o.judge_playouts,
            loss / judged.max(1) as f64
        );
    }
}
