//! Reading out a small closed space to the end. A region of at most `MAX_POINTS` points
//! is a closed little game when everything around it either holds whatever happens
//! inside (chains with two liberties outside) or is one of the defender's chains whose
//! liberties all lie inside (their capture ends the game). Playouts judge such spaces
//! badly when stones sit inside (a throw-in, a captured bulky five, a seki that is not
//! one), so this plays every line. Two questions: can the attacker capture the chain that
//! alone encloses a space (`capturable`, for the arbiter's eye shapes; kos go to whoever
//! takes first), and what a local game is worth to the side to move, by miai counting
//! (`read_game`, for the last moves of a game; the attacker wins kos there, since a ko for
//! the whole group costs it little). Under territory rules the count at the end takes
//! dead stones off as prisoners, as the rules do, rather than asking for their capture.

use crate::rules::{Bitboard, Board, Cell, Color, Point};
use std::collections::HashMap;
use std::time::Instant;

/// The largest space read (a bit set per colour).
pub const MAX_POINTS: usize = 12;

/// A set of points of the space, bit i for `Space::points[i]`.
type Set = u16;

/// Positions read at most for one question: a space too open to read gives no answer.
const NODE_BUDGET: u32 = 1_000_000;

/// Moves in a line at most when asking about capture: enough for the longest nakade
/// sequences of the spaces the arbiter reads (seven points).
const MAX_DEPTH: u8 = 40;

/// Moves in a line when counting points (a line cut short is counted as it stands).
const SCORE_DEPTH: u8 = 40;

/// A value read with this many moves left stands for any depth (positions recur at
/// many depths through passes and kos; reading each again would multiply the work).
const DEEP_ENOUGH: u8 = 12;

/// Whether the attacker captures the chain when it moves first, and when the defender
/// does (`None` where the region is too large, not enclosed by that one chain alone, or
/// too open to read within the budget).
pub fn capturable(board: &Board, region: Bitboard, chain: Bitboard) -> Option<(bool, bool)> {
    let space = Space::enclosed_by(board, region, chain)?;
    let mut reader = Reader::new(&space, Counting::Area, false);
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

/// A small local game: the points read (empty points and the stones on them), the
/// defender's chains that enclose them (all of their liberties inside: their capture
/// ends the game; none for a chain in atari in the open), and the defender. Every other
/// stone next to the region belongs to a wall that holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalGame {
    pub region: Bitboard,
    pub enclosing: Bitboard,
    pub defender: Color,
}

/// A local game read for the side to move, in points of the rules' count for that side
/// (miai counting: each side's best first move, answered, and the follow-up it threatens).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The mover's best first move (`None`: no move gains on leaving the game); of equal
    /// ones, the one that leaves the opponent the least threat, then the one that
    /// threatens most.
    pub best: Option<Point>,
    /// The mover's result after `best` and the best answer.
    pub first: i32,
    /// The mover's result when the opponent moves first.
    pub second: i32,
    /// What moving again after `best` would gain the mover (unanswered).
    pub threat: i32,
    /// What moving again after its own best first move would gain the opponent.
    pub opponent_threat: i32,
    /// The mover's result after the candidate move asked about (`first` when none).
    pub candidate: i32,
}

impl Verdict {
    /// What moving first is worth over letting the opponent do so (deiri).
    pub fn gain(&self) -> i32 {
        self.first - self.second
    }

    /// The opponent must answer `best`: its follow-up threatens more than the game.
    pub fn sente(&self) -> bool {
        self.threat > self.gain()
    }

    /// The opponent's first move here would be sente for it.
    pub fn reverse_sente(&self) -> bool {
        self.opponent_threat > self.gain()
    }
}

/// Reads `game` for `mover`, with `candidate` (a point of the region) valued too: `None`
/// when the game is not closed or too open to read, or the reading runs past `deadline`.
pub fn read_game(
    board: &Board,
    game: &LocalGame,
    mover: Color,
    candidate: Option<Point>,
    counting: Counting,
    deadline: Option<Instant>,
) -> Option<Verdict> {
    let space = Space::new(board, game.region, game.enclosing, game.defender)?;
    let sign = if mover == game.defender { 1 } else { -1 };
    let mut reader = Reader::new(&space, counting, true);
    reader.deadline = deadline;
    let start = Node {
        defender: space.defender_stones,
        attacker: space.attacker_stones,
        attacker_to_move: mover != game.defender,
        ko: None,
        passed: false,
    };
    let mine = reader.first_moves(start, sign, candidate, true);
    let theirs = reader.first_moves(
        Node {
            attacker_to_move: !start.attacker_to_move,
            ..start
        },
        -sign,
        None,
        true,
    );
    let verdict = Verdict {
        best: mine.best,
        first: mine.value,
        second: -theirs.value,
        threat: mine.threat,
        opponent_threat: theirs.threat,
        candidate: mine.candidate,
    };
    (!reader.exhausted()).then_some(verdict)
}

