//! The policy network's input planes: one owner for what the network sees, used alike by
//! the position exporter (`yeoul positions`, the trainer's data) and by the engine during
//! play, so that the network is fed in play exactly what it was trained on.
//!
//! Every plane is one bit per point, seen from the side to move:
//!
//! | plane | set on |
//! |---|---|
//! | 0, 1 | own stones, opponent stones |
//! | 2 | empty points |
//! | 3 | every point of the board (the network's padding is zeros: this shows the edge) |
//! | 4-6 | own stones whose chain has 1, 2, 3+ liberties |
//! | 7-9 | opponent stones whose chain has 1, 2, 3+ liberties |
//! | 10-13 | the points of the last four moves (10 the opponent's last, 11 the mover's before it...) |
//! | 14 | the simple-ko point the mover may not take now |
//! | 15 | legal moves (superko not checked) |
//! | 16 | legal moves that capture |
//! | 17 | legal moves that leave own stones in atari and capture nothing (self-atari) |
//! | 18 | ataris whose chain a ladder then captures |
//! | 19 | extensions of an own chain in atari that a ladder still captures |
//!
//! Points are numbered row by row from the bottom left (`BoardSize::row_major`); bit
//! `plane * n² + point` of [`InputPlanes`].

use crate::knowledge::features::{
    self, ATARI, CAPTURE, ESCAPE, NONE, Position, Recent, SELF_ATARI,
};
use crate::rules::{Board, Cell, Color, MAX_POINTS, Move, Point, Suicide};

/// Input planes of the network.
pub const PLANES: usize = 20;
/// Changes whenever the planes' meaning changes: a network names the planes it was
/// trained on, and one trained on others is refused.
pub const PLANES_VERSION: u32 = 1;
/// Moves of history the planes show.
pub const HISTORY: usize = 4;

pub const OWN: usize = 0;
pub const OPPONENT: usize = 1;
pub const EMPTY: usize = 2;
pub const ON_BOARD: usize = 3;
/// Own liberties 1, 2, 3+ are `OWN_LIBERTIES + 0..3`, the opponent's `OPPONENT_LIBERTIES + 0..3`.
pub const OWN_LIBERTIES: usize = 4;
pub const OPPONENT_LIBERTIES: usize = 7;
/// The last move is `LAST_MOVES`, the one before `LAST_MOVES + 1`...
pub const LAST_MOVES: usize = 10;
pub const KO: usize = 14;
pub const LEGAL: usize = 15;
pub const CAPTURES: usize = 16;
pub const SELF_ATARIS: usize = 17;
pub const LADDER_ATARIS: usize = 18;
pub const LADDER_ESCAPES: usize = 19;

const WORDS: usize = (PLANES * MAX_POINTS).div_ceil(64);

/// The last [`HISTORY`] moves before the position, most recent first (`None`: a pass, or
/// no such move).
pub type History = [Option<Point>; HISTORY];

/// The history of an alternating record of moves (`None` a pass) before the next move:
/// how training records are read.
pub fn history_of_moves(previous: &[Option<Point>]) -> History {
    let mut history = [None; HISTORY];
    for (k, h) in history.iter_mut().enumerate() {
        if let Some(i) = previous.len().checked_sub(k + 1) {
            *h = previous[i];
        }
    }
    history
}

/// The history of a game record for `color` to move, read as [`Recent::from_record`]
/// reads it: the moves alternate back from the opponent's last; where they stop
/// alternating (stones set out of turn), the history stops.
pub fn history_of_record(record: &[(Color, Move)], color: Color) -> History {
    let mut history = [None; HISTORY];
    let mut expected = color.opponent();
    for (h, &(c, mv)) in history.iter_mut().zip(record.iter().rev()) {
        if c != expected {
            break;
        }
        *h = match mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        };
        expected = expected.opponent();
    }
    history
}

/// The recent moves the move features read, from a history.
pub fn recent_of(history: &History) -> Recent {
    Recent {
        last: history[0],
        before: history[1],
    }
}

/// One position's planes, packed one bit per point.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct InputPlanes {
    /// Points of the board (n²).
    points: usize,
    bits: [u64; WORDS],
}

