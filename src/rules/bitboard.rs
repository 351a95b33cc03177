//! A fixed-capacity set of points, one bit per mailbox index.
//!
//! Shifting by 1 or by the stride moves every point to a neighbour; neighbours that fall
//! on a guard cell are removed by one AND with the board mask, so there are no
//! per-direction edge masks.

use super::point::{BoardSize, CELLS, Point};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// Words needed for every mailbox index of the largest board.
pub const WORDS: usize = CELLS.div_ceil(64);

#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard([u64; WORDS]);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);

    /// Every on-board point of `size`.
    pub fn on_board(size: BoardSize) -> Bitboard {
        size.all_points().collect()
    }

    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.0[p.index() / 64] |= 1 << (p.index() % 64);
    }

    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0[p.index() / 64] &= !(1 << (p.index() % 64));
    }

    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.0[p.index() / 64] >> (p.index() % 64) & 1 != 0
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The points in increasing index order.
    pub fn iter(&self) -> BitIter {
        BitIter {
            words: self.0,
            word: 0,
        }
    }

    /// The maximal connected subsets (orthogonal adjacency), in order of their lowest
    /// point. Allocates: for end-of-game analysis, not for hot loops.
    pub fn components(&self, size: BoardSize) -> Vec<Bitboard> {
        let mut parts = Vec::new();
        let mut left = *self;
        while let Some(p) = left.iter().next() {
            let part = Bitboard::flood(Bitboard::from_iter([p]), left, size);
            left &= !part;
            parts.push(part);
        }
        parts
    }

    /// The points' GTP names, sorted by column, then row (`A1 A2 B1`), space-separated:
    /// GNU Go's order for vertex lists.
    pub fn vertex_names(&self, size: BoardSize) -> String {
        let mut points: Vec<Point> = self.iter().collect();
        points.sort_by_key(|&p| size.col_row(p));
        points
            .into_iter()
            .map(|p| size.name(p))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Every bit moved `k` places towards higher indices (0 < k < 64).
    #[inline]
    fn shifted_up(&self, k: u32) -> Bitboard {
        let w = &self.0;
        Bitboard(std::array::from_fn(|i| {
            let carry = if i > 0 { w[i - 1] >> (64 - k) } else { 0 };
            (w[i] << k) | carry
        }))
    }

    /// Every bit moved `k` places towards lower indices (0 < k < 64).
    #[inline]
    fn shifted_down(&self, k: u32) -> Bitboard {
        let w = &self.0;
        Bitboard(std::array::from_fn(|i| {
            let carry = if i + 1 < WORDS {
                w[i + 1] << (64 - k)
            } else {
                0
            };
            (w[i] >> k) | carry
        }))
    }

    /// The points orthogonally adjacent to some point of `self`, within `on_board`
    /// (which may include `self`'s own points).
    #[inline]
    pub fn neighbours(&self, size: BoardSize, on_board: &Bitboard) -> Bitboard {
        let w = size.stride() as u32;
        (self.shifted_up(1) | self.shifted_down(1) | self.shifted_up(w) | self.shifted_down(w))
            & *on_board
    }

    /// The points of `within` connected to `seed` through `within` (the seed is kept only
    /// where it lies inside `within`).
    pub fn flood(seed: Bitboard, within: Bitboard, size: BoardSize) -> Bitboard {
        let mut filled = seed & within;
        loop {
            let grown = (filled | filled.neighbours(size, &within)) & within;
            if grown == filled {
                return filled;
            }
            filled = grown;
        }
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for p in iter {
            b.insert(p);
        }
        b
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Point::index))
            .finish()
    }
}

macro_rules! word_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(std::array::from_fn(|i| self.0[i] $op rhs.0[i]))
            }
        }
    };
}
word_op!(BitAnd, bitand, &);
word_op!(BitOr, bitor, |);
word_op!(BitXor, bitxor, ^);

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        *self = *self | rhs;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement over all mailbox indices: AND it with a board mask.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(self.0.map(|w| !w))
    }
}

/// Iterator over the points of a [`Bitboard`].
pub struct BitIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitIter {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Point::from_index(
                    self.word * 64 + w.trailing_zeros() as usize,
                ));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_split_a_set_into_its_connected_parts_and_names_go_by_column() {
        let size = BoardSize::new(5).unwrap();
        let at = |name: &str| size.parse_point(name).unwrap();
        // A1-A2-B2 touch and B1 joins them; C3 touches nothing orthogonally; D4-D5 touch.
        let set: Bitboard = ["A1", "A2", "B2", "C3", "D4", "D5", "B1"]
            .into_iter()
            .map(at)
            .collect();
        let parts = set.components(size);
        let names: Vec<String> = parts.iter().map(|p| p.vertex_names(size)).collect();
        assert_eq!(names, ["A1 A2 B1 B2", "C3", "D4 D5"]);
        assert_eq!(parts.iter().map(|p| p.count()).sum::<u32>(), set.count());
        assert!(Bitboard::EMPTY.components(size).is_empty());
    }

    #[test]
    fn neighbours_never_leave_the_board_or_wrap_around_rows() {
        for n in 2..=19 {
            let size = BoardSize::new(n).unwrap();
            let on = Bitboard::on_board(size);
            for p in size.all_points() {
                let (c, r) = size.col_row(p);
                let mut expected = Bitboard::EMPTY;
                for (dc, dr) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                    let (nc, nr) = (c as i32 + dc, r as i32 + dr);
                    if let (Ok(nc), Ok(nr)) = (usize::try_from(nc), usize::try_from(nr))
                        && let Ok(q) = size.point(nc, nr)
                    {
                        expected.insert(q);
                    }
                }
                let single: Bitboard = [p].into_iter().collect();
                assert_eq!(
                    single.neighbours(size, &on),
                    expected,
                    "size {n} point {p:?}"
                );
            }
        }
    }

    #[test]
    fn flood_fills_a_connected_region_only() {
        let size = BoardSize::new(5).unwrap();
        let on = Bitboard::on_board(size);
        // A wall on column C splits the board into two regions.
        let wall: Bitboard = (0..5).map(|r| size.point(2, r).unwrap()).collect();
        let seed: Bitboard = [size.point(0, 0).unwrap()].into_iter().collect();
        let left = Bitboard::flood(seed, on & !wall, size);
        assert_eq!(left.count(), 10);
        assert!(left.iter().all(|p| size.col_row(p).0 < 2));
    }
}
