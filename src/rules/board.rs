//! The board: stones, chains, pseudo-liberties, captures, the simple-ko point and the
//! Zobrist hash. A small `Copy` value with no heap, copied once per playout.
//!
//! Bitboards of the stones are canonical for whole-board questions (scoring, floods);
//! on top of them sit libego-style accelerators that make one move O(neighbours):
//! packed neighbour-colour counters, chain ids with a ring of stones per chain,
//! pseudo-liberty counts (a liberty counted once per adjacent stone, zero exactly when
//! the chain has no liberty) and an empty-point list.

use super::bitboard::Bitboard;
use super::color::Color;
use super::point::{BoardSize, CELLS, MAX_POINTS, Point};
use super::zobrist::stone_key;
use std::fmt;

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    OffBoard,
    Occupied,
    /// Retakes a simple ko at once.
    Ko,
    /// Leaves its own chain without liberties and captures nothing.
    Suicide,
    /// Recreates an earlier whole-board position (positional or situational superko).
    Superko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OffBoard => "point is off the board",
            IllegalMove::Occupied => "point is occupied",
            IllegalMove::Ko => "retakes a ko",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Superko => "repeats an earlier position",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// What a point holds. `Off` marks the guard cells around the board.
#[derive(Clone, Copy, Debug)]
pub enum Cell {
    Stone(Color),
    Empty,
    Off,
}

impl Cell {
    /// The board's code for this cell.
    #[inline(always)]
    fn code(self) -> u8 {
        match self {
            Cell::Stone(color) => color as u8,
            Cell::Empty => EMPTY,
            Cell::Off => OFF,
        }
    }
}

// Compared by code: the playout policy compares cells on every move, and the derived
// comparison tests the variant and then the colour.
impl PartialEq for Cell {
    #[inline(always)]
    fn eq(&self, other: &Cell) -> bool {
        self.code() == other.code()
    }
}

impl Eq for Cell {}

// Cell codes in `Board::cells`: the two colours, then empty, then off-board.
const EMPTY: u8 = 2;
const OFF: u8 = 3;
pub(crate) const EMPTY_CODE: u8 = EMPTY;
pub(crate) const OFF_CODE: u8 = OFF;

// Neighbour counters, four bits each, packed in a u16: black, white, empty. An off-board
// neighbour counts as both a black and a white one, so "eye-like for black" is
// "black count == 4" whatever the edge.
// Shifts computed from the code rather than looked up: a table index costs a bounds check
// on the hottest path.
#[inline]
fn neighbour_count(packed: u16, code: u8) -> u16 {
    debug_assert!(code <= EMPTY);
    (packed >> (4 * u32::from(code))) & 0xF
}

/// One neighbour of kind `code` (black, white or empty) in the packed counters.
#[inline]
const fn count_one(code: u8) -> u16 {
    1 << (4 * code as u32)
}

/// The [`Board::neighbour_key`] of a point whose four neighbours hold the cell codes
/// `codes` (0 black, 1 white, 2 empty, 3 off the board, as in
/// [`Board::neighbourhood_code`]).
pub fn neighbour_key_of(codes: [u8; 4]) -> u16 {
    codes
        .iter()
        .map(|&code| match code {
            OFF => count_one(0) + count_one(1),
            code => count_one(code),
        })
        .sum()
}

/// Whether multi-stone suicide is a legal move (it is under `new_zealand` and `tromp-taylor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suicide {
    Forbidden,
    /// Multi-stone suicide is legal and removes the chain; single-stone suicide is not.
    MultiStoneAllowed,
}

/// The distance between vertically adjacent points of the mailbox. The playouts know it at
/// compile time for 9x9, 13x13 and 19x19 ([`FixedStride`]), so neighbour offsets are
/// immediates; other sizes and the rest of the engine read it from the board
/// ([`RuntimeStride`]). Dispatched once per playout, never per move.
pub trait Stride: Copy {
    fn get(self) -> usize;
}

/// A stride fixed at compile time: `W` is the board's side plus one.
#[derive(Clone, Copy, Debug)]
pub struct FixedStride<const W: usize>;

impl<const W: usize> Stride for FixedStride<W> {
    #[inline(always)]
    fn get(self) -> usize {
        W
    }
}

/// A stride read at run time, for any size.
#[derive(Clone, Copy, Debug)]
pub struct RuntimeStride(pub usize);

impl Stride for RuntimeStride {
    #[inline(always)]
    fn get(self) -> usize {
        self.0
    }
}

