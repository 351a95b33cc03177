//! Reading out a small enclosed space to the end. A chain whose liberties all lie in one
//! region of at most `MAX_POINTS` points that only this chain encloses is a closed little
//! game: nothing outside changes it (the wall's own safety aside). Playouts judge such
//! spaces badly when stones sit inside (a throw-in, a captured bulky five, a seki that is
//! not one), so this plays every line. Two questions: can the attacker capture the chain
//! (`capturable`, for the arbiter's eye shapes), and which local move ends with the most
//! points (`local_choice`, for a move that the search chose in such a space). Kos go to
//! whoever takes first (no threats at the end of the game: Japanese rules let the
//! attacker remove them first, and under area rules they are removed in play).

use crate::rules::{Bitboard, Board, Cell, Color, Point};
use std::collections::HashMap;

/// The largest space read (a bit set per colour).
pub const MAX_POINTS: usize = 12;

/// A set of points of the space, bit i for `Space::points[i]`.
type Set = u16;

/// Positions read at most for one question: a space too open to read gives no answer.
const NODE_BUDGET: u32 = 300_000;

/// Moves in a line at most when asking about capture: enough for the longest nakade
/// sequences of the spaces the arbiter reads (seven points).
const MAX_DEPTH: u8 = 40;

/// Moves in a line when counting points (a line cut short is counted as it stands).
const SCORE_DEPTH: u8 = 16;

/// The value of the enclosing chain's capture, beyond any count of the space.
const CAPTURED: i32 = -100;

/// Whether the attacker captures the chain when it moves first, and when the defender
/// does (`None` where the region is too large, not enclosed by that one chain alone, or
/// too open to read within the budget).
pub fn capturable(board: &Board, region: Bitboard, chain: Bitboard) -> Option<(bool, bool)> {
    let space = Space::new(board, region, chain)?;
    let mut reader = Reader::new(&space, Counting::Area);
    let start = Node {
        defender: space.defender_stones,
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
    (!reader.exhausted()).then_some((attacker_first, defender_first))
}

/// How the end of a local game counts (RULES.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// Stones and the empty points only one side touches.
    Area,
    /// Empty points of a space with no opposing stone left (a seki counts for nobody).
    Territory,
}

/// A local verdict: the best move for the side to move and what `candidate` is worth,
/// both in points from the space for that side after best play (the first best move of
/// equal ones; sente and gote look alike here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalChoice {
    /// `None`: no move in the space does better than leaving it.
    pub best: Option<Point>,
    pub best_value: i32,
    pub candidate_value: i32,
}

/// Reads the space that `chain` alone encloses for `mover` and compares its best move
/// with `candidate` (a point of the space): `None` when the space cannot be read.
pub fn local_choice(
    board: &Board,
    region: Bitboard,
    chain: Bitboard,
    mover: Color,
    candidate: Point,
    counting: Counting,
) -> Option<LocalChoice> {
    let space = Space::new(board, region, chain)?;
    let defender = board.color_at(chain.iter().next()?)?;
    let sign = if mover == defender { 1 } else { -1 };
    let mut reader = Reader::new(&space, counting);
    let start = Node {
        defender: space.defender_stones,
        attacker: space.attacker_stones,
        attacker_to_move: mover != defender,
        ko: None,
        passed: false,
    };
    let pass = Node {
        attacker_to_move: !start.attacker_to_move,
        passed: true,
        ..start
    };
    let leave = sign * reader.defender_points(pass, SCORE_DEPTH);
    let mut choice = LocalChoice {
        best: None,
        best_value: leave,
        candidate_value: leave,
    };
    for (i, &p) in space.points.iter().enumerate() {
        let value = match reader.legal_play(start, i as u8) {
            Some(After::Captured) => sign * CAPTURED,
            Some(After::Next(next)) => {
                sign * (reader.prisoners(start, next)
                    + reader.defender_points(next, SCORE_DEPTH - 1))
            }
            None => continue,
        };
        if p == candidate {
            choice.candidate_value = value;
        }
        if value > choice.best_value {
            choice.best = Some(p);
            choice.best_value = value;
        }
    }
    (!reader.exhausted()).then_some(choice)
}

/// The small spaces around `p` that one chain alone encloses (of either colour): the
/// points reachable from `p` without crossing the chain, with every liberty of the chain
/// among them.
pub fn spaces_around(board: &Board, p: Point) -> Vec<(Bitboard, Bitboard)> {
    let size = board.size();
    let on = board.on_board();
    board
        .chains()
        .into_iter()
        .filter(|chain| {
            let stone = chain.iter().next().expect("a chain has a stone");
            board.chain_liberties(stone).count() as usize <= MAX_POINTS
        })
        .filter_map(|chain| {
            let region = Bitboard::flood(Bitboard::from_iter([p]), on & !chain, size);
            let stone = chain.iter().next()?;
            let enclosed = region.count() as usize <= MAX_POINTS
                && (board.chain_liberties(stone) & !region).is_empty();
            enclosed.then_some((region, chain))
        })
        .collect()
}

