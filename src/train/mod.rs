//! `yeoul train`: move knowledge from game records. Read the games, hold out the latest
//! for validation, harvest the shapes played often enough, extract the features of every
//! legal move of sampled positions, fit the strengths by minorization-maximization, write
//! the model, and measure how often it predicts the validation games' moves.
//!
//! Deterministic: the same records, settings and seed give the same model file, byte for
//! byte, on any number of threads.

pub mod mm;
pub mod ownership;
pub mod positions;
pub mod records;
pub mod tygem;

use crate::knowledge::features::{Position, Recent};
use crate::knowledge::model::{Dictionary, GROUPS, Model, shape_entry};
use crate::knowledge::shape::{Geometry, SIZES, canonical_tactical};
use crate::rules::{Board, BoardSize, Point, Suicide};
use indicatif::{ProgressBar, ProgressStyle};
use mm::Samples;
use rayon::prelude::*;
use records::Record;
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

/// Everything a training run depends on.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub inputs: Vec<PathBuf>,
    /// Games dated on or after this day (`YYYY-MM-DD`) are held out for validation; with
    /// none (or no dated games), the last twentieth of the games.
    pub validation_from: Option<String>,
    /// Use at most this many training games (drawn with the seed).
    pub max_games: Option<usize>,
    /// Positions the strengths are fitted on (drawn with the seed from all training games).
    pub max_positions: usize,
    /// A shape joins the dictionary when played at least this often in the training games.
    pub min_shape_count: u32,
    pub cycles: usize,
    /// Validation positions measured (drawn with the seed).
    pub max_validation_positions: usize,
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            inputs: Vec::new(),
            validation_from: Some("2011-07-01".into()),
            max_games: None,
            max_positions: 1_000_000,
            min_shape_count: 20,
            cycles: 30,
            max_validation_positions: 200_000,
            seed: 1,
        }
    }
}

/// How well a model predicts the moves of some games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accuracy {
    pub positions: u64,
    /// `hits[k]`: positions whose move the model ranks among its first `k + 1`.
    pub hits: [u64; 20],
    pub log_likelihood: f64,
    /// Positions and first-choice hits by move number (`PHASES`).
    pub by_phase: [(u64, u64); PHASES.len()],
}

/// Move-number ranges of the accuracy table (Pachi's `t-predict` buckets).
pub const PHASES: [(usize, usize); 9] = [
    (0, 9),
    (10, 19),
    (20, 29),
    (30, 59),
    (60, 89),
    (90, 119),
    (120, 179),
    (180, 269),
    (270, usize::MAX),
];

impl Accuracy {
    pub fn top(&self, k: usize) -> f64 {
        self.hits[k - 1] as f64 / self.positions.max(1) as f64
    }

    fn add(&mut self, other: &Accuracy) {
        self.positions += other.positions;
        for (a, b) in self.hits.iter_mut().zip(other.hits) {
            *a += b;
        }
        self.log_likelihood += other.log_likelihood;
        for (a, b) in self.by_phase.iter_mut().zip(other.by_phase) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }
}

impl fmt::Display for Accuracy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "positions: {}", self.positions)?;
        writeln!(
            f,
            "mean log-likelihood of the move played: {:.4}",
            self.log_likelihood / self.positions.max(1) as f64
        )?;
        writeln!(f, "| top-k | 1 | 2 | 3 | 5 | 10 | 20 |")?;
        writeln!(f, "|---|---|---|---|---|---|---|")?;
        write!(f, "| hit |")?;
        for k in [1, 2, 3, 5, 10, 20] {
            write!(f, " {:.1}% |", 100.0 * self.top(k))?;
        }
        writeln!(f)?;
        write!(f, "| moves |")?;
        for (from, to) in PHASES {
            if to == usize::MAX {
                write!(f, " {from}+ |")?;
            } else {
                write!(f, " {from}-{to} |")?;
            }
        }
        writeln!(f)?;
        writeln!(f, "|---|{}", "---|".repeat(PHASES.len()))?;
        write!(f, "| top-1 |")?;
        for (n, hit) in self.by_phase {
            write!(f, " {:.1}% |", 100.0 * hit as f64 / n.max(1) as f64)?;
        }
        writeln!(f)
    }
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub read: records::ReadReport,
    pub training_games: usize,
    pub validation_games: usize,
    pub tactical_shapes: usize,
    pub shapes_by_size: [usize; SIZES],
    pub positions: usize,
    pub candidates: usize,
    pub log_likelihood: Vec<f64>,
    pub accuracy: Accuracy,
    pub seconds: f64,
}