#[inline(always)]
fn neighbours_at<S: Stride>(stride: S, p: usize) -> [usize; 4] {
    let w = stride.get();
    // One check that every neighbour is a cell (true of any on-board point) spares the
    // compiler a bounds check at each use.
    assert!(p >= w && p + w < CELLS, "no neighbours");
    [p - w, p - 1, p + 1, p + w]
}

#[inline(always)]
fn diagonals_at<S: Stride>(stride: S, p: usize) -> [usize; 4] {
    let w = stride.get();
    assert!(p > w && p + w + 1 < CELLS, "no diagonals");
    [p - w - 1, p - w + 1, p + w - 1, p + w + 1]
}

#[derive(Clone, Copy)]
pub struct Board {
    size: BoardSize,
    on_board: Bitboard,
    stones: [Bitboard; 2],
    cells: [u8; CELLS],
    /// Packed neighbour counters of each point.
    neighbour_counts: [u16; CELLS],
    /// Chain id (a point of the chain) of each stone; 0 (a guard cell) for every other cell.
    chain: [u16; CELLS],
    /// The next stone of the same chain: each chain is a ring.
    next: [u16; CELLS],
    /// Pseudo-liberties, indexed by chain id.
    liberties: [u16; CELLS],
    /// Stones, indexed by chain id.
    chain_len: [u16; CELLS],
    /// Empty points, in no particular order; `empty_index` maps a point to its slot.
    empty: [u16; MAX_POINTS],
    empty_len: u16,
    empty_index: [u16; CELLS],
    /// The point the colour `ko_banned` may not play at once (0: none).
    ko_point: u16,
    ko_banned: u8,
    hash: u64,
    /// Stones captured by each colour (including opposing multi-stone suicides).
    captures: [u32; 2],
}

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize) -> Board {
        let mut board = Board {
            size,
            on_board: Bitboard::on_board(size),
            stones: [Bitboard::EMPTY; 2],
            cells: [OFF; CELLS],
            neighbour_counts: [0; CELLS],
            chain: [0; CELLS],
            next: [0; CELLS],
            liberties: [0; CELLS],
            chain_len: [0; CELLS],
            empty: [0; MAX_POINTS],
            empty_len: 0,
            empty_index: [0; CELLS],
            ko_point: 0,
            ko_banned: 0,
            hash: 0,
            captures: [0; 2],
        };
        for p in size.all_points() {
            board.cells[p.index()] = EMPTY;
            board.empty[board.empty_len as usize] = p.index() as u16;
            board.empty_index[p.index()] = board.empty_len;
            board.empty_len += 1;
        }
        for p in size.all_points() {
            let cells = board.neighbours(p.index()).map(|q| board.cells[q]);
            board.neighbour_counts[p.index()] = neighbour_key_of(cells);
        }
        board
    }

    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Every on-board point.
    #[inline]
    pub fn on_board(&self) -> Bitboard {
        self.on_board
    }

    /// The stones of one colour.
    #[inline]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// The empty points.
    #[inline]
    pub fn empty_points(&self) -> Bitboard {
        self.on_board & !(self.stones[0] | self.stones[1])
    }

    /// What `p` holds (any mailbox index of this size, guard cells included).
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        match self.cells[p.index()] {
            0 => Cell::Stone(Color::Black),
            1 => Cell::Stone(Color::White),
            EMPTY => Cell::Empty,
            _ => Cell::Off,
        }
    }

    /// The raw code of mailbox cell `i`: a colour's index, [`EMPTY_CODE`] or [`OFF_CODE`]
    /// (for tests that must not pay for a `Cell`).
    #[inline]
    pub(crate) fn cell_code(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// The colour of the stone on `p`, if any.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.cell(p) {
            Cell::Stone(c) => Some(c),
            _ => None,
        }
    }

    /// The Zobrist hash of the stone arrangement (ko, turn and prisoners excluded).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from the stones: the slow check of the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        Color::BOTH
            .iter()
            .flat_map(|&c| self.stones(c).iter().map(move |p| stone_key(c, p)))
            .fold(0, |h, k| h ^ k)
    }

    /// The point `color` may not play at once because it would retake a ko.
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko_point != 0).then(|| {
            let banned = if self.ko_banned == 0 {
                Color::Black
            } else {
                Color::White
            };
            (Point::from_index(self.ko_point as usize), banned)
        })
    }

    /// Clears the simple-ko ban, as a pass or any other move does.
    #[inline]
    pub fn clear_ko(&mut self) {
        self.ko_point = 0;
    }

    /// Stones `color` has captured so far.
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// Number of empty points.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty_len as usize
    }

    /// The `i`-th entry of the empty-point list (`i < empty_count()`).
    #[inline]
    pub fn empty_at(&self, i: usize) -> Point {
        Point::from_index(self.empty[i] as usize)
    }

    /// Swaps two entries of the empty-point list: the order is free, so a sampler may
    /// move rejected points out of its way.
    #[inline]
    pub fn swap_empty(&mut self, i: usize, j: usize) {
        self.empty.swap(i, j);
        self.empty_index[self.empty[i] as usize] = i as u16;
        self.empty_index[self.empty[j] as usize] = j as u16;
    }

    /// The board's stride, read at run time.
    #[inline]
    pub fn stride(&self) -> RuntimeStride {
        RuntimeStride(self.size.stride())
    }

    #[inline]
    fn neighbours(&self, p: usize) -> [usize; 4] {
        neighbours_at(self.stride(), p)
    }

    #[inline]
    pub(crate) fn diagonals_in<S: Stride>(&self, stride: S, p: usize) -> [usize; 4] {
        debug_assert_eq!(stride.get(), self.size.stride());
        diagonals_at(stride, p)
    }

    #[inline]
    pub(crate) fn diagonals(&self, p: usize) -> [usize; 4] {
        diagonals_at(self.stride(), p)
    }

    /// The four orthogonal neighbours of `p` (guard cells included).
    #[inline]
    pub fn neighbour_points(&self, p: Point) -> [Point; 4] {
        self.neighbours(p.index()).map(Point::from_index)
    }

    /// The eight points around `p`: its orthogonal neighbours, then its diagonal ones
    /// (guard cells included). One array: a chained iterator tests which half it is in at
    /// every step.
    #[inline]
    pub fn points_around(&self, p: Point) -> [Point; 8] {
        let [a, b, c, d] = self.neighbours(p.index());
        let [e, f, g, h] = self.diagonals(p.index());
        [a, b, c, d, e, f, g, h].map(Point::from_index)
    }

    /// How many of `p`'s four neighbours hold a stone of `color` or are off the board.
    #[inline]
    pub fn neighbours_of_color_or_edge(&self, p: Point, color: Color) -> u32 {
        neighbour_count(self.neighbour_counts[p.index()], color as u8) as u32
    }

    /// `p`'s neighbour counters as one 12-bit key: black, white and empty neighbours, four
    /// bits each, a point off the board counted as both colours ([`neighbour_key_of`]).
    #[inline]
    pub fn neighbour_key(&self, p: Point) -> u16 {
        self.neighbour_counts[p.index()]
    }

    /// How many of `p`'s neighbours are empty.
    #[inline]
    pub fn empty_neighbours(&self, p: Point) -> u32 {
        neighbour_count(self.neighbour_counts[p.index()], EMPTY) as u32
    }

    /// The stones of the chain through `p` (empty when `p` holds no stone).
    pub fn chain_stones(&self, p: Point) -> Bitboard {
        let mut stones = Bitboard::EMPTY;
        if self.color_at(p).is_none() {
            return stones;
        }
        let start = p.index();
        let mut q = start;
        loop {
            stones.insert(Point::from_index(q));
            q = self.next[q] as usize;
            if q == start {
                return stones;
            }
        }
    }

    /// Every chain on the board, once each, in point order (for end-of-game analysis, not
    /// for hot loops: it allocates).
    pub fn chains(&self) -> Vec<Bitboard> {
        let mut chains = Vec::new();
        let mut seen = Bitboard::EMPTY;
        for p in (self.stones(Color::Black) | self.stones(Color::White)).iter() {
            if !seen.contains(p) {
                let chain = self.chain_stones(p);
                seen |= chain;
                chains.push(chain);
            }
        }
        chains
    }

    /// The liberties of the chain through `p`, exactly (empty when `p` holds no stone).
    pub fn chain_liberties(&self, p: Point) -> Bitboard {
        self.chain_stones(p).neighbours(self.size, &self.on_board) & self.empty_points()
    }

    /// Whether the chain through `p` (a stone) has exactly one liberty.
    pub fn is_in_atari(&self, p: Point) -> bool {
        self.chain_liberties(p).count() == 1
    }

    /// Stones in the chain through `p` (0 when `p` holds no stone).
    #[inline]
    pub fn chain_size(&self, p: Point) -> u32 {
        match self.cells[p.index()] {
            code if code < EMPTY => self.chain_len[self.chain[p.index()] as usize] as u32,
            _ => 0,
        }
    }

    /// The only liberty of the chain through `p`, when it is in atari. Cheap for most
    /// chains: one liberty touches at most four stones, so a chain with more than four
    /// pseudo-liberties cannot be in atari and needs no walk.
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let i = p.index();
        if self.cells[i] >= EMPTY {
            return None;
        }
        // Two empty neighbours of this stone are two liberties; more than four
        // pseudo-liberties are at least two (one liberty touches at most four stones).
        let id = self.chain[i] as usize;
        if neighbour_count(self.neighbour_counts[i], EMPTY) >= 2 || self.liberties[id] > 4 {
            return None;
        }
        let mut liberty = 0;
        let mut q = id;
        loop {
            for r in self.neighbours(q) {
                if self.cells[r] == EMPTY {
                    if liberty == 0 {
                        liberty = r;
                    } else if liberty != r {
                        return None;
                    }
                }
            }
            q = self.next[q] as usize;
            if q == id {
                break;
            }
        }
        (liberty != 0).then(|| Point::from_index(liberty))
    }

    /// Whether `a` and `b` are stones of one chain.
    #[inline]
    pub fn same_chain(&self, a: Point, b: Point) -> bool {
        let (i, j) = (a.index(), b.index());
        self.cells[i] < EMPTY && self.cells[j] < EMPTY && self.chain[i] == self.chain[j]
    }

    /// The two liberties of the chain through `p`, when it has exactly two. Cheap for most
    /// chains: a chain with more than eight pseudo-liberties has more than two.
    #[inline]
    pub fn two_liberties(&self, p: Point) -> Option<(Point, Point)> {
        let i = p.index();
        if self.cells[i] >= EMPTY {
            return None;
        }
        let id = self.chain[i] as usize;
        if self.liberties[id] > 8 {
            return None;
        }
        let (mut first, mut second) = (0, 0);
        let mut q = id;
        loop {
            for r in self.neighbours(q) {
                if self.cells[r] == EMPTY && r != first && r != second {
                    if first == 0 {
                        first = r;
                    } else if second == 0 {
                        second = r;
                    } else {
                        return None;
                    }
                }
            }
            q = self.next[q] as usize;
            if q == id {
                break;
            }
        }
        (second != 0).then(|| (Point::from_index(first), Point::from_index(second)))
    }

    /// Liberties of the chain through the stone at `p`, counted up to `limit` (at most 8).
    pub fn liberties_up_to(&self, p: Point, limit: usize) -> usize {
        let i = p.index();
        if self.cells[i] >= EMPTY {
            return 0;
        }
        let mut found = [0usize; 8];
        let limit = limit.min(found.len());
        let mut n = 0;
        let id = self.chain[i] as usize;
        let mut s = id;
        loop {
            for r in self.neighbours(s) {
                if self.cells[r] == EMPTY && !found[..n].contains(&r) {
                    found[n] = r;
                    n += 1;
                    if n >= limit {
                        return n;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == id {
                return n;
            }
        }
    }

    /// Liberties the chain of a stone of `color` at the empty point `p` would have, counted
    /// up to `limit` (a capture counts the captured neighbours as liberties; a move that
    /// would be illegal still gets a count). For self-atari and escape tests.
    pub fn liberties_after(&self, p: Point, color: Color, limit: usize) -> usize {
        let i = p.index();
        let mut found = [0usize; 8];
        let limit = limit.min(found.len());
        // p's empty neighbours are liberties of the new chain: no walk when they reach the
        // limit.
        if usize::from(neighbour_count(self.neighbour_counts[i], EMPTY)) >= limit {
            return limit;
        }
        let mut n = 0;
        let mut add = |r: usize, n: &mut usize| {
            if *n < limit && r != i && !found[..*n].contains(&r) {
                found[*n] = r;
                *n += 1;
            }
        };
        for q in self.neighbours(i) {
            match self.cells[q] {
                EMPTY => add(q, &mut n),
                code if code == color as u8 => {
                    let id = self.chain[q] as usize;
                    // A liberty touches at most four stones, so the chain has at least
                    // pseudo / 4 liberties, and all but p stay.
                    if usize::from(self.liberties[id]) > 4 * limit {
                        return limit;
                    }
                    let mut s = id;
                    loop {
                        for r in self.neighbours(s) {
                            if self.cells[r] == EMPTY {
                                add(r, &mut n);
                            }
                        }
                        s = self.next[s] as usize;
                        if s == id || n >= limit {
                            break;
                        }
                    }
                }
                code if code < EMPTY && self.atari_liberty(Point::from_index(q)) == Some(p) => {
                    add(q, &mut n)
                }
                _ => {}
            }
            if n >= limit {
                break;
            }
        }
        n
    }

    /// The hash after a legal move of `color` at `p`, without playing it: the new stone
    /// and the captured chains XORed in and out (a suicide is played on a copy).
    pub fn hash_after(&self, p: Point, color: Color) -> u64 {
        let mut hash = self.hash ^ stone_key(color, p);
        let mut captured = [0usize; 4];
        let mut n = 0;
        for q in self.neighbours(p.index()) {
            if self.cells[q] == color.opponent() as u8
                && !captured[..n].contains(&(self.chain[q] as usize))
                && self.atari_liberty(Point::from_index(q)) == Some(p)
            {
                let id = self.chain[q] as usize;
                captured[n] = id;
                n += 1;
                let mut s = id;
                loop {
                    hash ^= stone_key(color.opponent(), Point::from_index(s));
                    s = self.next[s] as usize;
                    if s == id {
                        break;
                    }
                }
            }
        }
        if n == 0 && self.liberties_after(p, color, 1) == 0 {
            let mut after = *self;
            after.play_unchecked(p, color);
            return after.hash();
        }
        hash
    }

    /// The 3x3 neighbourhood of `p` as 16 bits: two bits per neighbour (0 black, 1 white,
    /// 2 empty, 3 off the board), rows from the top, left to right, the centre skipped.
    #[inline]
    pub fn neighbourhood_code(&self, p: Point) -> u16 {
        let i = p.index();
        let w = self.size.stride();
        let cells = [
            i + w - 1,
            i + w,
            i + w + 1,
            i - 1,
            i + 1,
            i - w - 1,
            i - w,
            i - w + 1,
        ];
        cells
            .iter()
            .enumerate()
            .fold(0, |code, (k, &q)| code | (self.cells[q] as u16) << (2 * k))
    }

    /// Checks a move by `color` at `p` against every rule the board knows: on board, empty,
    /// simple ko, suicide. Superko is the game's business.
    pub fn check(&self, p: Point, color: Color, suicide: Suicide) -> Result<(), IllegalMove> {
        if !self.size.contains(p) {
            return Err(IllegalMove::OffBoard);
        }
        let i = p.index();
        if self.cells[i] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        if neighbour_count(self.neighbour_counts[i], EMPTY) > 0 {
            return Ok(());
        }
        if self.ko_point as usize == i && self.ko_banned == color as u8 {
            return Err(IllegalMove::Ko);
        }
        match self.captures_or_keeps_a_liberty(self.stride(), i, color as u8) {
            true => Ok(()),
            false if suicide == Suicide::MultiStoneAllowed && self.has_own_neighbour(i, color) => {
                Ok(())
            }
            false => Err(IllegalMove::Suicide),
        }
    }

    /// [`Board::check`] as a bool, for an on-board point: the playout's fast path.
    #[inline]
    pub fn is_legal(&self, p: Point, color: Color, suicide: Suicide) -> bool {
        let i = p.index();
        if self.cells[i] != EMPTY {
            return false;
        }
        neighbour_count(self.neighbour_counts[i], EMPTY) > 0
            || self.legal_without_empty_neighbour(self.stride(), i, color, suicide)
    }

    /// For an empty, on-board point: whether the light playout may play `color` there, that
    /// is, the move is legal and does not fill one of `color`'s true eyes. Most points have
    /// an empty neighbour and are settled by one load.
    #[inline(always)]
    pub fn is_playable_in<S: Stride>(
        &self,
        stride: S,
        p: Point,
        color: Color,
        suicide: Suicide,
    ) -> bool {
        let i = p.index();
        debug_assert_eq!(self.cells[i], EMPTY);
        let packed = self.neighbour_counts[i];
        if neighbour_count(packed, EMPTY) > 0 {
            return true;
        }
        if neighbour_count(packed, color as u8) == 4 && self.eye_diagonals_hold(stride, i, color) {
            return false;
        }
        self.legal_without_empty_neighbour(stride, i, color, suicide)
    }

    /// The legality of `color` at the empty point `i` when it has no empty neighbour: not a
    /// ko retaken, and a capture, an own chain that keeps a liberty, or an allowed suicide.
    #[inline(always)]
    fn legal_without_empty_neighbour<S: Stride>(
        &self,
        stride: S,
        i: usize,
        color: Color,
        suicide: Suicide,
    ) -> bool {
        debug_assert_eq!(stride.get(), self.size.stride());
        if self.ko_point as usize == i && self.ko_banned == color as u8 {
            return false;
        }
        self.captures_or_keeps_a_liberty(stride, i, color as u8)
            || (suicide == Suicide::MultiStoneAllowed && self.has_own_neighbour(i, color))
    }

    #[inline]
    fn has_own_neighbour(&self, p: usize, color: Color) -> bool {
        self.neighbours(p)
            .iter()
            .any(|&q| self.cells[q] == color as u8)
    }

    /// For an empty point with no empty neighbour: whether a stone of `color` there would
    /// capture an opposing chain, or join an own chain that keeps another liberty.
    #[inline]
    fn captures_or_keeps_a_liberty<S: Stride>(&self, stride: S, p: usize, color: u8) -> bool {
        let nbs = neighbours_at(stride, p);
        let ids = nbs.map(|q| self.chain[q]);
        // Without branches on the neighbours' colours, which the processor cannot predict:
        // each chain loses one pseudo-liberty per stone of it next to p (an off-board
        // neighbour's id is the unused chain 0, and its code is neither colour).
        let mut legal = false;
        for k in 0..4 {
            let id = ids[k];
            let adjacent = u16::from(ids[0] == id)
                + u16::from(ids[1] == id)
                + u16::from(ids[2] == id)
                + u16::from(ids[3] == id);
            let left = self.liberties[id as usize].wrapping_sub(adjacent);
            let cell = self.cells[nbs[k]];
            // A stone's chain: an own one that keeps a liberty, or an opposing one that
            // loses its last.
            legal |= (cell < EMPTY) & ((cell == color) != (left == 0));
        }
        legal
    }

    /// Plays a stone that [`Board::check`] accepts and returns the number of opposing
    /// stones captured. A multi-stone suicide (where the rules allow it) removes the chain.
    pub fn play_unchecked(&mut self, p: Point, color: Color) -> u32 {
        self.play_unchecked_in(self.stride(), p, color)
    }

    /// [`Board::play_unchecked`] with the stride given (a [`FixedStride`] in the playouts).
    #[inline]
    pub fn play_unchecked_in<S: Stride>(&mut self, stride: S, p: Point, color: Color) -> u32 {
        debug_assert_eq!(stride.get(), self.size.stride());
        debug_assert!(
            self.check(p, color, Suicide::MultiStoneAllowed).is_ok(),
            "illegal move {} for {color}",
            self.size.name(p)
        );
        let i = p.index();
        let own = color as u8;
        let opp = 1 - own;
        let into_opponent_eye_shape = neighbour_count(self.neighbour_counts[i], opp) == 4;
        self.ko_point = 0;
        self.place_stone(stride, i, own);

        // One pass over the neighbours: each adjacent chain loses the liberty at p; an
        // opposing chain left with none is captured, an own chain is joined.
        let mut captured = 0;
        let mut last_captured = 0;
        for q in neighbours_at(stride, i) {
            let cell = self.cells[q];
            // Empty and off-board cells belong to chain 0, a guard cell no chain uses: its
            // count takes their decrement, which saves a branch on the neighbour's colour.
            let id = self.chain[q] as usize;
            self.liberties[id] = self.liberties[id].wrapping_sub(1);
            // One test for "an opposing chain left without liberties": the compiler would
            // split `cell == opp && liberties == 0` into two branches, one unpredictable.
            if (u16::from(cell ^ opp) | self.liberties[id]) == 0 {
                last_captured = id;
                captured += self.remove_chain(stride, id);
            } else if (cell == own) & (id != self.chain[i] as usize) {
                self.merge_chains(self.chain[i] as usize, id);
            }
        }
        self.captures[own as usize] += captured;
        if self.liberties[self.chain[i] as usize] == 0 {
            let lost = self.remove_chain(stride, self.chain[i] as usize);
            self.captures[opp as usize] += lost;
        } else if captured == 1 && into_opponent_eye_shape {
            // A lone stone that took a lone stone in the opponent's eye shape: a ko.
            self.ko_point = last_captured as u16;
            self.ko_banned = opp;
        }
        captured
    }

    /// Checks and plays a move; the board is unchanged when it is refused.
    pub fn play(&mut self, p: Point, color: Color, suicide: Suicide) -> Result<u32, IllegalMove> {
        self.check(p, color, suicide)?;
        Ok(self.play_unchecked(p, color))
    }

    /// Puts a stone on an empty point without resolving captures: for setting up
    /// positions (diagrams, handicap). Call [`Board::has_chain_without_liberties`] after.
    pub fn place_setup_stone(&mut self, p: Point, color: Color) -> Result<(), IllegalMove> {
        if !self.size.contains(p) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p.index()] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        let i = p.index();
        self.ko_point = 0;
        self.place_stone(self.stride(), i, color as u8);
        for q in self.neighbours(i) {
            if self.cells[q] < EMPTY {
                self.liberties[self.chain[q] as usize] -= 1;
            }
        }
        for q in self.neighbours(i) {
            if self.cells[q] == color as u8 && self.chain[q] != self.chain[i] {
                self.merge_chains(self.chain[i] as usize, self.chain[q] as usize);
            }
        }
        Ok(())
    }

    /// Whether some chain has no liberty (a set-up position that no game can reach).
    pub fn has_chain_without_liberties(&self) -> bool {
        (self.stones[0] | self.stones[1])
            .iter()
            .any(|p| self.liberties[self.chain[p.index()] as usize] == 0)
    }

    /// Stone bookkeeping shared by moves and set-up: cell, bitboard, hash, empty list,
    /// neighbour counters, and a new one-stone chain.
    #[inline]
    fn place_stone<S: Stride>(&mut self, stride: S, p: usize, code: u8) {
        let point = Point::from_index(p);
        let color = if code == 0 {
            Color::Black
        } else {
            Color::White
        };
        self.cells[p] = code;
        self.stones[code as usize].insert(point);
        self.hash ^= stone_key(color, point);

        let slot = self.empty_index[p] as usize;
        let last = self.empty[self.empty_len as usize - 1];
        self.empty[slot] = last;
        self.empty_index[last as usize] = slot as u16;
        self.empty_len -= 1;

        self.chain[p] = p as u16;
        self.next[p] = p as u16;
        self.chain_len[p] = 1;
        self.liberties[p] = neighbour_count(self.neighbour_counts[p], EMPTY);
        for q in neighbours_at(stride, p) {
            // Guard cells' counters are never read: let them wrap.
            self.neighbour_counts[q] = self.neighbour_counts[q]
                .wrapping_add(count_one(code))
                .wrapping_sub(count_one(EMPTY));
        }
    }

    /// Removes the chain `id` from the board and returns its size.
    fn remove_chain<S: Stride>(&mut self, stride: S, id: usize) -> u32 {
        let code = self.cells[id];
        let color = if code == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut removed = 0;
        let mut q = id;
        loop {
            let point = Point::from_index(q);
            self.cells[q] = EMPTY;
            self.chain[q] = 0;
            self.stones[code as usize].remove(point);
            self.hash ^= stone_key(color, point);
            self.empty[self.empty_len as usize] = q as u16;
            self.empty_index[q] = self.empty_len;
            self.empty_len += 1;
            removed += 1;
            q = self.next[q] as usize;
            if q == id {
                break;
            }
        }
        // Second walk, once every stone is gone: neighbours gain an empty point.
        loop {
            for r in neighbours_at(stride, q) {
                self.neighbour_counts[r] = self.neighbour_counts[r]
                    .wrapping_add(count_one(EMPTY))
                    .wrapping_sub(count_one(code));
                // Chain 0 (empty and off-board cells) takes the increments meant for none.
                let id = self.chain[r] as usize;
                self.liberties[id] = self.liberties[id].wrapping_add(1);
            }
            q = self.next[q] as usize;
            if q == id {
                break;
            }
        }
        removed
    }

    /// Joins two chains, relabelling the smaller one.
    #[inline(never)]
    fn merge_chains(&mut self, a: usize, b: usize) {
        let (keep, gone) = if self.chain_len[a] >= self.chain_len[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut q = gone;
        loop {
            self.chain[q] = keep as u16;
            q = self.next[q] as usize;
            if q == gone {
                break;
            }
        }
        self.next.swap(keep, gone);
        self.liberties[keep] += self.liberties[gone];
        self.chain_len[keep] += self.chain_len[gone];
    }

    /// Checks every incremental structure against a recomputation; for tests and debugging.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.hash != self.hash_from_scratch() {
            return Err("incremental hash differs from the recomputed one".into());
        }
        let empty = self.empty_points();
        if empty.count() as usize != self.empty_count() {
            return Err("empty list has the wrong length".into());
        }
        for i in 0..self.empty_count() {
            let p = self.empty_at(i);
            if !empty.contains(p) || self.empty_index[p.index()] as usize != i {
                return Err(format!("empty list slot {i} is wrong"));
            }
        }
        for p in self.size.all_points() {
            let expected = neighbour_key_of(self.neighbours(p.index()).map(|q| self.cells[q]));
            if expected != self.neighbour_counts[p.index()] {
                return Err(format!(
                    "neighbour counts of {} are wrong",
                    self.size.name(p)
                ));
            }
            if let Some(color) = self.color_at(p) {
                if !self.stones(color).contains(p) {
                    return Err("bitboard and cells disagree".into());
                }
                let stones =
                    Bitboard::flood([p].into_iter().collect(), self.stones(color), self.size);
                if stones != self.chain_stones(p) {
                    return Err(format!("chain ring of {} is wrong", self.size.name(p)));
                }
                let id = self.chain[p.index()] as usize;
                if !stones.iter().all(|q| self.chain[q.index()] as usize == id) {
                    return Err("chain ids disagree".into());
                }
                let pseudo: u32 = stones.iter().map(|q| self.empty_neighbours(q)).sum();
                if pseudo != self.liberties[id] as u32
                    || stones.count() != self.chain_len[id] as u32
                {
                    return Err(format!(
                        "liberty or size count of {} is wrong",
                        self.size.name(p)
                    ));
                }
                if pseudo == 0 {
                    return Err("a chain without liberties is on the board".into());
                }
            } else if self.chain[p.index()] != 0 {
                return Err(format!(
                    "{} holds no stone but a chain id",
                    self.size.name(p)
                ));
            }
        }
        Ok(())
    }
}

