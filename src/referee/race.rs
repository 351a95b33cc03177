//! Capturing races read out to the capture: two chains of opposite colours in contact,
//! each of which the searches found living only when its owner moves first. Playouts
//! fill a race's liberties in random order, so the searches cannot tell a race that the
//! side to move wins from one that a side with an eye wins whoever starts (a throw-in into
//! the eye is taken at once, and then the eyeless side runs out of liberties first).

use crate::rules::{Bitboard, Board, Color, Point, Suicide, owned_regions};
use std::collections::HashMap;

/// Positions read at most, over both colours' first moves.
const MAX_NODES: usize = 40_000;
/// Moves in a line at most.
const MAX_DEPTH: u8 = 40;
/// The most points the race is played on (the two chains' liberties).
const MAX_POINTS: u32 = 10;

/// How a race ends with best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceEnd {
    /// The chain of this colour is captured.
    Captured(Color),
    /// Neither can be captured: both pass (a seki, or both live).
    Neither,
}

/// The race between the chains on `a` and `b` (opposite colours) with `first` to move,
/// played only on the two chains' liberties (each move may also pass; two passes end it).
/// `None` when it is too wide or too long to read.
pub fn read_race(
    board: &Board,
    a: Point,
    b: Point,
    first: Color,
    suicide: Suicide,
) -> Option<RaceEnd> {
    let color_a = board.color_at(a)?;
    if board.color_at(b) != Some(color_a.opponent()) {
        return None;
    }
    let mut reader = RaceReader {
        a,
        b,
        color_a,
        suicide,
        nodes: 0,
        known: HashMap::new(),
    };
    if reader.points(board).count() > MAX_POINTS {
        return None;
    }
    let value = reader.value(board, first, false, MAX_DEPTH);
    log::trace!(
        "race: {} points, {} nodes, {value:?}",
        reader.points(board).count(),
        reader.nodes
    );
    let value = value?;
    Some(match value {
        1 => RaceEnd::Captured(color_a.opponent()),
        -1 => RaceEnd::Captured(color_a),
        _ => RaceEnd::Neither,
    })
}

/// Whether the chain on `p` borders an eye: a region of at most `MAX_POINTS` empty
/// points every neighbour of which is a stone of its colour.
pub fn has_eye(board: &Board, p: Point) -> bool {
    let Some(color) = board.color_at(p) else {
        return false;
    };
    let size = board.size();
    let eyes = *owned_regions(board, &Bitboard::EMPTY).get(color);
    Bitboard::flood(board.chain_liberties(p), eyes, size)
        .components(size)
        .iter()
        .any(|eye| eye.count() <= MAX_POINTS)
}

/// A position of the race: stones, ko, side to move, whether the last move passed.
type RaceKey = (u64, Option<(Point, Color)>, Color, bool);

struct RaceReader {
    a: Point,
    b: Point,
    color_a: Color,
    suicide: Suicide,
    nodes: usize,
    /// Exact values by (position, side to move, whether the last move passed).
    known: HashMap<RaceKey, i8>,
}

impl RaceReader {
    /// The points the race is played on: the racing chains' liberties now, and those of
    /// the chains next to them with two liberties or fewer (a capture that gains
    /// liberties).
    fn points(&self, board: &Board) -> Bitboard {
        let size = board.size();
        let on = board.on_board();
        let mut points = Bitboard::EMPTY;
        for p in [self.a, self.b] {
            points |= board.chain_liberties(p);
            let near = board.chain_stones(p).neighbours(size, &on) & !board.empty_points();
            for q in near.iter() {
                let libs = board.chain_liberties(q);
                if libs.count() <= 2 {
                    points |= libs;
                }
            }
        }
        points
    }

