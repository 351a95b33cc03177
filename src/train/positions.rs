//! `yeoul positions`: training positions for the policy network and its value head. Reads
//! SGF games as `yeoul train` does (broken records skipped, counted and named) and the
//! Tygem games (`train::tygem`), holds out the games from a date on, draws positions with
//! a seed (at a rate over every stone, or a few a game far apart: `per_game`), and writes
//! each one's input planes ([`InputPlanes`], the same code that feeds the network in
//! play), the move played, the game's result and, with `--ownership`, who owns each point
//! at the end of a counted game (`train::ownership`).
//!
//! File format (little-endian), read by `training/positions.py`:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `YEOULPOS` |
//! | 4 | format version (3; 2 had no ownership, 1 no result fields) |
//! | 4 | planes |
//! | 4 | planes version ([`PLANES_VERSION`]) |
//! | 4 | board size n |
//! | 4 | bytes per record |
//! | 4 | reserved (0) |
//! | 8 | records |
//!
//! then the records: the move played (u16, row-major point `row * n + col` from the bottom
//! left), the move number in its game (u16, 0 the first move), the result for the side
//! to move (i8: 1 won, -1 lost, 0 not known or not decided on the board), flags (u8: bit
//! 0 set when the ownership is known), the margin for the side to move in half points
//! (i16, komi included; 0 when the game was not counted), the planes packed as
//! [`InputPlanes::packed`] writes them, and the final ownership packed the same way as
//! two planes (the side to move's points, then the opponent's; neither: nobody's, or not
//! known), [`ownership_len`] bytes.

use super::ownership::{Judged, OwnershipReport, final_ownership};
use super::records::{self, Ending, ReadReport, Record};
use super::tygem::{self, TygemReport};
use super::{bar, draw, replay, split};
use crate::network::planes::{InputPlanes, PLANES, PLANES_VERSION, history_of_moves};
use crate::rules::{BoardSize, Color};
use rayon::prelude::*;
use std::fmt;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"YEOULPOS";
pub const FORMAT_VERSION: u32 = 3;
pub const HEADER_BYTES: usize = 40;

/// Bytes of one record on a board of `points` points.
pub fn record_bytes(points: usize) -> usize {
    8 + InputPlanes::packed_len(points) + ownership_len(points)
}

/// Bytes of a record's final ownership (two planes of bits).
pub fn ownership_len(points: usize) -> usize {
    (2 * points).div_ceil(8)
}

/// Flag: the record's ownership is known.
pub const OWNERSHIP_KNOWN: u8 = 1;

/// What an export depends on.
#[derive(Clone, Debug)]
pub struct PositionsConfig {
    /// SGF files or folders of them.
    pub inputs: Vec<PathBuf>,
    /// Folders (or files) of the Tygem games, unzipped (`train::tygem`).
    pub tygem: Vec<PathBuf>,
    /// Positions a game, one from each of as many equal stretches of it (value
    /// positions: few a game and far apart); `None`: every stone at one rate.
    pub per_game: Option<usize>,
    /// Games dated on or after this day go to the validation file (see `train`'s split).
    pub validation_from: Option<String>,
    /// Training positions to draw (at most; all when the games hold fewer).
    pub max_positions: usize,
    pub max_validation_positions: usize,
    pub seed: u64,
    /// Judge each counted game's final board with the arbiter and write its ownership
    /// (about 60 ms a game on two cores).
    pub ownership: bool,
}

/// What an export did.
#[derive(Clone, Debug)]
pub struct PositionsReport {
    pub read: ReadReport,
    pub tygem: Option<TygemReport>,
    pub training_games: usize,
    pub validation_games: usize,
    pub training_positions: usize,
    pub validation_positions: usize,
    /// Training and validation games' final boards judged (none without `ownership`).
    pub ownership: OwnershipReport,
}

impl fmt::Display for PositionsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "records: {}", self.read)?;
        if let Some(tygem) = &self.tygem {
            writeln!(f, "tygem: {tygem}")?;
        }
        writeln!(
            f,
            "training: {} games, {} positions; validation: {} games, {} positions",
            self.training_games,
            self.training_positions,
            self.validation_games,
            self.validation_positions
        )?;
        if self.ownership.counted > 0 {
            writeln!(f, "ownership: {}", self.ownership)?;
        }
        Ok(())
    }
}

/// Why an export failed.
#[derive(Debug)]
pub enum PositionsError {
    NoGames,
    Write(String),
}

