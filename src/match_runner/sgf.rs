//! SGF (FF[4]) records of match games.

use super::GameRecord;
use crate::rules::{BoardSize, Color, Move, Point, Ruleset};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `game-001.sgf` for game 1.
pub fn sgf_file_name(number: usize) -> String {
    format!("game-{number:03}.sgf")
}

/// Writes the game as `dir/game-NNN.sgf` (creating `dir`), returning the path.
pub(super) fn write_game(dir: &Path, record: &GameRecord) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(sgf_file_name(record.number));
    std::fs::write(&path, game_to_sgf(record))?;
    Ok(path)
}

/// SGF's name for a rule set (`RU`).
fn sgf_rules(ruleset: Ruleset) -> &'static str {
    match ruleset {
        Ruleset::Chinese => "Chinese",
        Ruleset::Aga => "AGA",
        Ruleset::NewZealand => "NZ",
        Ruleset::TrompTaylor => "Tromp-Taylor",
        Ruleset::Japanese => "Japanese",
        Ruleset::Korean => "Korean",
    }
}

/// A property value with `\` and `]` escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// SGF coordinates: column letter then row letter, rows counted from the top.
fn sgf_point(size: BoardSize, p: Point) -> String {
    let (col, row) = size.col_row(p);
    let top_row = size.get() - 1 - row;
    let letter = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", letter(col), letter(top_row))
}

/// The game as an SGF text: root properties (FF GM CA AP SZ KM RU PB PW RE, GN, and GC
/// with how the game ended and any errors), then one node per move, a pass as `B[]`.
pub fn game_to_sgf(record: &GameRecord) -> String {
    let mut sgf = String::new();
    let _ = write!(
        sgf,
        "(;FF[4]GM[1]CA[UTF-8]AP[yeoul:{}]SZ[{}]KM[{}]RU[{}]\nPB[{}]PW[{}]RE[{}]GN[game {}]",
        env!("CARGO_PKG_VERSION"),
        record.size,
        record.komi,
        sgf_rules(record.ruleset),
        escape(&record.black),
        escape(&record.white),
        record.result.sgf_result(),
        record.number,
    );
    let mut comment = vec![format!("Result: {}", record.result)];
    if let Some(scorer) = &record.scorer {
        comment.push(format!("Counted by {scorer}"));
    }
    comment.extend(record.errors.iter().cloned());
    let _ = write!(sgf, "\nGC[{}]", escape(&comment.join("\n")));
    for (i, &(color, mv)) in record.moves.iter().enumerate() {
        if i % 10 == 0 {
            sgf.push('\n');
        }
        let letter = match color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let point = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(record.size, p),
        };
        let _ = write!(sgf, ";{letter}[{point}]");
    }
    sgf.push_str(")\n");
    sgf
}