    /// +1: `b`'s chain is captured; -1: `a`'s is; 0: neither, after two passes. `None`:
    /// past the depth or the node budget.
    fn value(&mut self, board: &Board, to_move: Color, passed: bool, depth: u8) -> Option<i8> {
        if board.color_at(self.a) != Some(self.color_a) {
            return Some(-1);
        }
        if board.color_at(self.b) != Some(self.color_a.opponent()) {
            return Some(1);
        }
        if depth == 0 || self.nodes >= MAX_NODES {
            return None;
        }
        self.nodes += 1;
        let key = (board.hash(), board.ko(), to_move, passed);
        if let Some(&v) = self.known.get(&key) {
            return Some(v);
        }
        let maximising = to_move == self.color_a;
        let (own, target) = if maximising {
            (self.a, self.b)
        } else {
            (self.b, self.a)
        };
        // The opponent's liberties first (the moves that shorten the race), then the
        // other points where a move captures or gains liberties; filling one's own
        // liberties for nothing is never better than passing.
        let theirs = board.chain_liberties(target);
        let own_count = board.chain_liberties(own).count() as usize;
        let useful = |p: &Point| {
            let captures = board
                .neighbour_points(*p)
                .into_iter()
                .any(|n| board.color_at(n) == Some(to_move.opponent()) && board.is_in_atari(n));
            captures || board.liberties_after(*p, to_move, own_count + 1) > own_count
        };
        let others = (self.points(board) & !theirs).iter().filter(useful);
        let moves = theirs.iter().chain(others);
        let mut best: Option<i8> = None;
        let better = |v: i8, best: Option<i8>| match best {
            None => true,
            Some(b) => (maximising && v > b) || (!maximising && v < b),
        };
        let winning = if maximising { 1 } else { -1 };
        for p in moves {
            let mut next = *board;
            if next.play(p, to_move, self.suicide).is_err() {
                continue;
            }
            let v = self.value(&next, to_move.opponent(), false, depth - 1)?;
            if better(v, best) {
                best = Some(v);
            }
            if v == winning {
                break;
            }
        }
        if best != Some(winning) {
            let v = if passed {
                0
            } else {
                let mut next = *board;
                next.clear_ko();
                self.value(&next, to_move.opponent(), true, depth - 1)?
            };
            if better(v, best) {
                best = Some(v);
            }
        }
        let value = best.unwrap_or(0);
        self.known.insert(key, value);
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_diagram;

    fn race(diagram: &str, a: &str, b: &str, first: Color) -> Option<RaceEnd> {
        let board = parse_diagram(diagram).expect("diagram");
        let size = board.size();
        let (a, b) = (size.parse_point(a).ok()?, size.parse_point(b).ok()?);
        read_race(&board, a, b, first, Suicide::Forbidden)
    }

    /// The 9x9 referee game 30 of 2026-12-04 (Japanese rules): White's A9-A8 and
    /// B7-C9 share the eye B9-B8 and the liberties D9, D8 with Black's A7-F9, whose third
    /// liberty E6 White can fill. White wins whoever starts.
    const ONE_EYE_AGAINST_NONE: &str = "O . O . X X . O .
                                        O . O . X O O O O
                                        X O O X X O X O X
                                        X X X X . O X X X
                                        O O O O O O X X .
                                        . . O O O X X O O
                                        . O X X O O X X O
                                        . O O X O X X . X
                                        . O X X X X X X .";

    #[test]
    fn one_eye_beats_none_whoever_starts() {
        for first in [Color::Black, Color::White] {
            let end = race(ONE_EYE_AGAINST_NONE, "A7", "B7", first);
            assert_eq!(
                end,
                Some(RaceEnd::Captured(Color::Black)),
                "{first:?} first"
            );
        }
    }

    #[test]
    fn an_even_race_goes_to_the_side_to_move_and_two_eyes_each_to_neither() {
        // Black's B1-B2 (liberties A1, A2) against White's C1-C2 (D1, D2).
        let even = ". . . . .
                    . . . . .
                    O O X X .
                    . X O . .
                    . X O . .";
        let black_first = race(even, "B1", "C1", Color::Black);
        assert_eq!(black_first, Some(RaceEnd::Captured(Color::White)));
        let white_first = race(even, "B1", "C1", Color::White);
        assert_eq!(white_first, Some(RaceEnd::Captured(Color::Black)));
        let two_eyes_each = ". X O . O
                             X X O O O
                             . X O . O
                             X X O O O
                             X X O O O";
        let end = race(two_eyes_each, "A1", "C1", Color::Black);
        assert_eq!(end, Some(RaceEnd::Neither));
    }
}
