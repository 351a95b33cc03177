//! Reading out a small enclosed eye space to the end. A chain whose liberties all lie in
//! one region of at most `MAX_POINTS` points that only this chain encloses is a closed
//! little game: nothing outside changes it (the wall's own safety aside). Its shape
//! alone does not say enough when opposing stones sit inside (a throw-in, a captured
//! bulky five, a seki that is not one), so this plays every line: the attacker wins by
//! capturing the chain, the defender by surviving until both pass. Kos go to whoever
//! takes first (no threats at the end of the game: Japanese rules let the attacker remove
//! them first, and under area rules they are removed in play).

use crate::rules::{Bitboard, Board, Cell, Point};
use std::collections::HashMap;

/// The largest eye space read: 3^7 colourings keep the table tiny.
pub const MAX_POINTS: usize = 7;

/// Moves in a line at most: enough for the longest nakade sequence in seven points.
const MAX_DEPTH: u8 = 40;

/// Whether the attacker captures the chain when it moves first, and when the defender
/// does (`None` where the region is too large or not enclosed by that one chain alone).
pub fn capturable(board: &Board, region: Bitboard, chain: Bitboard) -> Option<(bool, bool)> {
    let space = Space::new(board, region, chain)?;
    let mut reader = Reader {
        space: &space,
        memo: HashMap::new(),
    };
    let start = Node {
        defender: 0,
        attacker: space.attacker_stones,
        attacker_to_move: true,
        ko: None,
        passed: false,
    };
    let attacker_first = reader.attacker_wins(start, MAX_DEPTH);
    let defender_first = reader.attacker_wins(
        Node {
            attacker_to_move: false,
            ..start
        },
        MAX_DEPTH,
    );
    Some((attacker_first, defender_first))
}

/// The region as a graph of at most `MAX_POINTS` points (bit i is `points[i]`).
struct Space {
    /// Neighbours within the region, per point.
    adjacent: [u8; MAX_POINTS],
    /// Points next to the enclosing chain (its liberties when empty).
    touches_chain: u8,
    attacker_stones: u8,
    all: u8,
}

impl Space {
    fn new(board: &Board, region: Bitboard, chain: Bitboard) -> Option<Space> {
        let points: Vec<Point> = region.iter().collect();
        if points.is_empty() || points.len() > MAX_POINTS {
            return None;
        }
        let stone = chain.iter().next()?;
        let defender = board.color_at(stone)?;
        if !(board.chain_liberties(stone) & !region).is_empty() {
            return None;
        }
        let on = board.on_board();
        let index = |p: Point| points.iter().position(|&q| q == p);
        let mut space = Space {
            adjacent: [0; MAX_POINTS],
            touches_chain: 0,
            attacker_stones: 0,
            all: ((1u16 << points.len()) - 1) as u8,
        };
        for (i, &p) in points.iter().enumerate() {
            match board.cell(p) {
                Cell::Empty => {}
                Cell::Stone(c) if c != defender => space.attacker_stones |= 1 << i,
                _ => return None,
            }
            for q in board
                .neighbour_points(p)
                .into_iter()
                .filter(|&q| on.contains(q))
            {
                if let Some(j) = index(q) {
                    space.adjacent[i] |= 1 << j;
                } else if chain.contains(q) {
                    space.touches_chain |= 1 << i;
                } else {
                    // Enclosed by something else as well: not a closed game.
                    return None;
                }
            }
        }
        Some(space)
    }

    fn neighbours(&self, set: u8) -> u8 {
        (0..MAX_POINTS)
            .filter(|&i| set & (1 << i) != 0)
            .fold(0, |acc, i| acc | self.adjacent[i])
    }

    /// The defender's stones joined to the enclosing chain (they share its liberties).
    fn group(&self, defender: u8) -> u8 {
        self.flood(defender & self.touches_chain, defender)
    }

    /// The liberties of the enclosing chain and the stones joined to it.
    fn group_liberties(&self, defender: u8, empty: u8) -> u8 {
        (self.touches_chain | self.neighbours(self.group(defender))) & empty
    }

    /// The chain of `stones` through `seed` and its liberties.
    fn chain(&self, seed: u8, stones: u8, empty: u8) -> (u8, u8) {
        let part = self.flood(seed, stones);
        (part, self.neighbours(part) & empty)
    }

    /// The same for a defender stone: joined to the enclosing chain, it has its liberties.
    fn defender_chain(&self, seed: u8, defender: u8, empty: u8) -> (u8, u8) {
        let group = self.group(defender);
        if group & seed != 0 {
            (group, self.group_liberties(defender, empty))
        } else {
            self.chain(seed, defender, empty)
        }
    }