/// A first move read: its index, its value, and the node after it with the prisoners
/// taken (`None` when it captures the enclosing chain).
struct Tried {
    index: usize,
    value: i32,
    after: Option<(Node, i32)>,
}

/// The best first move at a node, for the side with sign `sign` (+1 the defender).
struct FirstMoves {
    best: Option<Point>,
    value: i32,
    threat: i32,
    candidate: i32,
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

/// The enclosing chains a space may have (more read as no closed game).
const MAX_ENCLOSING: usize = 4;

/// The liberties reported for a chain joined to a wall that holds: never captured here.
const SAFE: Set = Set::MAX;

/// The region as a graph of at most `MAX_POINTS` points (bit i is `points[i]`), with what
/// lies around it: the defender's enclosing chains (all of their liberties inside, so
/// they can be captured) and walls that hold (chains with two liberties outside).
struct Space {
    /// Neighbours within the region, per point.
    adjacent: [Set; MAX_POINTS],
    /// Per enclosing chain: the points next to it (its liberties when empty).
    enclosing: [Set; MAX_ENCLOSING],
    enclosing_count: usize,
    /// Points next to any enclosing chain.
    near_enclosing: Set,
    /// Points next to a wall that holds, per side: stones there join it and are safe.
    safe_defender: Set,
    safe_attacker: Set,
    /// The defender's points when an enclosing chain is captured: the space and the
    /// enclosing stones go to the attacker (the stones count twice: lost and gained).
    captured: i32,
    attacker_stones: Set,
    /// Defender stones inside, not (yet) joined to an enclosing chain.
    defender_stones: Set,
    all: Set,
    points: Vec<Point>,
}

impl Space {
    /// The space `region` when `chain` alone encloses it.
    fn enclosed_by(board: &Board, region: Bitboard, chain: Bitboard) -> Option<Space> {
        let defender = board.color_at(chain.iter().next()?)?;
        let space = Space::new(board, region, chain, defender)?;
        (space.enclosing_count == 1 && space.safe_defender | space.safe_attacker == 0)
            .then_some(space)
    }

    /// The space `region` with the `defender`'s chains `enclosing` around it, or `None`
    /// where it is too large, has next to it an empty point outside or a wall with fewer
    /// than two liberties outside, or more than `MAX_ENCLOSING` enclosing chains.
    fn new(board: &Board, region: Bitboard, enclosing: Bitboard, defender: Color) -> Option<Space> {
        let points: Vec<Point> = region.iter().collect();
        if points.is_empty() || points.len() > MAX_POINTS || !(region & enclosing).is_empty() {
            return None;
        }
        let chains: Vec<Bitboard> = enclosing.components(board.size());
        if chains.len() > MAX_ENCLOSING {
            return None;
        }
        for chain in &chains {
            let stone = chain.iter().next()?;
            if board.color_at(stone) != Some(defender)
                || !(board.chain_liberties(stone) & !region).is_empty()
            {
                return None;
            }
        }
        let on = board.on_board();
        let index = |p: Point| points.iter().position(|&q| q == p);
        let mut space = Space {
            adjacent: [0; MAX_POINTS],
            enclosing: [0; MAX_ENCLOSING],
            enclosing_count: chains.len(),
            near_enclosing: 0,
            captured: -(points.len() as i32 + 2 * enclosing.count() as i32),
            safe_defender: 0,
            safe_attacker: 0,
            attacker_stones: 0,
            defender_stones: 0,
            all: ((1u32 << points.len()) - 1) as Set,
            points: points.clone(),
        };
        for (i, &p) in points.iter().enumerate() {
            match board.cell(p) {
                Cell::Empty => {}
                Cell::Stone(c) if c != defender => space.attacker_stones |= 1 << i,
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
                } else if let Some(k) = chains.iter().position(|c| c.contains(q)) {
                    space.enclosing[k] |= 1 << i;
                } else {
                    // A wall must hold while the space is played out, whatever is
                    // joined to it: two liberties outside.
                    let wall = board.color_at(q)?;
                    if (board.chain_liberties(q) & !region).count() < 2 {
                        return None;
                    }
                    if wall == defender {
                        space.safe_defender |= 1 << i;
                    } else {
                        space.safe_attacker |= 1 << i;
                    }
                }
            }
        }
        space.near_enclosing = space.enclosing.iter().fold(0, |acc, &t| acc | t);
        Some(space)
    }