impl fmt::Display for PositionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionsError::NoGames => f.write_str("no usable 19x19 even games in the input"),
            PositionsError::Write(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for PositionsError {}

/// Reads the games and writes the training and validation positions.
pub fn export(
    config: &PositionsConfig,
    training_out: &Path,
    validation_out: &Path,
) -> Result<PositionsReport, PositionsError> {
    let files = records::sgf_files(&config.inputs);
    let reading = bar(files.len() as u64, "reading");
    let (mut games, read) = records::read_records(&files, |_| reading.inc(1));
    reading.finish_and_clear();
    log::info!("{read}");
    let tygem = (!config.tygem.is_empty()).then(|| {
        let (more, report) = tygem::read_tygem(&config.tygem);
        log::info!("tygem: {report}");
        games.extend(more);
        report
    });
    let (training, validation) = split(games, config.validation_from.as_deref());
    if training.is_empty() {
        return Err(PositionsError::NoGames);
    }
    let draw = |max, seed| match config.per_game {
        Some(k) => Draw::PerGame(k, seed),
        None => Draw::AtRate(max, seed),
    };
    let (training_positions, mut ownership) = write_positions(
        &training,
        draw(config.max_positions, config.seed),
        config.ownership,
        training_out,
        "training positions",
    )?;
    let (validation_positions, judged) = write_positions(
        &validation,
        draw(config.max_validation_positions, config.seed ^ 0x5EED),
        config.ownership,
        validation_out,
        "validation positions",
    )?;
    ownership += judged;
    Ok(PositionsReport {
        read,
        tygem,
        training_games: training.len(),
        validation_games: validation.len(),
        training_positions,
        validation_positions,
        ownership,
    })
}

/// Which positions of the games to write, with the seed of the draw.
#[derive(Clone, Copy, Debug)]
pub enum Draw {
    /// About this many positions, every stone played drawn at the same rate.
    AtRate(usize, u64),
    /// This many a game, one at random in each of as many equal stretches of its moves.
    PerGame(usize, u64),
}

impl Draw {
    /// Whether move `i` (a stone) of game `g`, of `n` moves, is drawn, at `rate` when
    /// drawing at a rate.
    fn takes(self, rate: f64, g: u64, i: usize, n: usize) -> bool {
        match self {
            Draw::AtRate(_, seed) => draw(seed, g, i as u64) < rate,
            Draw::PerGame(k, seed) => {
                // The stretch of move i, and the one move drawn in it.
                let k = k.clamp(1, n.max(1));
                let stretch = i * k / n;
                let (start, end) = (stretch * n / k, (stretch + 1) * n / k);
                let pick = start + (draw(seed, g, stretch as u64) * (end - start) as f64) as usize;
                pick == i
            }
        }
    }
}

/// The result for `color` as the file stores it: won (1), lost (-1) or unknown (0), and
/// the margin in half points when the game was counted.
fn result_for(record: &Record, color: Color) -> (i8, i16) {
    match record.result.filter(|r| r.on_the_board()) {
        None => (0, 0),
        Some(outcome) => {
            let sign = if outcome.winner == color { 1 } else { -1 };
            let halves = match outcome.ending {
                Ending::Counted(points) => (points * 2.0).round().min(i16::MAX as f32) as i16,
                _ => 0,
            };
            (sign, sign as i16 * halves)
        }
    }
}

/// Writes the positions `how` draws from `games` (stones played, not passes) to `path`,
/// with each counted game's final ownership when `judge` says so; returns how many, and
/// what judging found.
pub fn write_positions(
    games: &[Record],
    how: Draw,
    judge: bool,
    path: &Path,
    what: &str,
) -> Result<(usize, OwnershipReport), PositionsError> {
    let failed = |e: std::io::Error| PositionsError::Write(format!("{}: {e}", path.display()));
    let size = BoardSize::NINETEEN;
    let per_record = record_bytes(size.points());
    let file = std::fs::File::create(path).map_err(failed)?;
    let mut out = std::io::BufWriter::new(file);
    out.write_all(&header(size, per_record, 0))
        .map_err(failed)?;
    let stones: usize = games.iter().map(|r| r.moves.iter().flatten().count()).sum();
    let rate = match how {
        Draw::AtRate(max, _) => (max as f64 / stones.max(1) as f64).min(1.0),
        Draw::PerGame(..) => 1.0,
    };
    let progress = bar(games.len() as u64, what);
    let mut count = 0usize;
    let mut report = OwnershipReport::default();
    for (b, batch) in games.chunks(512).enumerate() {
        let game_number = |k: usize| (b * 512 + k) as u64;
        // One game at a time on all the threads: the arbiter runs its search on a pool of
        // its own, and a worker of this pool waiting for it would take up the next game's
        // judging on its own stack, and the next, until the stack overflows.
        let judged: Vec<Judged> = batch
            .iter()
            .enumerate()
            .map(|(k, record)| {
                let moves = record.moves.len();
                let stone = |i: usize| record.moves[i].is_some();
                let drawn =
                    || (0..moves).any(|i| stone(i) && how.takes(rate, game_number(k), i, moves));
                if judge && drawn() {
                    final_ownership(record, rayon::current_num_threads())
                } else {
                    Judged::NotCounted
                }
            })
            .collect();
        let parts: Vec<(usize, Vec<u8>)> = batch
            .par_iter()
            .zip(&judged)
            .enumerate()
            .map(|(k, (record, judged))| {
                let g = game_number(k);
                let mut bytes = Vec::new();
                let mut n = 0;
                let moves = record.moves.len();
                replay(record, |i, board, _, p| {
                    if !how.takes(rate, g, i, moves) {
                        return;
                    }
                    let color = Record::color(i);
                    let history = history_of_moves(&record.moves[..i]);
                    let planes = InputPlanes::encode(board, color, &history);
                    let (result, margin) = result_for(record, color);
                    let flags = match judged {
                        Judged::Owned(_) => OWNERSHIP_KNOWN,
                        _ => 0,
                    };
                    bytes.extend((size.row_major(p) as u16).to_le_bytes());
                    bytes.extend((i.min(u16::MAX as usize) as u16).to_le_bytes());
                    bytes.extend([result as u8, flags]);
                    bytes.extend(margin.to_le_bytes());
                    planes.packed(&mut bytes);
                    packed_ownership(judged, color, &mut bytes);
                    n += 1;
                });
                progress.inc(1);
                (n, bytes)
            })
            .collect();
        for ((n, bytes), judged) in parts.into_iter().zip(&judged) {
            out.write_all(&bytes).map_err(failed)?;
            count += n;
            report.add(judged);
        }
    }
    progress.finish_and_clear();
    out.seek(SeekFrom::Start(0)).map_err(failed)?;
    out.write_all(&header(size, per_record, count))
        .map_err(failed)?;
    out.flush().map_err(failed)?;
    Ok((count, report))
}

/// Appends the final ownership from `color`'s side as two planes of bits, as
/// [`InputPlanes::packed`] packs its planes (all zero when not known).
fn packed_ownership(judged: &Judged, color: Color, out: &mut Vec<u8>) {
    let start = out.len();
    let points = BoardSize::NINETEEN.points();
    out.resize(start + ownership_len(points), 0);
    let Judged::Owned(black) = judged else {
        return;
    };
    let sign = if color == Color::Black { 1 } else { -1 };
    for (q, &owner) in black.iter().enumerate() {
        let bit = match owner * sign {
            1 => q,
            -1 => points + q,
            _ => continue,
        };
        out[start + bit / 8] |= 1 << (bit % 8);
    }
}

fn header(size: BoardSize, per_record: usize, count: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_BYTES);
    h.extend(MAGIC);
    for field in [
        FORMAT_VERSION,
        PLANES as u32,
        PLANES_VERSION,
        size.get() as u32,
        per_record as u32,
        0,
    ] {
        h.extend(field.to_le_bytes());
    }
    h.extend((count as u64).to_le_bytes());
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::planes::history_of_record;
    use crate::rules::{Game, Move, Ruleset};

    #[test]
    fn exported_planes_equal_the_planes_the_engine_sees_in_play() {
        let game = records::read_record(
            "(;SZ[19]DT[2005-03-01]RE[W+3.5];B[pd];W[dp];B[pp];W[dd];B[];W[fc];B[qn];W[cf];B[dc];\
             W[cc];B[ec];W[db];B[fd];W[gc];B[eb];W[cb];B[hc])",
            "t",
        )
        .expect("a good record");
        let dir = std::env::temp_dir().join(format!("yeoul-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("all.pos");
        let all = Draw::AtRate(1000, 1);
        let (n, _) = write_positions(std::slice::from_ref(&game), all, false, &path, "test")
            .expect("written");
        assert_eq!(n, 16, "every stone played, not the pass");
        let bytes = std::fs::read(&path).expect("read back");
        let per = record_bytes(361);
        assert_eq!(bytes.len(), HEADER_BYTES + n * per);
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(u64::from_le_bytes(bytes[32..40].try_into().expect("8")), 16);
        // The same game through the engine's own game and its record's history.
        let mut played = Game::new(BoardSize::NINETEEN, Ruleset::Chinese);
        let mut records = bytes[HEADER_BYTES..].chunks_exact(per);
        for (i, mv) in game.moves.iter().enumerate() {
            let color = Record::color(i);
            if let Some(p) = mv {
                let rec = records.next().expect("a record per stone");
                let history = history_of_record(played.record(), color);
                let mut expected = Vec::new();
                InputPlanes::encode(played.board(), color, &history).packed(&mut expected);
                assert_eq!(
                    u16::from_le_bytes([rec[0], rec[1]]) as usize,
                    BoardSize::NINETEEN.row_major(*p)
                );
                assert_eq!(u16::from_le_bytes([rec[2], rec[3]]) as usize, i);
                // White won by 3.5 points: 7 half points.
                let (result, margin) = if color == Color::White {
                    (1, 7)
                } else {
                    (-1, -7)
                };
                assert_eq!((rec[4] as i8, rec[5]), (result, 0), "move {i}");
                assert_eq!(i16::from_le_bytes([rec[6], rec[7]]), margin, "move {i}");
                let planes_end = 8 + expected.len();
                assert_eq!(&rec[8..planes_end], &expected[..], "move {i}");
                assert!(
                    rec[planes_end..].iter().all(|&b| b == 0),
                    "no ownership asked"
                );
            }
            let mv = mv.map_or(Move::Pass, Move::Play);
            played.play(color, mv).expect("legal");
        }
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn broken_records_are_skipped_and_counted_and_the_export_goes_on() {
        let dir = std::env::temp_dir().join(format!("yeoul-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("good.sgf"),
            "(;SZ[19]DT[2010-01-01];B[pd];W[dp];B[pp])(;SZ[19]DT[2011-08-01];B[dd];W[pp])\
             (;SZ[9];B[ee])(;SZ[19];B[pd];W[pd])",
        )
        .expect("write");
        std::fs::write(dir.join("garbage.sgf"), [0xff, 0x00, b'(', b';', b'B']).expect("write");
        std::fs::write(dir.join("empty.sgf"), "").expect("write");
        let config = PositionsConfig {
            inputs: vec![dir.clone()],
            tygem: Vec::new(),
            per_game: None,
            validation_from: Some("2011-07-01".into()),
            max_positions: 100,
            max_validation_positions: 100,
            seed: 1,
            ownership: false,
        };
        let report = export(&config, &dir.join("t.pos"), &dir.join("v.pos")).expect("exported");
        assert_eq!(report.read.games, 2);
        assert_eq!(report.read.skipped_total(), 4, "{}", report.read);
        assert_eq!((report.training_games, report.validation_games), (1, 1));
        assert_eq!(
            (report.training_positions, report.validation_positions),
            (3, 2)
        );
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn per_game_draws_one_position_in_each_stretch_and_unknown_results_are_zero() {
        let moves: String = (0..60)
            .map(|k| {
                let (c, x, y) = (if k % 2 == 0 { 'B' } else { 'W' }, k % 19, k / 19);
                format!(
                    ";{c}[{}{}]",
                    (b'a' + x as u8) as char,
                    (b'a' + y as u8) as char
                )
            })
            .collect();
        let game = records::read_record(&format!("(;SZ[19]RE[B+T]{moves})"), "t").expect("ok");
        let dir = std::env::temp_dir().join(format!("yeoul-per-game-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("value.pos");
        for seed in 1..=20 {
            let how = Draw::PerGame(4, seed);
            let (n, _) =
                write_positions(std::slice::from_ref(&game), how, false, &path, "test").unwrap();
            assert_eq!(n, 4);
            let bytes = std::fs::read(&path).expect("read back");
            let numbers: Vec<usize> = bytes[HEADER_BYTES..]
                .chunks_exact(record_bytes(361))
                .map(|r| {
                    // Lost on time: the board did not decide it.
                    assert_eq!(&r[4..8], &[0, 0, 0, 0]);
                    u16::from_le_bytes([r[2], r[3]]) as usize
                })
                .collect();
            let stretches: Vec<usize> = numbers.iter().map(|i| i * 4 / 60).collect();
            assert_eq!(stretches, [0, 1, 2, 3], "seed {seed}: {numbers:?}");
        }
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn a_counted_games_ownership_is_written_from_the_side_to_moves_view() {
        let game = crate::train::ownership::tests::halves("B+12.5");
        let dir = std::env::temp_dir().join(format!("yeoul-owned-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("owned.pos");
        let (n, report) = write_positions(
            std::slice::from_ref(&game),
            Draw::PerGame(2, 1),
            true,
            &path,
            "t",
        )
        .expect("written");
        assert_eq!((n, report.counted, report.owned), (2, 1, 1));
        let bytes = std::fs::read(&path).expect("read back");
        let points = BoardSize::NINETEEN.points();
        let a1 = 0; // row-major from the bottom left: Black's half
        for rec in bytes[HEADER_BYTES..].chunks_exact(record_bytes(points)) {
            let black_to_move = u16::from_le_bytes([rec[2], rec[3]]).is_multiple_of(2);
            assert_eq!(rec[5], OWNERSHIP_KNOWN);
            let owned = &rec[rec.len() - ownership_len(points)..];
            let bit = |b: usize| owned[b / 8] >> (b % 8) & 1 == 1;
            let (mine, theirs) = (bit(a1), bit(points + a1));
            assert_eq!((mine, theirs), (black_to_move, !black_to_move));
            let ones: u32 = owned.iter().map(|b| b.count_ones()).sum();
            assert_eq!(ones, 361, "every point owned by one side");
        }
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