impl fmt::Display for TrainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "records: {}", self.read)?;
        writeln!(
            f,
            "training games: {}, validation games: {}",
            self.training_games, self.validation_games
        )?;
        writeln!(
            f,
            "dictionary: {} tactical 3x3 shapes, {} shapes (by size 3..10: {:?})",
            self.tactical_shapes,
            self.shapes_by_size.iter().sum::<usize>(),
            self.shapes_by_size
        )?;
        writeln!(
            f,
            "fitted on {} positions ({} candidate moves), {} MM cycles, log-likelihood {:.4}",
            self.positions,
            self.candidates,
            self.log_likelihood.len(),
            self.log_likelihood.last().copied().unwrap_or(0.0)
        )?;
        writeln!(f, "validation:")?;
        write!(f, "{}", self.accuracy)?;
        writeln!(f, "time: {:.0} s", self.seconds)
    }
}

/// Why training could not run.
#[derive(Debug)]
pub enum TrainError {
    NoGames,
    Model(crate::knowledge::ModelError),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::NoGames => f.write_str("no usable 19x19 even games in the input"),
            TrainError::Model(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TrainError {}

fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:<22} [{bar:30}] {human_pos}/{human_len} {per_sec} ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// A number in 0..1 that depends only on the seed and the two indices.
fn draw(seed: u64, a: u64, b: u64) -> f64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

/// Plays a record through, calling `f` with the board before every stone played: the
/// move number, the board, the recent moves and the move.
pub fn replay(record: &Record, mut f: impl FnMut(usize, &Board, Recent, Point)) {
    let mut board = Board::new(BoardSize::NINETEEN);
    for (i, &mv) in record.moves.iter().enumerate() {
        let color = Record::color(i);
        let Some(p) = mv else {
            board.clear_ko();
            continue;
        };
        let recent = Recent {
            last: i.checked_sub(1).and_then(|k| record.moves[k]),
            before: i.checked_sub(2).and_then(|k| record.moves[k]),
        };
        f(i, &board, recent, p);
        if board.play(p, color, Suicide::Forbidden).is_err() {
            // Records are replayed once when read; a move cannot turn illegal here.
            return;
        }
    }
}

/// Reads, fits, writes; returns the model and what was done.
pub fn train(config: &TrainConfig) -> Result<(Model, TrainReport), TrainError> {
    let started = Instant::now();
    let files = records::sgf_files(&config.inputs);
    let reading = bar(files.len() as u64, "reading");
    let (records, read) = records::read_records(&files, |_| reading.inc(1));
    reading.finish_and_clear();
    log::info!("{read}");
    let (mut training, validation) = split(records, config.validation_from.as_deref());
    if training.is_empty() {
        return Err(TrainError::NoGames);
    }
    if let Some(n) = config.max_games
        && n < training.len()
    {
        let mut keyed: Vec<(f64, Record)> = training
            .into_iter()
            .enumerate()
            .map(|(i, r)| (draw(config.seed, 1, i as u64), r))
            .collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        keyed.truncate(n);
        training = keyed.into_iter().map(|(_, r)| r).collect();
    }
    log::info!(
        "{} training games, {} validation games",
        training.len(),
        validation.len()
    );
    let dictionary = harvest(&training, config.min_shape_count);
    let mut shapes_by_size = [0usize; SIZES];
    for s in &dictionary.shapes {
        shapes_by_size[s.size as usize] += 1;
    }
    let tactical_shapes = dictionary.tactical.len();
    let mut model = Model::untrained(dictionary).map_err(TrainError::Model)?;
    let total: usize = training
        .iter()
        .map(|r| r.moves.iter().flatten().count())
        .sum();
    let rate = (config.max_positions as f64 / total.max(1) as f64).min(1.0);
    let samples = extract(&model, &training, rate, config.seed);
    log::info!(
        "{} positions, {} candidates, {} MB",
        samples.positions.len(),
        samples.teams.len(),
        samples.bytes() >> 20
    );
    let fitting = bar((config.cycles * GROUPS) as u64, "fitting (MM)");
    let (gammas, history) = mm::fit(&model, &samples, config.cycles, &mut |cycle, g, ll| {
        fitting.inc(1);
        if g + 1 == GROUPS {
            log::info!("MM cycle {}: log-likelihood {ll:.5}", cycle + 1);
        }
    });
    fitting.finish_and_clear();
    model
        .set_gammas(gammas.iter().map(|&g| g as f32).collect())
        .map_err(TrainError::Model)?;
    let accuracy = evaluate(
        &model,
        &validation,
        config.max_validation_positions,
        config.seed,
    );
    let report = TrainReport {
        read,
        training_games: training.len(),
        validation_games: validation.len(),
        tactical_shapes,
        shapes_by_size,
        positions: samples.positions.len(),
        candidates: samples.teams.len(),
        log_likelihood: history,
        accuracy,
        seconds: started.elapsed().as_secs_f64(),
    };
    model.set_note(&format!(
        "{} training games, {} positions, shapes seen {}+ times, {} MM cycles, seed {}",
        report.training_games,
        report.positions,
        config.min_shape_count,
        report.log_likelihood.len(),
        config.seed
    ));
    Ok((model, report))
}

/// Training and validation games: by date when the date leaves games on both sides,
/// else the last twentieth.
fn split(records: Vec<Record>, from: Option<&str>) -> (Vec<Record>, Vec<Record>) {
    if let Some(from) = from {
        let held_out = |r: &Record| r.date.as_deref().is_some_and(|d| d >= from);
        if records.iter().any(held_out) && !records.iter().all(held_out) {
            return records.into_iter().partition(|r| !held_out(r));
        }
    }
    let mut records = records;
    let held = records.len() / 20;
    let validation = records.split_off(records.len() - held);
    (records, validation)
}

/// The shapes and tactical shapes played at least `min_count` times, in a fixed order.
pub fn harvest(games: &[Record], min_count: u32) -> Dictionary {
    let geometry = Geometry::get();
    let progress = bar(games.len() as u64, "harvesting shapes");
    let counts = games
        .par_iter()
        .fold(
            || (HashMap::<u64, u32>::new(), HashMap::<u32, u32>::new()),
            |(mut shapes, mut tactical), record| {
                replay(record, |i, board, recent, p| {
                    let position = Position::new(board, Record::color(i), recent);
                    for (id, _) in geometry.canonical_ids(&position.shape_states(p)) {
                        *shapes.entry(id).or_default() += 1;
                    }
                    *tactical
                        .entry(canonical_tactical(geometry, position.tactical(p)))
                        .or_default() += 1;
                });
                progress.inc(1);
                (shapes, tactical)
            },
        )
        .reduce(
            || (HashMap::new(), HashMap::new()),
            |a, b| {
                if a.0.len() >= b.0.len() {
                    merge(a, b)
                } else {
                    merge(b, a)
                }
            },
        );
    progress.finish_and_clear();
    let (shape_counts, tactical_counts) = counts;
    let kept: HashMap<u64, ()> = shape_counts
        .into_iter()
        .filter(|&(_, n)| n >= min_count)
        .map(|(k, _)| (k, ()))
        .collect();
    // Second pass: the points of every kept shape.
    let found = games
        .par_iter()
        .fold(
            HashMap::<u64, (usize, [u8; 72])>::new,
            |mut found, record| {
                replay(record, |i, board, recent, p| {
                    let states = Position::new(board, Record::color(i), recent).shape_states(p);
                    for (size, (id, t)) in geometry.canonical_ids(&states).into_iter().enumerate() {
                        if kept.contains_key(&id) {
                            found.entry(id).or_insert_with(|| {
                                (size, geometry.orient_states(t as usize, size, &states))
                            });
                        }
                    }
                });
                found
            },
        )
        .reduce(HashMap::new, |mut a, b| {
            for (k, v) in b {
                a.entry(k).or_insert(v);
            }
            a
        });
    let mut shapes: Vec<(usize, u64, [u8; 72])> = found
        .into_iter()
        .map(|(id, (size, s))| (size, id, s))
        .collect();
    shapes.sort_by_key(|&(size, id, _)| (size, id));
    let mut tactical: Vec<u32> = tactical_counts
        .into_iter()
        .filter(|&(_, n)| n >= min_count)
        .map(|(code, _)| code)
        .collect();
    tactical.sort_unstable();
    Dictionary {
        tactical,
        shapes: shapes
            .into_iter()
            .map(|(size, _, states)| shape_entry(size, &states))
            .collect(),
    }
}

type Counts = (HashMap<u64, u32>, HashMap<u32, u32>);

fn merge((mut a, mut at): Counts, (b, bt): Counts) -> Counts {
    for (k, v) in b {
        *a.entry(k).or_default() += v;
    }
    for (k, v) in bt {
        *at.entry(k).or_default() += v;
    }
    (a, at)
}

/// The teams of every legal move in positions drawn at `rate` from the games.
pub fn extract(model: &Model, games: &[Record], rate: f64, seed: u64) -> Samples {
    let progress = bar(games.len() as u64, "extracting features");
    let moves: usize = games.iter().map(|r| r.moves.len()).sum();
    let mut all = Samples::default();
    // About 250 legal moves a position: reserve once rather than doubling at the end.
    let expected = (moves as f64 * rate * 1.05) as usize;
    all.positions.reserve(expected);
    all.teams.reserve(expected * 250);
    // Batches keep the memory near the samples' own size.
    for (b, batch) in games.chunks(1024).enumerate() {
        let parts: Vec<Samples> = batch
            .par_iter()
            .enumerate()
            .map(|(k, record)| {
                let g = b * 1024 + k;
                let mut samples = Samples::default();
                let mut teams = Vec::with_capacity(362);
                replay(record, |i, board, recent, p| {
                    if draw(seed, 2 + g as u64, i as u64) >= rate {
                        return;
                    }
                    let color = Record::color(i);
                    let position = Position::new(board, color, recent);
                    teams.clear();
                    let mut played = None;
                    for q in board.empty_points().iter() {
                        if board.is_legal(q, color, Suicide::Forbidden) {
                            if q == p {
                                played = Some(teams.len());
                            }
                            teams.push(model.team(&position, q));
                        }
                    }
                    if let Some(k) = played {
                        samples.push(&teams, k);
                    }
                });
                progress.inc(1);
                samples
            })
            .collect();
        for part in parts {
            all.append(part);
        }
    }
    progress.finish_and_clear();
    all
}

/// How often the model ranks the move played first, among the first five, ...: ties
/// count against the model (a move is ranked after every move at least as strong).
pub fn evaluate(model: &Model, games: &[Record], max_positions: usize, seed: u64) -> Accuracy {
    let total: usize = games.iter().map(|r| r.moves.iter().flatten().count()).sum();
    let rate = (max_positions as f64 / total.max(1) as f64).min(1.0);
    let progress = bar(games.len() as u64, "validating");
    let parts: Vec<Accuracy> = games
        .par_iter()
        .enumerate()
        .map(|(g, record)| {
            let mut acc = Accuracy::default();
            let mut strengths: Vec<(Point, f32)> = Vec::with_capacity(362);
            replay(record, |i, board, recent, p| {
                if draw(seed, 1 << 40 | g as u64, i as u64) >= rate {
                    return;
                }
                let color = Record::color(i);
                let position = Position::new(board, color, recent);
                strengths.clear();
                for q in board.empty_points().iter() {
                    if board.is_legal(q, color, Suicide::Forbidden) {
                        strengths.push((q, model.move_strength(&position, q)));
                    }
                }
                let Some(&(_, mine)) = strengths.iter().find(|s| s.0 == p) else {
                    return;
                };
                let total: f64 = strengths.iter().map(|s| s.1 as f64).sum();
                let ahead = strengths.iter().filter(|s| s.0 != p && s.1 >= mine).count();
                acc.positions += 1;
                for (k, hit) in acc.hits.iter_mut().enumerate() {
                    if ahead <= k {
                        *hit += 1;
                    }
                }
                acc.log_likelihood += (mine as f64 / total).ln();
                if let Some(phase) = PHASES.iter().position(|&(a, b)| (a..=b).contains(&i)) {
                    acc.by_phase[phase].0 += 1;
                    acc.by_phase[phase].1 += u64::from(ahead == 0);
                }
            });
            progress.inc(1);
            acc
        })
        .collect();
    progress.finish_and_clear();
    let mut all = Accuracy::default();
    for part in &parts {
        all.add(part);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    #[test]
    fn the_validation_date_splits_only_when_it_leaves_games_on_both_sides() {
        let games = |dates: &[&str]| -> Vec<Record> {
            dates
                .iter()
                .map(|d| Record {
                    moves: Vec::new(),
                    date: Some(d.to_string()),
                    result: None,
                    source: d.to_string(),
                })
                .collect()
        };
        let dates: Vec<String> = (1..=40).map(|d| format!("2005-01-{d:02}")).collect();
        let dates: Vec<&str> = dates.iter().map(String::as_str).collect();
        let sources = |v: &[Record]| v.iter().map(|r| r.source.clone()).collect::<Vec<_>>();
        let (training, validation) = split(games(&dates), Some("2005-01-31"));
        assert_eq!((training.len(), validation.len()), (30, 10));
        assert!(
            sources(&validation)
                .iter()
                .all(|d| d.as_str() >= "2005-01-31")
        );
        // Every game after the date, or none: the last twentieth.
        for from in ["2004-12-01", "2006-01-01"] {
            let (training, validation) = split(games(&dates), Some(from));
            assert_eq!((training.len(), validation.len()), (38, 2), "{from}");
            assert_eq!(sources(&validation), ["2005-01-39", "2005-01-40"]);
        }
    }

    /// SGF text of `games` random games of 19x19, `moves` moves each, dated by game.
    fn random_games(games: usize, moves: usize) -> String {
        let mut rng = Pcg32::seed_from_u64(11);
        let mut text = String::new();
        for g in 0..games {
            let mut board = Board::new(BoardSize::NINETEEN);
            text += &format!("(;GM[1]SZ[19]DT[2005-01-{:02}]", g % 28 + 1);
            for i in 0..moves {
                let color = Record::color(i);
                let legal: Vec<Point> = board
                    .empty_points()
                    .iter()
                    .filter(|&p| board.is_legal(p, color, Suicide::Forbidden))
                    .collect();
                let p = legal[rng.random_range(0..legal.len())];
                board.play_unchecked(p, color);
                let (col, row) = BoardSize::NINETEEN.col_row(p);
                let name = if color == Color::Black { 'B' } else { 'W' };
                text += &format!(
                    ";{name}[{}{}]",
                    (b'a' + col as u8) as char,
                    (b'a' + 18 - row as u8) as char
                );
            }
            text += ")\n";
        }
        text
    }

    #[test]
    fn the_same_games_and_seed_give_the_same_model_bytes_on_any_thread_count() {
        let dir = std::env::temp_dir().join(format!("yeoul-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("games.sgf"), random_games(24, 40)).expect("write");
        std::fs::write(
            dir.join("broken.sgf"),
            "(;SZ[19];B[pd];W[pd])(;SZ[9];B[ee])",
        )
        .expect("write");
        let config = TrainConfig {
            inputs: vec![dir.clone()],
            validation_from: None,
            max_positions: 300,
            min_shape_count: 2,
            cycles: 3,
            max_validation_positions: 100,
            ..TrainConfig::default()
        };
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool")
                .install(|| train(&config).expect("trains"))
        };
        let (one, report) = run(1);
        let (two, _) = run(2);
        assert_eq!(one.to_bytes(), two.to_bytes());
        assert_eq!(report.read.games, 24);
        assert_eq!(report.read.skipped_total(), 2);
        assert_eq!(report.validation_games, 1);
        assert!(report.accuracy.positions > 0);
        let other_seed = TrainConfig {
            seed: 2,
            ..config.clone()
        };
        let (three, _) = train(&other_seed).expect("trains");
        assert_ne!(three.to_bytes(), one.to_bytes());
        assert_eq!(
            Model::from_bytes(&one.to_bytes())
                .expect("reads")
                .to_bytes(),
            one.to_bytes()
        );
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