    fn neighbours(&self, set: Set) -> Set {
        (0..MAX_POINTS)
            .filter(|&i| set & (1 << i) != 0)
            .fold(0, |acc, i| acc | self.adjacent[i])
    }

    /// Points next to the defender: its stones, its enclosing chains and its walls.
    fn near_defender(&self, defender: Set) -> Set {
        self.neighbours(defender) | self.near_enclosing | self.safe_defender
    }

    fn near_attacker(&self, attacker: Set) -> Set {
        self.neighbours(attacker) | self.safe_attacker
    }

    /// The attacker's chain through `seed` and its liberties (`SAFE` when it joins a wall).
    fn attacker_chain(&self, seed: Set, attacker: Set, empty: Set) -> (Set, Set) {
        let part = self.flood(seed, attacker);
        if part & self.safe_attacker != 0 {
            return (part, SAFE);
        }
        (part, self.neighbours(part) & empty)
    }

    /// The defender's chain through `seed`: its stones inside, joined through the
    /// enclosing chains they touch (whose liberties they share), and its liberties
    /// (`SAFE` when it joins a wall that holds).
    fn defender_chain(&self, seed: Set, defender: Set, empty: Set) -> (Set, Set) {
        self.defender_group(self.flood(seed, defender), 0, defender, empty)
    }

    /// The liberties of enclosing chain `k` with everything joined to it.
    fn enclosing_liberties(&self, k: usize, defender: Set, empty: Set) -> Set {
        let touching = self.flood(self.enclosing[k] & defender, defender);
        self.defender_group(touching, 1 << k, defender, empty).1
    }

    /// Grows a defender group (stones `part`, enclosing chains `joined` as bits) through
    /// the chains its stones touch, to its stones and liberties.
    fn defender_group(
        &self,
        mut part: Set,
        mut joined: u8,
        defender: Set,
        empty: Set,
    ) -> (Set, Set) {
        loop {
            let mut grown = part;
            for k in 0..self.enclosing_count {
                if joined & (1 << k) != 0 || part & self.enclosing[k] != 0 {
                    joined |= 1 << k;
                    grown |= self.enclosing[k] & defender;
                }
            }
            grown = self.flood(grown, defender);
            if grown == part {
                break;
            }
            part = grown;
        }
        if part & self.safe_defender != 0 {
            return (part, SAFE);
        }
        let chains = (0..self.enclosing_count)
            .filter(|&k| joined & (1 << k) != 0)
            .fold(0, |acc, k| acc | self.enclosing[k]);
        (part, (chains | self.neighbours(part)) & empty)
    }

