//! Move features after Coulom (2007): what a candidate move does (captures, escapes,
//! ataris, self-ataris, with ladders read out), where it is (distance to the last two
//! moves and to the edge), and the shapes around it ([`super::shape`]).
//!
//! A [`Position`] is analysed once (the chains' liberties, the board seen from the mover
//! in a padded grid); each candidate's features are then a few loads and, for the rare
//! tactical moves, a ladder read.

use super::ladder;
use super::shape::{
    GRID_CELLS, GRID_WIDTH, Geometry, MARGIN, NEIGHBOUR_EMPTY, NEIGHBOUR_OFF, OFF, OPPONENT, OWN,
    POINTS, RING_END, neighbour_code, tactical_code,
};
use crate::rules::{Bitboard, Board, CELLS, Cell, Color, Move, Point};

/// The feature groups whose levels are fixed (one byte each in a team).
pub const LEVEL_GROUPS: usize = 7;
/// Levels of each fixed group, in group order.
pub const LEVELS: [usize; LEVEL_GROUPS] = [6, 6, 4, 3, 16, 16, 4];
/// A group that does not apply to a move.
pub const NONE: u8 = u8::MAX;

pub const CAPTURE: usize = 0;
pub const ESCAPE: usize = 1;
pub const ATARI: usize = 2;
pub const SELF_ATARI: usize = 3;
pub const DISTANCE_LAST: usize = 4;
pub const DISTANCE_BEFORE: usize = 5;
pub const LINE: usize = 6;

/// Capture levels, first match wins.
pub mod capture {
    /// Takes a ko.
    pub const KO: u8 = 0;
    /// Captures a chain next to an own chain in atari (saves it).
    pub const SAVES: u8 = 1;
    /// Captures the last move's chain, one stone or more.
    pub const LAST_ONE: u8 = 2;
    pub const LAST_MORE: u8 = 3;
    /// Any other capture, one stone or more.
    pub const OTHER_ONE: u8 = 4;
    pub const OTHER_MORE: u8 = 5;
}

/// Escape levels: extending an own chain in atari that the last move put there (`NEW_*`)
/// or that was in atari before (`OLD_*`), to three liberties or more, to two that hold, or
/// to two from which a ladder captures it.
pub mod escape {
    pub const NEW_FREE: u8 = 0;
    pub const NEW_SAFE: u8 = 1;
    pub const NEW_LADDER: u8 = 2;
    pub const OLD_FREE: u8 = 3;
    pub const OLD_SAFE: u8 = 4;
    pub const OLD_LADDER: u8 = 5;
}

/// Atari levels, first match wins.
pub mod atari {
    /// The chain put in atari is captured in a ladder.
    pub const LADDER: u8 = 0;
    /// Two chains at once.
    pub const DOUBLE: u8 = 1;
    /// While a ko is on the board (a ko threat, often).
    pub const KO: u8 = 2;
    pub const OTHER: u8 = 3;
}

/// The two moves before the candidate: the opponent's last and the mover's own before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    pub last: Option<Point>,
    pub before: Option<Point>,
}

impl Recent {
    /// The recent moves of a game record for `color` to move, as training reads them
    /// from alternating records: the opponent's last stone, and the mover's own stone
    /// before it (also when the opponent's last move was a pass). None after a record
    /// where `color` moved last (stones set up out of turn).
    pub fn from_record(record: &[(Color, Move)], color: Color) -> Recent {
        if record.last().is_some_and(|&(c, _)| c == color) {
            return Recent::default();
        }
        let stone = |back: usize, by: Color| match record.len().checked_sub(back) {
            Some(k) => match record[k] {
                (c, Move::Play(p)) if c == by => Some(p),
                _ => None,
            },
            None => None,
        };
        Recent {
            last: stone(1, color.opponent()),
            before: stone(2, color),
        }
    }
}

/// One position analysed for the side to move.
pub struct Position<'a> {
    board: &'a Board,
    color: Color,
    recent: Recent,
    geometry: &'static Geometry,
    /// Every point seen from the mover, with `MARGIN` off-board points on every side.
    grid: [u8; GRID_CELLS],
    /// Liberties of the chain through each stone, capped at 3 (0 on empty points).
    liberties: [u8; CELLS],
    own_in_atari: Bitboard,
    ko_on_board: bool,
}

