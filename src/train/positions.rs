//! `yeoul positions`: training positions for the policy network. Reads SGF games as
//! `yeoul train` does (broken records skipped, counted and named), holds out the games
//! from a date on, draws positions with a seed, and writes each one's input planes
//! ([`InputPlanes`], the same code that feeds the network in play) and the move played.
//!
//! File format (little-endian), read by `training/positions.py`:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `YEOULPOS` |
//! | 4 | format version (1) |
//! | 4 | planes |
//! | 4 | planes version ([`PLANES_VERSION`]) |
//! | 4 | board size n |
//! | 4 | bytes per record |
//! | 4 | reserved (0) |
//! | 8 | records |
//!
//! then the records: the move played (u16, row-major point `row * n + col` from the bottom
//! left), the move number in its game (u16, 0 the first move), and the planes packed as
//! [`InputPlanes::packed`] writes them.

use super::records::{self, ReadReport, Record};
use super::{bar, draw, replay, split};
use crate::network::planes::{InputPlanes, PLANES, PLANES_VERSION, history_of_moves};
use crate::rules::BoardSize;
use rayon::prelude::*;
use std::fmt;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"YEOULPOS";
pub const FORMAT_VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 40;

/// Bytes of one record on a board of `points` points.
pub fn record_bytes(points: usize) -> usize {
    4 + InputPlanes::packed_len(points)
}

/// What an export depends on.
#[derive(Clone, Debug)]
pub struct PositionsConfig {
    pub inputs: Vec<PathBuf>,
    /// Games dated on or after this day go to the validation file (see `train`'s split).
    pub validation_from: Option<String>,
    /// Training positions to draw (at most; all when the games hold fewer).
    pub max_positions: usize,
    pub max_validation_positions: usize,
    pub seed: u64,
}

/// What an export did.
#[derive(Clone, Debug)]
pub struct PositionsReport {
    pub read: ReadReport,
    pub training_games: usize,
    pub validation_games: usize,
    pub training_positions: usize,
    pub validation_positions: usize,
}

impl fmt::Display for PositionsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "records: {}", self.read)?;
        writeln!(
            f,
            "training: {} games, {} positions; validation: {} games, {} positions",
            self.training_games,
            self.training_positions,
            self.validation_games,
            self.validation_positions
        )
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
    let (games, read) = records::read_records(&files, |_| reading.inc(1));
    reading.finish_and_clear();
    log::info!("{read}");
    let (training, validation) = split(games, config.validation_from.as_deref());
    if training.is_empty() {
        return Err(PositionsError::NoGames);
    }
    let training_positions = write_positions(
        &training,
        config.max_positions,
        config.seed,
        training_out,
        "training positions",
    )?;
    let validation_positions = write_positions(
        &validation,
        config.max_validation_positions,
        config.seed ^ 0x5EED,
        validation_out,
        "validation positions",
    )?;
    Ok(PositionsReport {
        read,
        training_games: training.len(),
        validation_games: validation.len(),
        training_positions,
        validation_positions,
    })
}

/// Writes about `max_positions` positions drawn from `games` (stones played, not passes)
/// to `path`; returns how many.
pub fn write_positions(
    games: &[Record],
    max_positions: usize,
    seed: u64,
    path: &Path,
    what: &str,
) -> Result<usize, PositionsError> {
    let failed = |e: std::io::Error| PositionsError::Write(format!("{}: {e}", path.display()));
    let size = BoardSize::NINETEEN;
    let per_record = record_bytes(size.points());
    let file = std::fs::File::create(path).map_err(failed)?;
    let mut out = std::io::BufWriter::new(file);
    out.write_all(&header(size, per_record, 0))
        .map_err(failed)?;
    let stones: usize = games.iter().map(|r| r.moves.iter().flatten().count()).sum();
    let rate = (max_positions as f64 / stones.max(1) as f64).min(1.0);
    let progress = bar(games.len() as u64, what);
    let mut count = 0usize;
    for (b, batch) in games.chunks(512).enumerate() {
        let parts: Vec<(usize, Vec<u8>)> = batch
            .par_iter()
            .enumerate()
            .map(|(k, record)| {
                let g = (b * 512 + k) as u64;
                let mut bytes = Vec::new();
                let mut n = 0;
                replay(record, |i, board, _, p| {
                    if draw(seed, g, i as u64) >= rate {
                        return;
                    }
                    let color = Record::color(i);
                    let history = history_of_moves(&record.moves[..i]);
                    let planes = InputPlanes::encode(board, color, &history);
                    bytes.extend((size.row_major(p) as u16).to_le_bytes());
                    bytes.extend((i.min(u16::MAX as usize) as u16).to_le_bytes());
                    planes.packed(&mut bytes);
                    n += 1;
                });
                progress.inc(1);
                (n, bytes)
            })
            .collect();
        for (n, bytes) in parts {
            out.write_all(&bytes).map_err(failed)?;
            count += n;
        }
    }
    progress.finish_and_clear();
    out.seek(SeekFrom::Start(0)).map_err(failed)?;
    out.write_all(&header(size, per_record, count))
        .map_err(failed)?;
    out.flush().map_err(failed)?;
    Ok(count)
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
            "(;SZ[19]DT[2005-03-01];B[pd];W[dp];B[pp];W[dd];B[];W[fc];B[qn];W[cf];B[dc];W[cc];\
             B[ec];W[db];B[fd];W[gc];B[eb];W[cb];B[hc])",
            "t",
        )
        .expect("a good record");
        let dir = std::env::temp_dir().join(format!("yeoul-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("all.pos");
        let n =
            write_positions(std::slice::from_ref(&game), 1000, 1, &path, "test").expect("written");
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
                assert_eq!(&rec[4..], &expected[..], "move {i}");
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
            validation_from: Some("2011-07-01".into()),
            max_positions: 100,
            max_validation_positions: 100,
            seed: 1,
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
}
