//! Boards from and to ASCII diagrams: `X` black, `O` white, `.` (or `+`) empty, top row
//! first, spaces optional. Used by tests and `showboard`.

use super::board::{Board, Cell};
use super::color::Color;
use super::point::BoardSize;
use std::fmt;

/// Why a diagram could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagramError {
    /// Not square, or a size outside 2..=19.
    BadShape,
    BadCharacter(char),
    /// A chain with no liberty: no game reaches such a position.
    ChainWithoutLiberties,
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::BadShape => f.write_str("the diagram is not a square of 2 to 19 rows"),
            DiagramError::BadCharacter(c) => write!(f, "unexpected character {c:?} in a diagram"),
            DiagramError::ChainWithoutLiberties => {
                f.write_str("a chain in the diagram has no liberty")
            }
        }
    }
}

impl std::error::Error for DiagramError {}

/// Reads a diagram into a board (no ko, no captures).
pub fn parse_diagram(text: &str) -> Result<Board, DiagramError> {
    let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
    for line in text.lines() {
        let mut row = Vec::new();
        for ch in line.chars().filter(|c| !c.is_whitespace()) {
            row.push(match ch {
                'X' | 'x' | '#' | '@' => Some(Color::Black),
                'O' | 'o' => Some(Color::White),
                '.' | '+' => None,
                other => return Err(DiagramError::BadCharacter(other)),
            });
        }
        if !row.is_empty() {
            rows.push(row);
        }
    }
    let size = BoardSize::new(rows.len()).map_err(|_| DiagramError::BadShape)?;
    if rows.iter().any(|r| r.len() != size.get()) {
        return Err(DiagramError::BadShape);
    }
    let mut board = Board::new(size);
    for (top, row) in rows.iter().enumerate() {
        for (col, cell) in row.iter().enumerate() {
            if let Some(color) = cell {
                let p = size
                    .point(col, size.get() - 1 - top)
                    .map_err(|_| DiagramError::BadShape)?;
                board
                    .place_setup_stone(p, *color)
                    .map_err(|_| DiagramError::BadShape)?;
            }
        }
    }
    if board.has_chain_without_liberties() {
        return Err(DiagramError::ChainWithoutLiberties);
    }
    Ok(board)
}

/// The board as a diagram, top row first, one space between points.
pub fn to_diagram(board: &Board) -> String {
    let n = board.size().get();
    let mut out = String::with_capacity(2 * n * n + n);
    for row in (0..n).rev() {
        for col in 0..n {
            let p = board.size().point(col, row).expect("on board");
            out.push(match board.cell(p) {
                Cell::Stone(Color::Black) => 'X',
                Cell::Stone(Color::White) => 'O',
                _ => '.',
            });
            if col + 1 < n {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagram_reads_back_as_written() {
        let text = "X O .\n. X O\n. . X\n";
        let board = parse_diagram(text).unwrap();
        assert_eq!(to_diagram(&board), text);
        let a3 = board.size().parse_point("A3").unwrap();
        assert_eq!(board.color_at(a3), Some(Color::Black));
        board.check_invariants().unwrap();
    }

    #[test]
    fn malformed_diagrams_are_refused() {
        assert_eq!(parse_diagram("X ."), Err(DiagramError::BadShape));
        assert_eq!(
            parse_diagram("X .\n. Z"),
            Err(DiagramError::BadCharacter('Z'))
        );
        assert_eq!(
            parse_diagram("X O\nO ."),
            Err(DiagramError::ChainWithoutLiberties)
        );
    }
}