impl<'a> Position<'a> {
    pub fn new(board: &'a Board, color: Color, recent: Recent) -> Position<'a> {
        let size = board.size();
        let mut position = Position {
            board,
            color,
            recent,
            geometry: Geometry::get(),
            grid: [OFF; GRID_CELLS],
            liberties: [0; CELLS],
            own_in_atari: Bitboard::EMPTY,
            ko_on_board: board.ko().is_some(),
        };
        for p in size.all_points() {
            position.grid[grid_index(board, p)] = match board.cell(p) {
                Cell::Stone(c) if c == color => OWN,
                Cell::Stone(_) => OPPONENT,
                _ => super::shape::EMPTY,
            };
        }
        let on = board.on_board();
        let empty = board.empty_points();
        let mut seen = Bitboard::EMPTY;
        for p in (board.stones(Color::Black) | board.stones(Color::White)).iter() {
            if seen.contains(p) {
                continue;
            }
            let chain = board.chain_stones(p);
            seen |= chain;
            let count = (chain.neighbours(size, &on) & empty).count().min(3) as u8;
            for s in chain.iter() {
                position.liberties[s.index()] = count;
            }
            if count == 1 && board.cell(p) == Cell::Stone(color) {
                position.own_in_atari |= chain;
            }
        }
        position
    }

    /// The fixed-group levels of a legal move at `p` ([`NONE`] where a group does not apply).
    pub fn levels(&self, p: Point) -> [u8; LEVEL_GROUPS] {
        let mut levels = [NONE; LEVEL_GROUPS];
        let board = self.board;
        let me = self.color;
        let them = me.opponent();
        let mut captures = [Point::from_index(0); 4];
        let mut captured_chains = 0;
        let mut captured_stones = 0;
        let mut ataris = [Point::from_index(0); 4];
        let mut atari_count = 0;
        let mut escaping: Option<Point> = None;
        let mut own_neighbours = false;
        let mut open_neighbours = false;
        for q in board.neighbour_points(p) {
            match board.cell(q) {
                Cell::Stone(c) if c == them => {
                    let libs = self.liberties[q.index()];
                    let chain = board.chain_stones(q);
                    if libs == 1 {
                        if !captures[..captured_chains]
                            .iter()
                            .any(|&x| chain.contains(x))
                        {
                            captures[captured_chains] = q;
                            captured_chains += 1;
                            captured_stones += chain.count();
                        }
                    } else if libs == 2 && !ataris[..atari_count].iter().any(|&x| chain.contains(x))
                    {
                        ataris[atari_count] = q;
                        atari_count += 1;
                    }
                }
                Cell::Stone(_) => {
                    own_neighbours = true;
                    if self.liberties[q.index()] == 1 {
                        escaping = Some(q);
                    }
                }
                Cell::Empty => open_neighbours = true,
                Cell::Off => {}
            }
        }
        if captured_chains > 0 {
            levels[CAPTURE] = self.capture_level(
                &captures[..captured_chains],
                captured_stones,
                own_neighbours || open_neighbours,
            );
        }
        let liberties_after = board.liberties_after(p, me, 3);
        if let Some(chain) = escaping
            && liberties_after >= 2
        {
            let new = self.recent.last.is_some_and(|last| {
                board.cell(last) == Cell::Stone(them)
                    && !(board.chain_stones(chain) & neighbours_of(board, last)).is_empty()
            });
            let outcome = if liberties_after >= 3 {
                0
            } else {
                let mut after = *board;
                after.play_unchecked(p, me);
                if ladder::ladder_from_two_liberties(&after, p) {
                    2
                } else {
                    1
                }
            };
            levels[ESCAPE] = if new { outcome } else { 3 + outcome };
        }
        if captured_chains == 0 && liberties_after <= 1 {
            let mut stones = 1;
            let mut counted = Bitboard::EMPTY;
            for q in board.neighbour_points(p) {
                if board.cell(q) == Cell::Stone(me) && !counted.contains(q) {
                    let chain = board.chain_stones(q);
                    counted |= chain;
                    stones += chain.count();
                }
            }
            levels[SELF_ATARI] = (stones.min(3) - 1) as u8;
        } else if atari_count > 0 {
            levels[ATARI] = self.atari_level(p, &ataris[..atari_count]);
        }
        let size = board.size();
        let (col, row) = size.col_row(p);
        let distance_level = |q: Option<Point>| match q {
            Some(q) if board.cell(q) != Cell::Empty => {
                let (c, r) = size.col_row(q);
                let d = super::shape::distance(col as i32 - c as i32, row as i32 - r as i32);
                (d.clamp(2, 17) - 2) as u8
            }
            _ => NONE,
        };
        levels[DISTANCE_LAST] = distance_level(self.recent.last);
        levels[DISTANCE_BEFORE] = distance_level(self.recent.before);
        let n = size.get();
        let line = col.min(row).min(n - 1 - col).min(n - 1 - row);
        if line < 4 {
            levels[LINE] = line as u8;
        }
        levels
    }

    fn capture_level(&self, chains: &[Point], stones: u32, roomy: bool) -> u8 {
        let board = self.board;
        if chains.len() == 1 && stones == 1 && !roomy {
            return capture::KO;
        }
        let on = board.on_board();
        let size = board.size();
        let mut saves = false;
        let mut last = false;
        for &c in chains {
            let chain = board.chain_stones(c);
            saves |= !(chain.neighbours(size, &on) & self.own_in_atari).is_empty();
            last |= self.recent.last.is_some_and(|l| chain.contains(l));
        }
        match (saves, last, stones) {
            (true, _, _) => capture::SAVES,
            (_, true, 1) => capture::LAST_ONE,
            (_, true, _) => capture::LAST_MORE,
            (_, _, 1) => capture::OTHER_ONE,
            _ => capture::OTHER_MORE,
        }
    }

    fn atari_level(&self, p: Point, chains: &[Point]) -> u8 {
        let mut after = *self.board;
        after.play_unchecked(p, self.color);
        if chains
            .iter()
            .any(|&c| after.atari_liberty(c).is_some() && ladder::captured_in_ladder(&after, c))
        {
            atari::LADDER
        } else if chains.len() >= 2 {
            atari::DOUBLE
        } else if self.ko_on_board {
            atari::KO
        } else {
            atari::OTHER
        }
    }

    /// The 3x3 tactical shape of `p` as it lies (see [`super::shape::tactical_code`]).
    pub fn tactical(&self, p: Point) -> u32 {
        let base = grid_index(self.board, p) as isize;
        let steps = &self.geometry.steps;
        tactical_of(
            self.board,
            p,
            |k, _| self.grid[(base + steps[k]) as usize],
            |q| self.liberties[q.index()],
        )
    }

    /// The shape hashes of `p`, size by size from the smallest, until `f` says stop.
    #[inline]
    pub fn shape_hashes(&self, p: Point, mut f: impl FnMut(usize, u64) -> bool) {
        let g = self.geometry;
        let base = grid_index(self.board, p) as isize;
        let mut hash = 0u64;
        let mut k = 0;
        for (size, &end) in RING_END.iter().enumerate() {
            while k < end {
                hash ^= g.key(k, self.grid[(base + g.steps[k]) as usize]);
                k += 1;
            }
            if !f(size, hash ^ g.salt(size)) {
                return;
            }
        }
    }

    /// The states of the largest shape around `p` (for harvesting shapes).
    pub fn shape_states(&self, p: Point) -> [u8; POINTS] {
        let g = self.geometry;
        let base = grid_index(self.board, p) as isize;
        let mut states = [OFF; POINTS];
        for (k, s) in states.iter_mut().enumerate() {
            *s = self.grid[(base + g.steps[k]) as usize];
        }
        states
    }
}

/// The tactical shape of an empty point `p` for `color`, read straight off the board
/// (the playouts' way: no [`Position`] to build).
#[inline]
pub fn tactical_on_board(board: &Board, color: Color, p: Point) -> u32 {
    tactical_of(
        board,
        p,
        |_, q| match board.cell(q) {
            Cell::Off => OFF,
            Cell::Empty => super::shape::EMPTY,
            Cell::Stone(c) if c == color => OWN,
            Cell::Stone(_) => OPPONENT,
        },
        |q| board.liberties_up_to(q, 3) as u8,
    )
}

/// The tactical code of `p` from the state of each of its 8 neighbours as the mover
/// sees them (`state(k, q)`: own, opponent, empty, off) and the liberties of the chains
/// next to it: the one owner of the code, for [`Position`] and the playouts alike.
#[inline]
fn tactical_of(
    board: &Board,
    p: Point,
    state: impl Fn(usize, Point) -> u8,
    liberties: impl Fn(Point) -> u8,
) -> u32 {
    let g = Geometry::get();
    let stride = board.size().stride() as isize;
    let mut parts = [0u8; 8];
    for (k, part) in parts.iter_mut().enumerate() {
        let (dx, dy) = g.offsets[k];
        let q =
            Point::from_index((p.index() as isize + dy as isize * stride + dx as isize) as usize);
        let s = state(k, q);
        // Diagonals keep their state; the four sides say empty, off, or a chain's liberties.
        *part = match s {
            _ if k >= 4 => s,
            OFF => NEIGHBOUR_OFF,
            OWN | OPPONENT => neighbour_code(s == OWN, liberties(q)),
            _ => NEIGHBOUR_EMPTY,
        };
    }
    tactical_code(&parts)
}

fn grid_index(board: &Board, p: Point) -> usize {
    let (col, row) = board.size().col_row(p);
    (row + MARGIN) * GRID_WIDTH + col + MARGIN
}

fn neighbours_of(board: &Board, p: Point) -> Bitboard {
    board.neighbour_points(p).into_iter().collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::knowledge::shape::{Geometry, SIZES, canonical_tactical};
    use crate::rules::{BoardSize, Suicide, parse_diagram};

    fn board(rows: &[&str]) -> Board {
        parse_diagram(&rows.join("\n")).expect("diagram")
    }

    #[test]
    fn the_recent_moves_of_a_record_are_read_as_training_reads_them() {
        let size = BoardSize::NINETEEN;
        let p = |x, y| size.point(x, y).expect("on the board");
        let (b, w) = (Color::Black, Color::White);
        let record = |moves: &[(Color, Move)]| moves.to_vec();
        let both = record(&[(b, Move::Play(p(3, 3))), (w, Move::Play(p(15, 15)))]);
        assert_eq!(
            Recent::from_record(&both, b),
            Recent {
                last: Some(p(15, 15)),
                before: Some(p(3, 3))
            }
        );
        // The opponent passed: no last move, but the mover's own stone before it counts.
        let passed = record(&[(b, Move::Play(p(3, 3))), (w, Move::Pass)]);
        assert_eq!(
            Recent::from_record(&passed, b),
            Recent {
                last: None,
                before: Some(p(3, 3))
            }
        );
        // The mover moved last (stones set out of turn): nothing is recent.
        let own = record(&[(w, Move::Play(p(15, 15))), (b, Move::Play(p(3, 3)))]);
        assert_eq!(Recent::from_record(&own, b), Recent::default());
        assert_eq!(Recent::from_record(&[], b), Recent::default());
    }

    fn at(board: &Board, name: &str) -> Point {
        board.size().parse_point(name).expect("point")
    }

    /// White C3 in atari (its liberty D3) with Black's C4, D4, B3 and C2 around it; the
    /// ladder after White D3 reaches the edge.
    pub(crate) const LADDER: [&str; 9] = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . X X . . . . .",
        ". X O . . . . . .",
        ". . X . . . . . .",
        ". . . . . . . . .",
    ];