impl std::fmt::Debug for InputPlanes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "InputPlanes({} points)", self.points)
    }
}

impl InputPlanes {
    /// The planes of `board` for `color` to move after the moves of `history`.
    pub fn encode(board: &Board, color: Color, history: &History) -> InputPlanes {
        let size = board.size();
        let mut planes = InputPlanes {
            points: size.points(),
            bits: [0; WORDS],
        };
        let position = Position::new(board, color, recent_of(history));
        for p in size.all_points() {
            let i = size.row_major(p);
            planes.set(ON_BOARD, i);
            match board.cell(p) {
                Cell::Stone(c) => {
                    let liberties = board.liberties_up_to(p, 3).clamp(1, 3) - 1;
                    if c == color {
                        planes.set(OWN, i);
                        planes.set(OWN_LIBERTIES + liberties, i);
                    } else {
                        planes.set(OPPONENT, i);
                        planes.set(OPPONENT_LIBERTIES + liberties, i);
                    }
                }
                _ => {
                    planes.set(EMPTY, i);
                    if !board.is_legal(p, color, Suicide::Forbidden) {
                        continue;
                    }
                    planes.set(LEGAL, i);
                    let levels = position.levels(p);
                    if levels[CAPTURE] != NONE {
                        planes.set(CAPTURES, i);
                    }
                    if levels[SELF_ATARI] != NONE {
                        planes.set(SELF_ATARIS, i);
                    }
                    if levels[ATARI] == features::atari::LADDER {
                        planes.set(LADDER_ATARIS, i);
                    }
                    if matches!(
                        levels[ESCAPE],
                        features::escape::NEW_LADDER | features::escape::OLD_LADDER
                    ) {
                        planes.set(LADDER_ESCAPES, i);
                    }
                }
            }
        }
        for (k, mv) in history.iter().enumerate() {
            if let Some(p) = mv {
                planes.set(LAST_MOVES + k, size.row_major(*p));
            }
        }
        if let Some((p, banned)) = board.ko()
            && banned == color
        {
            planes.set(KO, size.row_major(p));
        }
        planes
    }

    /// Planes for a board of `points` points with `bit(plane, point)` set (test data made
    /// outside the engine, such as the trainer's).
    pub fn from_fn(points: usize, bit: impl Fn(usize, usize) -> bool) -> InputPlanes {
        let mut planes = InputPlanes {
            points: points.min(MAX_POINTS),
            bits: [0; WORDS],
        };
        for plane in 0..PLANES {
            for point in 0..planes.points {
                if bit(plane, point) {
                    planes.set(plane, point);
                }
            }
        }
        planes
    }

    /// Points of the board the planes were made for.
    pub fn points(&self) -> usize {
        self.points
    }

    #[inline]
    fn set(&mut self, plane: usize, point: usize) {
        let bit = plane * self.points + point;
        self.bits[bit / 64] |= 1 << (bit % 64);
    }

    /// Whether `plane` is set at the row-major point `point`.
    #[inline]
    pub fn get(&self, plane: usize, point: usize) -> bool {
        let bit = plane * self.points + point;
        self.bits[bit / 64] >> (bit % 64) & 1 == 1
    }

    /// Bytes [`InputPlanes::packed`] writes: `PLANES * points` bits.
    pub fn packed_len(points: usize) -> usize {
        (PLANES * points).div_ceil(8)
    }

    /// The planes as bytes, bit `plane * points + point` at byte `bit / 8`, bit `bit % 8`
    /// (least significant first: numpy's `unpackbits(bitorder="little")`).
    pub fn packed(&self, out: &mut Vec<u8>) {
        let len = InputPlanes::packed_len(self.points);
        out.extend(self.bits.iter().flat_map(|w| w.to_le_bytes()).take(len));
    }