    /// The connected part of `stones` that contains `seed`.
    fn flood(&self, seed: u8, stones: u8) -> u8 {
        let mut part = seed & stones;
        loop {
            let grown = part | (self.neighbours(part) & stones);
            if grown == part {
                return part;
            }
            part = grown;
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Node {
    defender: u8,
    attacker: u8,
    attacker_to_move: bool,
    /// The point the side to move may not take back at once.
    ko: Option<u8>,
    passed: bool,
}

struct Reader<'a> {
    space: &'a Space,
    /// Per node: the result and the depth it was read to (a win for the attacker holds
    /// at any greater depth; survival only up to the depth read).
    memo: HashMap<Node, (bool, u8)>,
}

/// The result of a move: the next node, or the enclosing chain captured.
enum After {
    Next(Node),
    Captured,
}

impl Reader<'_> {
    fn attacker_wins(&mut self, node: Node, depth: u8) -> bool {
        if depth == 0 {
            return false;
        }
        if let Some(&(wins, read)) = self.memo.get(&node)
            && ((wins && read <= depth) || (!wins && read >= depth))
        {
            return wins;
        }
        // Passing: a second pass ends the game with the chain on the board.
        if node.passed && !node.attacker_to_move {
            return false;
        }
        let mut wins = !node.attacker_to_move;
        if !node.passed {
            let pass = Node {
                attacker_to_move: !node.attacker_to_move,
                ko: None,
                passed: true,
                ..node
            };
            wins = self.attacker_wins(pass, depth - 1);
        }
        let empty = self.space.all & !(node.defender | node.attacker);
        for i in 0..MAX_POINTS as u8 {
            if wins == node.attacker_to_move {
                break;
            }
            if empty & (1 << i) == 0 || node.ko == Some(i) {
                continue;
            }
            wins = match self.play(node, i) {
                Some(After::Captured) => true,
                Some(After::Next(next)) => self.attacker_wins(next, depth - 1),
                None => continue,
            };
        }
        self.memo.insert(node, (wins, depth));
        wins
    }

    /// Plays point `i` for the side to move: captures, no suicide, simple ko.
    fn play(&self, node: Node, i: u8) -> Option<After> {
        let space = self.space;
        let stone = 1u8 << i;
        let (mut defender, mut attacker) = (node.defender, node.attacker);
        if node.attacker_to_move {
            attacker |= stone;
        } else {
            defender |= stone;
        }
        let mut empty = space.all & !(defender | attacker);
        // Capture the chains next to the stone that have no liberty left.
        let mut captured = 0u8;
        let mut next_to = space.adjacent[i as usize]
            & if node.attacker_to_move {
                defender
            } else {
                attacker
            };
        while next_to != 0 {
            let seed = next_to & next_to.wrapping_neg();
            let (part, libs) = if node.attacker_to_move {
                space.defender_chain(seed, defender, empty)
            } else {
                space.chain(seed, attacker, empty)
            };
            next_to &= !part;
            if libs == 0 {
                captured |= part;
            }
        }
        if node.attacker_to_move {
            if space.group_liberties(defender, empty) == 0 {
                return Some(After::Captured);
            }
            defender &= !captured;
        } else {
            attacker &= !captured;
        }
        empty |= captured;
        let (mine, own_libs) = if node.attacker_to_move {
            space.chain(stone, attacker, empty)
        } else {
            space.defender_chain(stone, defender, empty)
        };
        if own_libs == 0 {
            return None;
        }
        let ko = (captured.count_ones() == 1 && mine == stone && own_libs == captured)
            .then(|| captured.trailing_zeros() as u8);
        Some(After::Next(Node {
            defender,
            attacker,
            attacker_to_move: !node.attacker_to_move,
            ko,
            passed: false,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_diagram;

    /// The enclosed region next to `stone` and the chain through `stone`'s neighbour.
    fn read(diagram: &str, inside: &str, wall: &str) -> Option<(bool, bool)> {
        let b = parse_diagram(diagram).unwrap();
        let size = b.size();
        let inside = size.parse_point(inside).unwrap();
        let wall = size.parse_point(wall).unwrap();
        let defender = b.color_at(wall).unwrap();
        let region = Bitboard::flood(
            Bitboard::from_iter([inside]),
            b.on_board() & !b.stones(defender),
            size,
        );
        capturable(&b, region, b.chain_stones(wall))
    }

    #[test]
    fn stones_inside_a_corner_space_can_be_thrown_in_to_leave_a_bulky_five() {
        // Fuego's scoring_final FX175: White's only liberties are D1 and G2; Black F1,
        // then the throw-in G2 leaves a bulky five, and F1 again kills.
        let corner = ". . . . . . .
                      . . . . . . .
                      X X X X X X X
                      X X X X O X X
                      X X X O O O O
                      X O O O O X .
                      X X O . X . X";
        assert_eq!(read(corner, "D1", "E2"), Some((true, true)));
    }

    #[test]
    fn a_straight_three_lives_only_when_its_owner_moves_first() {
        let three = ". . . . .
                     . . . . .
                     X X X X X
                     O O O O X
                     . . . O X";
        assert_eq!(read(three, "A1", "A2"), Some((true, false)));
    }

    #[test]
    fn a_bent_three_with_the_vital_point_taken_dies_and_two_eyes_are_not_read() {
        let bent = ". . . . .
                    X X X X .
                    O O X . .
                    . O O X .
                    X . O X .";
        assert_eq!(read(bent, "A2", "A3"), Some((true, true)));
        let two_eyes = ". . . . .
                        X X X X X
                        O O O O X
                        . O . O X
                        O O O O X";
        assert_eq!(read(two_eyes, "A2", "A3"), None);
    }

    #[test]
    fn stones_inside_make_a_seki_or_die_by_the_shape_their_capture_leaves() {
        // Black's B1-C1 and White share A1 and D1. Black throws in at A1, White takes
        // three and leaves a straight three, Black B1 kills.
        let three = ". . . . .
                     . . . . .
                     X X X X X
                     O O O O O
                     . X X . O";
        assert_eq!(read(three, "A1", "A2"), Some((true, true)));
        // With three stones inside, taking four leaves a straight four: seki.
        let four = ". . . . . .
                    . . . . . .
                    . . . . . .
                    X X X X X X
                    O O O O O O
                    . X X X . O";
        assert_eq!(read(four, "A1", "A2"), Some((false, false)));
    }

    #[test]
    fn a_straight_seven_lives_whoever_moves_first() {
        // The largest space read, empty: every line is searched.
        let seven = ". . . . . . .
                     . . . . . . .
                     . . . . . . .
                     . . . . . . .
                     X X X X X X X
                     O O O O O O O
                     . . . . . . .";
        assert_eq!(read(seven, "A1", "A2"), Some((false, false)));
    }
}