    fn recent(b: &Board, last: Option<&str>) -> Recent {
        Recent {
            last: last.map(|name| at(b, name)),
            before: None,
        }
    }

    #[test]
    fn a_capture_of_the_last_move_is_not_any_capture() {
        let b = board(&LADDER);
        let d3 = at(&b, "D3");
        let after_c3 = Position::new(&b, Color::Black, recent(&b, Some("C3")));
        assert_eq!(after_c3.levels(d3)[CAPTURE], capture::LAST_ONE);
        let plain = Position::new(&b, Color::Black, recent(&b, None));
        assert_eq!(plain.levels(d3)[CAPTURE], capture::OTHER_ONE);
        assert_eq!(plain.levels(at(&b, "E5"))[CAPTURE], NONE);
    }

    #[test]
    fn an_escape_into_a_ladder_is_not_an_escape_into_the_open() {
        let b = board(&LADDER);
        let d3 = at(&b, "D3");
        let after_c4 = Position::new(&b, Color::White, recent(&b, Some("C4")));
        assert_eq!(after_c4.levels(d3)[ESCAPE], escape::NEW_LADDER);
        let old = Position::new(&b, Color::White, recent(&b, None));
        assert_eq!(old.levels(d3)[ESCAPE], escape::OLD_LADDER);
        let open = board(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . X . . . . . .",
            ". X O . . . . . .",
            ". . X . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        let white = Position::new(&open, Color::White, recent(&open, Some("C6")));
        assert_eq!(white.levels(at(&open, "D5"))[ESCAPE], escape::NEW_FREE);
    }

    #[test]
    fn an_atari_that_starts_a_working_ladder_is_a_ladder_atari() {
        let mut rows = LADDER;
        rows[5] = ". . . X . . . . .";
        let b = board(&rows);
        let black = Position::new(&b, Color::Black, recent(&b, None));
        // C4 leaves White C3 the one liberty D3: the ladder of the diagram above.
        assert_eq!(black.levels(at(&b, "C4"))[ATARI], atari::LADDER);
        // E5 touches nothing.
        assert_eq!(black.levels(at(&b, "E5"))[ATARI], NONE);
    }

    #[test]
    fn taking_a_ko_is_a_capture_of_its_own_kind() {
        let b = board(&[
            ". . . . .",
            ". X O . .",
            "X O . O .",
            ". X O . .",
            ". . . . .",
        ]);
        assert!(b.is_legal(at(&b, "C3"), Color::Black, Suicide::Forbidden));
        let black = Position::new(&b, Color::Black, Recent::default());
        assert_eq!(black.levels(at(&b, "C3"))[CAPTURE], capture::KO);
    }

    #[test]
    fn a_lone_self_atari_and_a_bigger_one_differ() {
        let b = board(&[
            ". . . . .",
            "O . . . .",
            ". O . . .",
            "X O . . .",
            ". O . . .",
        ]);
        let black = Position::new(&b, Color::Black, Recent::default());
        // A3 joins A2: A2-A3 keeps only A1.
        assert_eq!(black.levels(at(&b, "A3"))[SELF_ATARI], 1);
        let lone = board(&[". . .", ". . .", ". O ."]);
        let black = Position::new(&lone, Color::Black, Recent::default());
        assert_eq!(black.levels(at(&lone, "A1"))[SELF_ATARI], 0);
        assert_eq!(black.levels(at(&lone, "C3"))[SELF_ATARI], NONE);
    }

    #[test]
    fn distances_and_lines_are_measured_from_the_right_points() {
        let b = board(&LADDER);
        let pos = Position::new(
            &b,
            Color::Black,
            Recent {
                last: Some(at(&b, "C3")),
                before: Some(at(&b, "C2")),
            },
        );
        let d3 = pos.levels(at(&b, "D3"));
        assert_eq!(d3[DISTANCE_LAST], 0); // next to C3: d = 2
        assert_eq!(d3[DISTANCE_BEFORE], 1); // diagonal to C2: d = 3
        assert_eq!(pos.levels(at(&b, "J9"))[DISTANCE_LAST], 15); // d = 6 + 6 + 6 = 18
        assert_eq!(pos.levels(at(&b, "A1"))[LINE], 0);
        assert_eq!(pos.levels(at(&b, "E5"))[LINE], NONE);
        assert_eq!(pos.levels(at(&b, "D6"))[LINE], 3);
    }

    /// The board turned by orientation `t` (about the centre), colours swapped if asked.
    fn transformed(board: &Board, t: usize, swap: bool) -> Board {
        let size = board.size();
        let half = (size.get() as i32 - 1) / 2;
        let mut out = Board::new(size);
        for q in size.all_points() {
            if let Cell::Stone(c) = board.cell(q) {
                let m = map_point(size, q, t, half);
                let c = if swap { c.opponent() } else { c };
                out.place_setup_stone(m, c).expect("a legal set-up");
            }
        }
        out
    }

    fn map_point(size: BoardSize, p: Point, t: usize, half: i32) -> Point {
        let (col, row) = size.col_row(p);
        let (x, y) = crate::knowledge::shape::orient(t, col as i32 - half, row as i32 - half);
        size.point((x + half) as usize, (y + half) as usize)
            .expect("on board")
    }

    #[test]
    fn a_shapes_id_is_the_same_in_all_eight_orientations_and_with_colours_swapped() {
        let g = Geometry::get();
        // A busy corner of a 19x19 board and a point near the edge.
        let mut rows = vec![". . . . . . . . . . . . . . . . . . ."; 19];
        rows[14] = ". . . . . . . . . . . . . . . X O . .";
        rows[15] = ". . . . . . . . . . . . . X . X O . .";
        rows[16] = ". . . . . . . . . . . . . . X O . O .";
        rows[17] = ". . . . . . . . . . . . . . X O . . .";
        let b = board(&rows);
        let p = at(&b, "R2");
        let ids_of = |position: &Position<'_>, q: Point| {
            g.canonical_ids(&position.shape_states(q)).map(|(id, _)| id)
        };
        let ids = ids_of(&Position::new(&b, Color::Black, Recent::default()), p);
        for t in 0..8 {
            for swap in [false, true] {
                let turned = transformed(&b, t, swap);
                let color = if swap { Color::White } else { Color::Black };
                let q = map_point(b.size(), p, t, 9);
                let position = Position::new(&turned, color, Recent::default());
                assert_eq!(ids_of(&position, q), ids, "t {t} swap {swap}");
                assert_eq!(
                    canonical_tactical(g, position.tactical(q)),
                    canonical_tactical(
                        g,
                        Position::new(&b, Color::Black, Recent::default()).tactical(p)
                    )
                );
            }
        }
        // The same board for the other colour is another shape (own and opponent differ),
        // and so is the point next to it.
        let white = Position::new(&b, Color::White, Recent::default());
        assert_ne!(ids_of(&white, p)[SIZES - 1], ids[SIZES - 1]);
        let black = Position::new(&b, Color::Black, Recent::default());
        assert_ne!(ids_of(&black, at(&b, "S2"))[0], ids[0]);
    }