/// Whether the walls around `enclosing` (a `defender` group) hold while the space is
/// played out: no opposing chain next to it outside the space is in atari, so the group
/// cannot capture its way out first. (Fewer liberties than the group is no race: a wall
/// is usually part of a living group.)
pub fn walls_hold(board: &Board, region: Bitboard, enclosing: Bitboard, defender: Color) -> bool {
    let size = board.size();
    let on = board.on_board();
    let walls = enclosing.neighbours(size, &on) & board.stones(defender.opponent()) & !region;
    walls.iter().all(|w| board.chain_liberties(w).count() > 1)
}

/// The region as a graph of at most `MAX_POINTS` points (bit i is `points[i]`).
struct Space {
    /// Neighbours within the region, per point.
    adjacent: [Set; MAX_POINTS],
    /// Points next to the enclosing chain (its liberties when empty).
    touches_chain: Set,
    attacker_stones: Set,
    /// Defender stones inside, not (yet) joined to the enclosing chain.
    defender_stones: Set,
    all: Set,
    points: Vec<Point>,
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
            defender_stones: 0,
            all: ((1u32 << points.len()) - 1) as Set,
            points: points.clone(),
        };
        for (i, &p) in points.iter().enumerate() {
            match board.cell(p) {
                Cell::Empty => {}
                Cell::Stone(c) if c != defender => space.attacker_stones |= 1 << i,
                Cell::Stone(_) if chain.contains(p) => return None,
                Cell::Stone(_) => space.defender_stones |= 1 << i,
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

    fn neighbours(&self, set: Set) -> Set {
        (0..MAX_POINTS)
            .filter(|&i| set & (1 << i) != 0)
            .fold(0, |acc, i| acc | self.adjacent[i])
    }

    /// The defender's stones joined to the enclosing chain (they share its liberties).
    fn group(&self, defender: Set) -> Set {
        self.flood(defender & self.touches_chain, defender)
    }

    /// The liberties of the enclosing chain and the stones joined to it.
    fn group_liberties(&self, defender: Set, empty: Set) -> Set {
        (self.touches_chain | self.neighbours(self.group(defender))) & empty
    }

    /// The chain of `stones` through `seed` and its liberties.
    fn chain(&self, seed: Set, stones: Set, empty: Set) -> (Set, Set) {
        let part = self.flood(seed, stones);
        (part, self.neighbours(part) & empty)
    }

    /// The same for a defender stone: joined to the enclosing chain, it has its liberties.
    fn defender_chain(&self, seed: Set, defender: Set, empty: Set) -> (Set, Set) {
        let group = self.group(defender);
        if group & seed != 0 {
            (group, self.group_liberties(defender, empty))
        } else {
            self.chain(seed, defender, empty)
        }
    }

    /// The connected part of `stones` that contains `seed`.
    fn flood(&self, seed: Set, stones: Set) -> Set {
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
    defender: Set,
    attacker: Set,
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
    counting: Counting,
    /// Per node and depth left: the defender's points.
    points: HashMap<(Node, u8), i32>,
    /// Positions read so far (reading stops at `NODE_BUDGET`, and its answer is void).
    visited: u32,
}

/// The result of a move: the next node, or the enclosing chain captured.
enum After {
    Next(Node),
    Captured,
}

impl<'a> Reader<'a> {
    fn new(space: &'a Space, counting: Counting) -> Reader<'a> {
        Reader {
            space,
            memo: HashMap::new(),
            counting,
            points: HashMap::new(),
            visited: 0,
        }
    }

    /// Counts a position read; false once the budget is spent.
    fn within_budget(&mut self) -> bool {
        self.visited += 1;
        self.visited <= NODE_BUDGET
    }

    fn exhausted(&self) -> bool {
        self.visited > NODE_BUDGET
    }

    /// The defender's points from the space after best play by both (the attacker
    /// minimises them), `depth` moves at most.
    fn defender_points(&mut self, node: Node, depth: u8) -> i32 {
        if depth == 0 || node.passed && !self.can_move(node) {
            return self.count(node);
        }
        if let Some(&v) = self.points.get(&(node, depth)) {
            return v;
        }
        if !self.within_budget() {
            return self.count(node);
        }
        let maximise = !node.attacker_to_move;
        // Passing: a second pass ends the local game.
        let mut best = if node.passed {
            self.count(node)
        } else {
            let pass = Node {
                attacker_to_move: !node.attacker_to_move,
                ko: None,
                passed: true,
                ..node
            };
            self.defender_points(pass, depth - 1)
        };
        for i in 0..self.space.points.len() as u8 {
            let value = match self.legal_play(node, i) {
                Some(After::Captured) => CAPTURED,
                Some(After::Next(next)) => {
                    self.prisoners(node, next) + self.defender_points(next, depth - 1)
                }
                None => continue,
            };
            if (maximise && value > best) || (!maximise && value < best) {
                best = value;
            }
        }
        self.points.insert((node, depth), best);
        best
    }

    /// The prisoners a move takes, counted for the defender (territory rules only: under
    /// area rules a capture is worth only the points it frees, which the count sees).
    /// Without them a throw-in would cost nothing, and the attacker could keep one stone
    /// inside to the end of any line.
    fn prisoners(&self, before: Node, after: Node) -> i32 {
        if self.counting == Counting::Area {
            return 0;
        }
        let taken = |b: Set, a: Set| (b & !a).count_ones() as i32;
        taken(before.attacker, after.attacker) - taken(before.defender, after.defender)
    }

    fn can_move(&self, node: Node) -> bool {
        (0..self.space.points.len() as u8).any(|i| self.legal_play(node, i).is_some())
    }

    fn legal_play(&self, node: Node, i: u8) -> Option<After> {
        let empty = self.space.all & !(node.defender | node.attacker);
        if empty & (1 << i) == 0 || node.ko == Some(i) {
            return None;
        }
        self.play(node, i)
    }

    /// The defender's points when the local game stops here.
    fn count(&self, node: Node) -> i32 {
        let space = self.space;
        let empty = space.all & !(node.defender | node.attacker);
        let near_attacker = space.neighbours(node.attacker);
        let near_defender = space.neighbours(node.defender) | space.touches_chain;
        let n = |set: Set| set.count_ones() as i32;
        match self.counting {
            Counting::Area => {
                n(node.defender) + n(empty & !near_attacker)
                    - n(node.attacker)
                    - n(empty & near_attacker & !near_defender)
            }
            // Opposing stones left standing: a seki, whose points count for nobody.
            Counting::Territory if node.attacker == 0 => n(empty),
            Counting::Territory => 0,
        }
    }

    fn attacker_wins(&mut self, node: Node, depth: u8) -> bool {
        if depth == 0 {
            return false;
        }
        if let Some(&(wins, read)) = self.memo.get(&node)
            && ((wins && read <= depth) || (!wins && read >= depth))
        {
            return wins;
        }
        if !self.within_budget() {
            return false;
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
        for i in 0..self.space.points.len() as u8 {
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
        let stone: Set = 1 << i;
        let (mut defender, mut attacker) = (node.defender, node.attacker);
        if node.attacker_to_move {
            attacker |= stone;
        } else {
            defender |= stone;
        }
        let mut empty = space.all & !(defender | attacker);
        // Capture the chains next to the stone that have no liberty left.
        let mut captured: Set = 0;
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

    /// The diagram, the space through `inside` that the chain through `wall` encloses,
    /// and that chain.
    fn space(diagram: &str, inside: &str, wall: &str) -> (Board, Bitboard, Bitboard) {
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
        let chain = b.chain_stones(wall);
        (b, region, chain)
    }

    fn read(diagram: &str, inside: &str, wall: &str) -> Option<(bool, bool)> {
        let (b, region, chain) = space(diagram, inside, wall);
        capturable(&b, region, chain)
    }

    /// `local_choice` in that space for `mover`, the move at `candidate` compared; the
    /// best move by name.
    fn choose(
        diagram: &str,
        wall: &str,
        mover: Color,
        candidate: &str,
        counting: Counting,
    ) -> (Option<String>, LocalChoice) {
        let (b, region, chain) = space(diagram, candidate, wall);
        let size = b.size();
        let candidate = size.parse_point(candidate).unwrap();
        let choice = local_choice(&b, region, chain, mover, candidate, counting).unwrap();
        (choice.best.map(|p| size.name(p)), choice)
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

    #[test]
    fn the_local_choice_takes_the_vital_point_for_either_side() {
        let three = ". . . . .
                     . . . . .
                     X X X X X
                     O O O O X
                     . . . O X";
        // Black kills at B1 (the capture outweighs any count); A1 lets White live.
        let (best, black) = choose(three, "A2", Color::Black, "A1", Counting::Area);
        assert_eq!(best.as_deref(), Some("B1"));
        assert_eq!(black.best_value, -CAPTURED);
        assert!(black.candidate_value < black.best_value);
        // White lives at B1 with two eyes: two points of territory.
        let (best, white) = choose(three, "A2", Color::White, "A1", Counting::Territory);
        assert_eq!(best.as_deref(), Some("B1"));
        assert_eq!(white.best_value, 2);
    }

    #[test]
    fn prisoners_count_under_territory_rules() {
        // White's B1 is dead inside Black's four points: Black takes it (two points of
        // territory and a prisoner under territory rules; four points of area).
        let four = ". . . . . .
                    . . . . . .
                    . . . . . .
                    O O O O O O
                    X X X X X O
                    . O . . X O";
        let read = |counting| choose(four, "A2", Color::Black, "D1", counting).1;
        assert_eq!(read(Counting::Territory).best_value, 3);
        assert_eq!(read(Counting::Area).best_value, 4);
    }
}