impl Board {
    /// Whether every field, internal order included, is the same: what undo must restore.
    pub fn is_identical(&self, other: &Board) -> bool {
        self.size == other.size
            && self.on_board == other.on_board
            && self.stones == other.stones
            && self.cells == other.cells
            && self.neighbour_counts == other.neighbour_counts
            && self.chain == other.chain
            && self.next == other.next
            && self.liberties == other.liberties
            && self.chain_len == other.chain_len
            && self.empty == other.empty
            && self.empty_len == other.empty_len
            && self.empty_index == other.empty_index
            && self.ko_point == other.ko_point
            && (self.ko_point == 0 || self.ko_banned == other.ko_banned)
            && self.hash == other.hash
            && self.captures == other.captures
    }
}

impl PartialEq for Board {
    /// Boards are equal when they hold the same stones, ko ban and captures (the order of
    /// the internal empty list and chain labels may differ).
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.stones == other.stones
            && self.ko() == other.ko()
            && self.captures == other.captures
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", super::diagram::to_diagram(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::diagram::parse_diagram;

    #[test]
    fn chain_queries_on_points_without_stones_answer_empty() {
        let b = parse_diagram(". X\nX .").unwrap();
        let size = b.size();
        let empty = size.parse_point("A2").unwrap();
        assert!(b.chain_stones(empty).is_empty());
        assert!(b.chain_liberties(empty).is_empty());
        assert!(!b.is_in_atari(empty));
        // A point of a larger board, off this one.
        let far = BoardSize::NINETEEN.parse_point("T19").unwrap();
        assert!(b.chain_stones(far).is_empty());
        assert_eq!(
            b.check(far, Color::Black, Suicide::Forbidden),
            Err(IllegalMove::OffBoard)
        );
    }

    #[test]
    fn pseudo_liberties_count_a_shared_liberty_once_per_adjacent_stone() {
        let b = parse_diagram(
            ". . .
             X . X
             X X X",
        )
        .unwrap();
        let a1 = b.size().parse_point("A1").unwrap();
        // Real liberties A3, B2, C3; B2 touches three stones, so it counts three times.
        assert_eq!(b.chain_liberties(a1).count(), 3);
        let id = b.chain[a1.index()] as usize;
        let pseudo: u32 = b
            .chain_stones(a1)
            .iter()
            .map(|q| b.empty_neighbours(q))
            .sum();
        assert_eq!(b.liberties[id] as u32, pseudo);
        assert_eq!(pseudo, 5);
    }
}