    /// The planes as the network's input: `out[point * PLANES + plane]` is 1.0 or 0.0
    /// (point-major, the layout the network's convolutions read).
    pub fn write_input(&self, out: &mut [f32]) {
        for (point, cells) in out.chunks_exact_mut(PLANES).take(self.points).enumerate() {
            for (plane, cell) in cells.iter_mut().enumerate() {
                *cell = if self.get(plane, point) { 1.0 } else { 0.0 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::features::tests::LADDER;
    use crate::knowledge::shape::orient;
    use crate::rules::{BoardSize, parse_diagram};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    fn board(rows: &[&str]) -> Board {
        parse_diagram(&rows.join("\n")).expect("diagram")
    }

    fn at(board: &Board, name: &str) -> usize {
        let size = board.size();
        size.row_major(size.parse_point(name).expect("point"))
    }

    /// The points where `plane` is set, by name.
    fn names(board: &Board, planes: &InputPlanes, plane: usize) -> Vec<String> {
        let size = board.size();
        size.all_points()
            .filter(|&p| planes.get(plane, size.row_major(p)))
            .map(|p| size.name(p))
            .collect()
    }

    #[test]
    fn the_planes_say_what_the_board_shows_for_the_side_to_move() {
        let b = board(&LADDER);
        let c4 = b.size().parse_point("C4").expect("point");
        let white = InputPlanes::encode(&b, Color::White, &[Some(c4), None, None, None]);
        assert_eq!(names(&b, &white, OWN), ["C3"]);
        assert_eq!(names(&b, &white, OWN_LIBERTIES), ["C3"]);
        assert_eq!(names(&b, &white, OPPONENT).len(), 4);
        assert_eq!(names(&b, &white, OPPONENT_LIBERTIES + 2).len(), 4);
        assert_eq!(names(&b, &white, LAST_MOVES), ["C4"]);
        assert!(names(&b, &white, LAST_MOVES + 1).is_empty());
        // White's escape to D3 runs into the ladder; Black's D3 captures.
        assert_eq!(names(&b, &white, LADDER_ESCAPES), ["D3"]);
        assert!(names(&b, &white, CAPTURES).is_empty());
        let black = InputPlanes::encode(&b, Color::Black, &[None; HISTORY]);
        assert_eq!(names(&b, &black, CAPTURES), ["D3"]);
        assert_eq!(names(&b, &black, OWN).len(), 4);
        assert_eq!(names(&b, &black, ON_BOARD).len(), 81);
        assert_eq!(names(&b, &black, LEGAL).len(), 81 - 5);
        assert_eq!(names(&b, &black, EMPTY).len(), 81 - 5);
        let mut rows = LADDER;
        rows[5] = ". . . X . . . . .";
        let b = board(&rows);
        let black = InputPlanes::encode(&b, Color::Black, &[None; HISTORY]);
        // C4 and D3 each leave C3 one liberty, and the ladder catches it either way.
        assert_eq!(names(&b, &black, LADDER_ATARIS), ["D3", "C4"]);
        assert!(names(&b, &black, CAPTURES).is_empty());
    }

    #[test]
    fn the_ko_point_and_self_ataris_are_marked() {
        let mut b = board(&[
            ". . . . .",
            ". X O . .",
            "X . X O .",
            ". X O . .",
            ". . . . .",
        ]);
        let b3 = b.size().parse_point("B3").expect("point");
        b.play(b3, Color::White, Suicide::Forbidden).expect("legal");
        // White took the ko at B3 (capturing C3): Black may not retake at C3 now.
        let black = InputPlanes::encode(&b, Color::Black, &[Some(b3), None, None, None]);
        assert_eq!(names(&b, &black, KO), ["C3"]);
        assert!(!black.get(LEGAL, at(&b, "C3")));
        let white = InputPlanes::encode(&b, Color::White, &[None; HISTORY]);
        assert!(names(&b, &white, KO).is_empty());
        // Black A1 would stand alone in atari next to White B1, capturing nothing.
        let lone = board(&[". . .", ". . .", ". O ."]);
        let black = InputPlanes::encode(&lone, Color::Black, &[None; HISTORY]);
        assert_eq!(names(&lone, &black, SELF_ATARIS), ["A1", "C1"]);
    }

    #[test]
    fn the_history_of_a_record_stops_where_moves_stop_alternating() {
        let size = BoardSize::NINETEEN;
        let p = |x, y| size.point(x, y).expect("on the board");
        let (b, w) = (Color::Black, Color::White);
        let record = [
            (b, Move::Play(p(3, 3))),
            (w, Move::Play(p(15, 15))),
            (b, Move::Pass),
            (w, Move::Play(p(3, 15))),
        ];
        let h = history_of_record(&record, b);
        assert_eq!(h, [Some(p(3, 15)), None, Some(p(15, 15)), Some(p(3, 3))]);
        assert_eq!(recent_of(&h), Recent::from_record(&record, b));
        // White to move again after its own move: no history (as the features read it).
        assert_eq!(history_of_record(&record, w), [None; HISTORY]);
        assert_eq!(recent_of(&[None; HISTORY]), Recent::from_record(&record, w));
        let moves: Vec<Option<Point>> = vec![Some(p(3, 3)), Some(p(15, 15)), None, Some(p(3, 15))];
        assert_eq!(history_of_moves(&moves), h);
        assert_eq!(
            history_of_moves(&moves[..1]),
            [Some(p(3, 3)), None, None, None]
        );
    }

    /// The point `p` turned by orientation `t` about the centre.
    fn map(size: BoardSize, p: Point, t: usize) -> Point {
        let half = (size.get() as i32 - 1) / 2;
        let (col, row) = size.col_row(p);
        let (x, y) = orient(t, col as i32 - half, row as i32 - half);
        size.point((x + half) as usize, (y + half) as usize)
            .expect("on board")
    }

    #[test]
    fn the_planes_of_a_turned_position_are_the_turned_planes() {
        // Random games played on a board and, move for move, on its seven images: every
        // plane of every image is the image of the original's plane.
        let size = BoardSize::new(11).expect("size");
        let mut rng = Pcg32::seed_from_u64(5);
        let mut positions = 0;
        for _ in 0..6 {
            let mut boards = [Board::new(size); 8];
            let mut moves: Vec<Option<Point>> = Vec::new();
            let mut color = Color::Black;
            for _ in 0..110 {
                let history = history_of_moves(&moves);
                let original = InputPlanes::encode(&boards[0], color, &history);
                for (t, image) in boards.iter().enumerate().skip(1) {
                    let turned_history = history.map(|h| h.map(|p| map(size, p, t)));
                    let turned = InputPlanes::encode(image, color, &turned_history);
                    for p in size.all_points() {
                        let q = map(size, p, t);
                        for plane in 0..PLANES {
                            assert_eq!(
                                original.get(plane, size.row_major(p)),
                                turned.get(plane, size.row_major(q)),
                                "plane {plane} at {} turned by {t}",
                                size.name(p)
                            );
                        }
                    }
                }
                positions += 1;
                let legal: Vec<Point> = size
                    .all_points()
                    .filter(|&p| boards[0].is_legal(p, color, Suicide::Forbidden))
                    .collect();
                if legal.is_empty() || rng.random_bool(0.03) {
                    for b in &mut boards {
                        b.clear_ko();
                    }
                    moves.push(None);
                } else {
                    let p = legal[rng.random_range(0..legal.len())];
                    for (t, b) in boards.iter_mut().enumerate() {
                        b.play(map(size, p, t), color, Suicide::Forbidden)
                            .expect("the image of a legal move is legal");
                    }
                    moves.push(Some(p));
                }
                color = color.opponent();
            }
        }
        assert_eq!(positions, 660);
    }

    #[test]
    fn packed_bytes_and_the_network_input_hold_the_same_bits() {
        let b = board(&LADDER);
        let planes = InputPlanes::encode(&b, Color::White, &[None; HISTORY]);
        let mut bytes = Vec::new();
        planes.packed(&mut bytes);
        assert_eq!(bytes.len(), InputPlanes::packed_len(81));
        let mut input = vec![0.0; 81 * PLANES];
        planes.write_input(&mut input);
        for plane in 0..PLANES {
            for point in 0..81 {
                let bit = plane * 81 + point;
                let packed = bytes[bit / 8] >> (bit % 8) & 1 == 1;
                assert_eq!(packed, planes.get(plane, point));
                assert_eq!(input[point * PLANES + plane] == 1.0, packed);
            }
        }
    }
}
