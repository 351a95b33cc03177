//! SGF (FF[4]) records of match games.

use super::GameRecord;
use crate::sgf::{self, Header};
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

/// The game as an SGF text: the root properties of [`crate::sgf::write_game`] plus the
/// players, the result, the game number and a GC comment with how the game ended and any
/// errors.
pub fn game_to_sgf(record: &GameRecord) -> String {
    let mut comment = vec![format!("Result: {}", record.result)];
    if let Some(scorer) = &record.scorer {
        comment.push(format!("Counted by {scorer}"));
    }
    comment.extend(record.errors.iter().cloned());
    let header = Header {
        black: Some(record.black.clone()),
        white: Some(record.white.clone()),
        result: Some(record.result.sgf_result()),
        game_name: Some(format!("game {}", record.number)),
        comment: Some(comment.join("\n")),
    };
    sgf::write_game(
        record.size,
        record.komi,
        record.ruleset,
        sgf::Start {
            handicap: &record.handicap,
            setup: None,
        },
        &record.moves,
        &header,
    )
}
