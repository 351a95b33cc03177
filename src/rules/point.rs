//! Board sizes, points and moves.
//!
//! A [`Point`] is an index into a mailbox of `(n + 2)` rows of stride `n + 1`: one guard
//! column per row and a guard row above and below, so the four neighbours and four
//! diagonals of every on-board point are valid indices without a branch. The same index
//! is the bit position in a [`crate::rules::Bitboard`].

use std::fmt;

/// Smallest supported board.
pub const MIN_SIZE: usize = 2;
/// Largest supported board.
pub const MAX_SIZE: usize = 19;
/// Mailbox cells needed for the largest board: `(n + 2) * (n + 1) + 1`.
pub const CELLS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;
/// On-board points of the largest board.
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// A board size refused because it is outside 2..=19.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadBoardSize(pub usize);

impl fmt::Display for BadBoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {} is outside {MIN_SIZE}..={MAX_SIZE}",
            self.0
        )
    }
}

impl std::error::Error for BadBoardSize {}

/// Coordinates that are not on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffBoard;

impl fmt::Display for OffBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("point is off the board")
    }
}

impl std::error::Error for OffBoard {}

/// The side length of a square board, validated to 2..=19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize(u8);

impl BoardSize {
    /// 9x9.
    pub const NINE: BoardSize = BoardSize(9);
    /// 13x13.
    pub const THIRTEEN: BoardSize = BoardSize(13);
    /// 19x19.
    pub const NINETEEN: BoardSize = BoardSize(19);

    pub fn new(n: usize) -> Result<BoardSize, BadBoardSize> {
        if (MIN_SIZE..=MAX_SIZE).contains(&n) {
            Ok(BoardSize(n as u8))
        } else {
            Err(BadBoardSize(n))
        }
    }

    /// The side length.
    #[inline]
    pub fn get(self) -> usize {
        self.0 as usize
    }

    /// Distance between vertically adjacent points in the mailbox.
    #[inline]
    pub fn stride(self) -> usize {
        self.get() + 1
    }

    /// Number of points on the board.
    #[inline]
    pub fn points(self) -> usize {
        self.get() * self.get()
    }

    /// Mailbox cells this size uses (indices `0..cells()`).
    pub fn cells(self) -> usize {
        (self.get() + 2) * self.stride() + 1
    }

    /// The point at column `col` (0 = A) and row `row` (0 = the bottom row).
    pub fn point(self, col: usize, row: usize) -> Result<Point, OffBoard> {
        let n = self.get();
        if col < n && row < n {
            Ok(Point(((row + 1) * self.stride() + col + 1) as u16))
        } else {
            Err(OffBoard)
        }
    }

    /// Whether `p` is an on-board point of this size.
    #[inline]
    pub fn contains(self, p: Point) -> bool {
        let i = p.index();
        let w = self.stride();
        !i.is_multiple_of(w) && (1..=self.get()).contains(&(i / w))
    }

    /// Column and row (0-based, from the bottom left) of an on-board point.
    pub fn col_row(self, p: Point) -> (usize, usize) {
        let w = self.stride();
        (p.index() % w - 1, p.index() / w - 1)
    }

    /// The index of `p` in a per-point vector laid out like `all_points`.
    pub fn row_major(self, p: Point) -> usize {
        let (col, row) = self.col_row(p);
        row * self.get() + col
    }

    /// All on-board points, row by row from the bottom.
    pub fn all_points(self) -> impl Iterator<Item = Point> {
        let n = self.get();
        (0..n).flat_map(move |row| (0..n).map(move |col| self.point(col, row).expect("in range")))
    }

    /// The point's name in GTP's notation (`A1`, `T19`; the letter I is skipped).
    pub fn name(self, p: Point) -> String {
        let (col, row) = self.col_row(p);
        format!("{}{}", column_letter(col), row + 1)
    }

    /// Parses a GTP-style name (`D4`, `d4`) of a point of this size.
    pub fn parse_point(self, text: &str) -> Result<Point, OffBoard> {
        let mut chars = text.chars();
        let letter = chars.next().ok_or(OffBoard)?.to_ascii_uppercase();
        let col = column_index(letter).ok_or(OffBoard)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(OffBoard);
        }
        let row: usize = digits.parse().map_err(|_| OffBoard)?;
        if row == 0 {
            return Err(OffBoard);
        }
        self.point(col, row - 1)
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// GTP's column letters: A..T without I.
fn column_letter(col: usize) -> char {
    let c = b'A' + col as u8;
    (if c >= b'I' { c + 1 } else { c }) as char
}

fn column_index(letter: char) -> Option<usize> {
    match letter {
        'A'..='H' => Some(letter as usize - 'A' as usize),
        'J'..='Z' => Some(letter as usize - 'A' as usize - 1),
        _ => None,
    }
}

/// An intersection, as a mailbox index. Only meaningful with the [`BoardSize`] that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The mailbox index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The point with mailbox index `i`; callers check it against a size.
    #[inline]
    pub(crate) fn from_index(i: usize) -> Point {
        debug_assert!(i < CELLS);
        Point(i as u16)
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Point),
    Pass,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_outside_two_to_nineteen_are_refused() {
        assert_eq!(BoardSize::new(1), Err(BadBoardSize(1)));
        assert_eq!(BoardSize::new(20), Err(BadBoardSize(20)));
        assert!(BoardSize::new(2).is_ok());
        assert!(BoardSize::new(19).is_ok());
    }

    #[test]
    fn point_names_skip_the_letter_i() {
        let s = BoardSize::NINETEEN;
        assert_eq!(s.name(s.point(0, 0).unwrap()), "A1");
        assert_eq!(s.name(s.point(8, 0).unwrap()), "J1");
        assert_eq!(s.name(s.point(18, 18).unwrap()), "T19");
        assert_eq!(s.parse_point("j1"), s.point(8, 0));
        assert_eq!(s.parse_point("I5"), Err(OffBoard));
        assert_eq!(s.parse_point("A20"), Err(OffBoard));
        assert_eq!(s.parse_point("A0"), Err(OffBoard));
        assert_eq!(BoardSize::NINE.parse_point("K1"), Err(OffBoard));
    }

    #[test]
    fn contains_accepts_exactly_the_points_of_its_size() {
        for n in MIN_SIZE..=MAX_SIZE {
            let size = BoardSize::new(n).unwrap();
            let on: Vec<usize> = size.all_points().map(Point::index).collect();
            assert_eq!(on.len(), n * n);
            for i in 0..CELLS {
                assert_eq!(
                    size.contains(Point(i as u16)),
                    on.contains(&i),
                    "size {n} index {i}"
                );
            }
            assert!(size.cells() <= CELLS);
        }
    }
}