    #[test]
    fn the_tactical_shape_sees_liberties_and_is_the_same_in_every_orientation() {
        let g = Geometry::get();
        let b = board(&[
            ". . . . .",
            ". X . . .",
            ". O . . .",
            ". . . . .",
            ". . . . .",
        ]);
        let p = at(&b, "C3");
        let pos = Position::new(&b, Color::Black, Recent::default());
        let code = pos.tactical(p);
        // Mirror the board left-right and swap the colours: the same shape for White.
        let mut mirrored = Board::new(BoardSize::new(5).expect("size"));
        for q in b.size().all_points() {
            if let Cell::Stone(c) = b.cell(q) {
                let (col, row) = b.size().col_row(q);
                let m = b.size().point(4 - col, row).expect("on board");
                mirrored.place_setup_stone(m, c.opponent()).expect("legal");
            }
        }
        let pos2 = Position::new(&mirrored, Color::White, Recent::default());
        let code2 = pos2.tactical(at(&mirrored, "C3"));
        assert_eq!(canonical_tactical(g, code), canonical_tactical(g, code2));
        assert_ne!(code, pos.tactical(at(&b, "D3")));
        for q in b.empty_points().iter() {
            assert_eq!(tactical_on_board(&b, Color::Black, q), pos.tactical(q));
        }
    }
}