    /// Whether the defender can take the attacker chain `part` (not joined to a wall) by
    /// filling its liberties one by one without leaving the filling stones in atari
    /// (unless the fill takes it): dead stones to take off at the end; if not, a seki.
    fn fillable(&self, part: Set, mut defender: Set, attacker: Set) -> bool {
        loop {
            let empty = self.all & !(defender | attacker);
            let liberties = self.neighbours(part) & empty;
            if liberties.count_ones() <= 1 {
                return true;
            }
            let fill = (0..MAX_POINTS).map(|i| 1 << i).find(|&l: &Set| {
                liberties & l != 0 && {
                    let (_, own) = self.defender_chain(l, defender | l, empty & !l);
                    own == SAFE || own.count_ones() >= 2
                }
            });
            match fill {
                Some(l) => defender |= l,
                None => return false,
            }
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
    /// Per node: the defender's points, the depth they were read to, and whether they
    /// are exact or a bound (alpha-beta).
    points: HashMap<Node, (i32, u8, Bound)>,
    /// Positions read so far (reading stops at `NODE_BUDGET`, and its answer is void).
    visited: u32,
    /// The attacker may take a ko back at once (it has the threats): counting reads
    /// assume this, since a ko for the whole group costs the attacker little.
    attacker_wins_kos: bool,
    /// Reading past this instant stops, as a spent budget does (a move's time).
    deadline: Option<Instant>,
}

/// What a stored value of an alpha-beta read is.
#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The result of a move: the next node, or the enclosing chain captured.
enum After {
    Next(Node),
    Captured,
}

impl<'a> Reader<'a> {
    fn new(space: &'a Space, counting: Counting, attacker_wins_kos: bool) -> Reader<'a> {
        Reader {
            space,
            memo: HashMap::new(),
            counting,
            points: HashMap::new(),
            visited: 0,
            attacker_wins_kos,
            deadline: None,
        }
    }

    /// Counts a position read; false once the budget is spent.
    fn within_budget(&mut self) -> bool {
        const CLOCK_EVERY: u32 = 1024;
        self.visited += 1;
        if self.visited.is_multiple_of(CLOCK_EVERY)
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.visited = NODE_BUDGET + 1;
        }
        self.visited <= NODE_BUDGET
    }

    fn exhausted(&self) -> bool {
        self.visited > NODE_BUDGET
    }

    /// The defender's points after best play by both (the attacker minimises them),
    /// `depth` moves at most.
    fn defender_points(&mut self, node: Node, depth: u8) -> i32 {
        self.bounded_points(node, depth, i32::MIN + 1, i32::MAX - 1)
    }

    /// `defender_points` by alpha-beta: exact inside (`alpha`, `beta`), otherwise a bound
    /// on the side the window excludes.
    fn bounded_points(&mut self, node: Node, depth: u8, mut alpha: i32, mut beta: i32) -> i32 {
        if depth == 0 || node.passed && !self.can_move(node) {
            return self.count(node);
        }
        // A line read at least as deep is as good an answer (and transpositions reached
        // at other depths would otherwise be read again).
        if let Some(&(value, read, bound)) = self.points.get(&node)
            && read >= depth.min(DEEP_ENOUGH)
        {
            match bound {
                Bound::Exact => return value,
                Bound::Lower => alpha = alpha.max(value),
                Bound::Upper => beta = beta.min(value),
            }
            if alpha >= beta {
                return value;
            }
        }
        if !self.within_budget() {
            return self.count(node);
        }
        let (alpha0, beta0) = (alpha, beta);
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
            self.bounded_points(pass, depth - 1, alpha, beta)
        };
        for i in 0..self.space.points.len() as u8 {
            if maximise {
                alpha = alpha.max(best);
            } else {
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
            let value = match self.legal_play(node, i) {
                Some(After::Captured) => self.space.captured,
                Some(After::Next(next)) => {
                    let taken = self.prisoners(node, next);
                    taken + self.bounded_points(next, depth - 1, alpha - taken, beta - taken)
                }
                None => continue,
            };
            if (maximise && value > best) || (!maximise && value < best) {
                best = value;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.points.insert(node, (best, depth, bound));
        best
    }

    /// The best first move at `node` for the side with sign `sign` (+1 the defender),
    /// in its points: leaving the game (a pass) unless a move does better. Of equal
    /// moves, with `weigh_aji`, the one that leaves the opponent the smallest threat,
    /// then the one whose follow-up, unanswered, gains most. With no move gaining, the
    /// threat is that of the biggest forcing move that loses nothing.
    fn first_moves(
        &mut self,
        node: Node,
        sign: i32,
        candidate: Option<Point>,
        weigh_aji: bool,
    ) -> FirstMoves {
        let leave = Node {
            attacker_to_move: !node.attacker_to_move,
            passed: true,
            ..node
        };
        let leave = sign * self.defender_points(leave, SCORE_DEPTH);
        let mut moves = FirstMoves {
            best: None,
            value: leave,
            threat: 0,
            candidate: leave,
        };
        // The value of every move first; threats only for the best.
        let mut tried: Vec<Tried> = Vec::new();
        for i in 0..self.space.points.len() {
            let entry = match self.legal_play(node, i as u8) {
                Some(After::Captured) => Tried {
                    index: i,
                    value: sign * self.space.captured,
                    after: None,
                },
                Some(After::Next(next)) => {
                    let taken = self.prisoners(node, next);
                    Tried {
                        index: i,
                        value: sign * (taken + self.defender_points(next, SCORE_DEPTH - 1)),
                        after: Some((next, taken)),
                    }
                }
                None => continue,
            };
            if Some(self.space.points[i]) == candidate {
                moves.candidate = entry.value;
            }
            tried.push(entry);
        }
        let top = tried.iter().map(|t| t.value).max().unwrap_or(leave);
        if candidate.is_none() {
            moves.candidate = top.max(leave);
        }
        // No move gains: still, the biggest threat of those that lose nothing (a forcing
        // move that leaves aji).
        if top < leave {
            return moves;
        }
        let mut best_aji = 0;
        for Tried {
            index,
            value,
            after,
        } in tried.into_iter().filter(|t| t.value == top)
        {
            let (threat, aji) = match after {
                None => (0, 0),
                Some((next, taken)) => {
                    let again = Node {
                        attacker_to_move: !next.attacker_to_move,
                        ko: None,
                        ..next
                    };
                    let again = sign * (taken + self.defender_points(again, SCORE_DEPTH - 1));
                    let aji = if weigh_aji {
                        self.first_moves(next, -sign, None, false).threat
                    } else {
                        0
                    };
                    (again - value, aji)
                }
            };
            let better = moves.best.is_none()
                || aji < best_aji
                || (aji == best_aji && threat > moves.threat);
            if better {
                moves.best = Some(self.space.points[index]);
                moves.value = value;
                moves.threat = threat;
                best_aji = aji;
            }
        }
        if top == leave {
            moves.best = None;
        }
        moves
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
        let banned = node.ko == Some(i) && !(self.attacker_wins_kos && node.attacker_to_move);
        if empty & (1 << i) == 0 || banned {
            return None;
        }
        self.play(node, i)
    }

    /// The defender's points when the local game stops here: each empty area counts for
    /// the one side it touches, and stones under area rules. Under territory rules dead
    /// stones are taken off first, as prisoners (opposing chains the defender can fill
    /// out, and its own chains in atari that join nothing), and a seki (an opposing chain
    /// it cannot fill out, in a space with enclosing chains) counts for nobody.
    fn count(&self, node: Node) -> i32 {
        let space = self.space;
        let n = |set: Set| set.count_ones() as i32;
        let (mut defender, mut attacker) = (node.defender, node.attacker);
        let mut prisoners = 0;
        if self.counting == Counting::Territory {
            let empty = space.all & !(defender | attacker);
            let mut rest = attacker;
            while rest != 0 {
                let (part, libs) =
                    space.attacker_chain(rest & rest.wrapping_neg(), attacker, empty);
                rest &= !part;
                if libs == SAFE {
                    continue;
                }
                if !space.fillable(part, defender, attacker) {
                    if space.enclosing_count > 0 {
                        return 0;
                    }
                    continue;
                }
                attacker &= !part;
                prisoners += n(part);
            }
            let mut rest = defender;
            while rest != 0 {
                let (part, libs) =
                    space.defender_chain(rest & rest.wrapping_neg(), defender, empty);
                rest &= !part;
                let joined = part & space.near_enclosing != 0;
                if libs != SAFE && !joined && libs.count_ones() == 1 {
                    defender &= !part;
                    prisoners -= n(part);
                }
            }
        }
        let empty = space.all & !(defender | attacker);
        let near_defender = space.near_defender(defender);
        let near_attacker = space.near_attacker(attacker);
        let mut points = prisoners;
        let mut rest = empty;
        while rest != 0 {
            let area = space.flood(rest & rest.wrapping_neg(), empty);
            rest &= !area;
            match (area & near_defender != 0, area & near_attacker != 0) {
                (true, false) => points += n(area),
                (false, true) => points -= n(area),
                _ => {}
            }
        }
        if self.counting == Counting::Area {
            points += n(defender) - n(attacker);
        }
        points
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
        for i in 0..self.space.points.len() as u8 {
            if wins == node.attacker_to_move {
                break;
            }
            wins = match self.legal_play(node, i) {
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
                space.attacker_chain(seed, attacker, empty)
            };
            next_to &= !part;
            if libs == 0 {
                captured |= part;
            }
        }
        if node.attacker_to_move {
            if (0..space.enclosing_count)
                .any(|k| space.enclosing_liberties(k, defender, empty) == 0)
            {
                return Some(After::Captured);
            }
            defender &= !captured;
        } else {
            attacker &= !captured;
        }
        empty |= captured;
        let (mine, own_libs) = if node.attacker_to_move {
            space.attacker_chain(stone, attacker, empty)
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

    /// The space read as a local game for `mover`, the move at `candidate` valued; the
    /// best move by name.
    fn choose(
        diagram: &str,
        wall: &str,
        mover: Color,
        candidate: &str,
        counting: Counting,
    ) -> (Option<String>, Verdict) {
        let (b, region, chain) = space(diagram, candidate, wall);
        let size = b.size();
        let defender = b.color_at(size.parse_point(wall).unwrap()).unwrap();
        let game = LocalGame {
            region,
            enclosing: chain,
            defender,
        };
        let candidate = size.parse_point(candidate).unwrap();
        let verdict = read_game(&b, &game, mover, Some(candidate), counting, None).unwrap();
        (verdict.best.map(|p| size.name(p)), verdict)
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
        // Black kills at B1; A1 lets White live. The capture is worth the space (three
        // points) and White's five stones twice (lost, and Black's area).
        let (best, black) = choose(three, "A2", Color::Black, "A1", Counting::Area);
        assert_eq!(best.as_deref(), Some("B1"));
        assert_eq!(black.first, 13);
        assert!(black.candidate < black.first);
        // White lives at B1 with two eyes: two points of territory.
        let (best, white) = choose(three, "A2", Color::White, "A1", Counting::Territory);
        assert_eq!(best.as_deref(), Some("B1"));
        assert_eq!(white.first, 2);
    }

    #[test]
    fn prisoners_count_under_territory_rules() {
        // White's B1 dies inside Black's four points once Black plays C1 (else White C1
        // makes a seki). Under territory rules the dead stone comes off at the end: three
        // points and a prisoner; four points of area.
        let four = ". . . . . .
                    . . . . . .
                    . . . . . .
                    O O O O O O
                    X X X X X O
                    . O . . X O";
        let read = |counting| choose(four, "A2", Color::Black, "D1", counting).1;
        assert_eq!(read(Counting::Territory).first, 4);
        assert_eq!(read(Counting::Area).first, 4);
        assert_eq!(
            choose(four, "A2", Color::Black, "D1", Counting::Territory)
                .0
                .as_deref(),
            Some("C1")
        );
    }

    #[test]
    fn a_seki_made_in_sente_is_reverse_sente_for_the_owner() {
        // Black's corner: Black's B1 keeps five points; White's B2 makes a seki (nothing
        // for either side under territory rules) and threatens a ko for the whole group
        // (won by the attacker here), so Black must answer it.
        let corner = ". . . . . . .
                      . . . . . . .
                      O O O O O . .
                      X X O O . . .
                      . X X O O . .
                      . . X X O . .
                      . . . X O . .";
        let (best, black) = choose(corner, "D1", Color::Black, "A1", Counting::Territory);
        assert_eq!(
            best.as_deref(),
            Some("B1"),
            "A1 would leave White a forcing move"
        );
        assert_eq!((black.first, black.second), (5, 0));
        assert!(black.reverse_sente() && !black.sente());
        let (best, white) = choose(corner, "D1", Color::White, "A1", Counting::Territory);
        assert_eq!(best.as_deref(), Some("B2"));
        assert_eq!((white.first, white.second), (0, -5));
        assert!(white.sente());
    }

    #[test]
    fn a_reading_past_its_deadline_gives_no_verdict() {
        // An empty corner of eight points under a living wall: thousands of positions.
        let corner = ". . . . . . .
                      . . . . . . .
                      O O O O O . .
                      X X X X O . .
                      . . . X O . .
                      . . . X O . .
                      . . . X O . .";
        let (b, region, chain) = space(corner, "A1", "D1");
        let game = LocalGame {
            region,
            enclosing: chain,
            defender: Color::Black,
        };
        let read = |deadline| read_game(&b, &game, Color::White, None, Counting::Area, deadline);
        assert!(read(None).is_some(), "read in full without a deadline");
        assert!(
            read(Some(Instant::now())).is_none(),
            "stopped at the deadline"
        );
    }
}
