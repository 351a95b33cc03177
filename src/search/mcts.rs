//! One simulation: descend the tree from the root on a copy of the board, expand a leaf,
//! play out, and back the result up with AMAF (RAVE) statistics.

use super::network_priors::{Evaluator, Request, history_at};
use super::playout::{PlayoutLimits, playout};
use super::policy::PlayoutPolicy;
use super::priors::{Expansion, PriorWeights};
use super::tree::{ChildSpec, PASS, ROOT, Tree};
use crate::rules::{Bitboard, Board, CELLS, Color, Game, Point, Scoring, owned_regions};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use std::sync::atomic::{AtomicBool, Ordering};

/// Read-only facts every simulation of one search shares.
pub struct Context<'a> {
    pub game: &'a Game,
    pub color: Color,
    pub tree: &'a Tree,
    pub policy: &'a PlayoutPolicy,
    pub weights: PriorWeights,
    /// RAVE's k: the number of visits at which AMAF and Monte-Carlo weigh the same.
    pub rave_k: f32,
    /// See [`super::SearchParams::amaf_distance`].
    pub amaf_distance: u32,
    /// Visits a leaf needs before it is expanded.
    pub expand_after: u32,
    /// The move number from which passes enter the tree (none before, unless forced).
    pub pass_from_move: usize,
    /// `Game::passes_before` the root colour: a second one ends the game.
    pub passes_before: u32,
    pub komi: f64,
    /// Points White gets for handicap stones under area scoring.
    pub white_bonus: f64,
    /// See [`super::ScoreUtility`].
    pub score_utility: Option<super::ScoreUtility>,
    /// Learned move knowledge for the priors (`None`: hand priors).
    pub knowledge: Option<&'a crate::knowledge::Model>,
    /// The policy network's priors for the nodes that matter (`None`: not used).
    pub network: Option<&'a Evaluator<'a>>,
    /// The last moves before the root, for the network's input planes.
    pub root_history: crate::network::planes::History,
    /// See [`super::SearchParams::root_moves`].
    pub root_moves: Option<Bitboard>,
    /// Set when a tree move met a stone ([`super::SearchError::TreeMismatch`]): the
    /// workers stop.
    pub tree_mismatch: AtomicBool,
}

/// Per-thread scratch: nothing here is shared, and nothing is allocated per simulation.
pub struct Worker {
    pub rng: Pcg32,
    path: Vec<u32>,
    path_keys: Vec<(u64, Color)>,
    /// Every move of the simulation (tree and playout); passes as point index 0.
    trace: Vec<(Point, Color)>,
    first_player: Vec<u8>,
    /// Index in the trace of each point's first move (with `first_player`).
    first_index: Vec<u16>,
    children: Vec<ChildSpec>,
    strengths: Vec<f32>,
    /// Buffers for the network where it rates a node in this thread (made on first use).
    network_scratch: Option<crate::network::Scratch>,
    /// Sum over playouts of +1 (black) / -1 (white) ownership per mailbox cell.
    pub ownership: Vec<i32>,
    /// Sum of final margins (Black minus White, komi included).
    pub margin_sum: f64,
    /// Per root move (by tree move code: the pass 0, a point its index): the sum of the
    /// final margins of this worker's playouts through it, and their count.
    pub root_margins: Vec<(f64, u32)>,
    pub playouts: u64,
}

impl Worker {
    pub fn new(seed: u64) -> Worker {
        Worker {
            rng: Pcg32::seed_from_u64(seed),
            path: Vec::with_capacity(64),
            path_keys: Vec::with_capacity(64),
            trace: Vec::with_capacity(4 * CELLS),
            first_player: vec![0; CELLS],
            first_index: vec![0; CELLS],
            children: Vec::with_capacity(CELLS),
            strengths: Vec::with_capacity(CELLS),
            network_scratch: None,
            ownership: vec![0; CELLS],
            margin_sum: 0.0,
            root_margins: vec![(0.0, 0); CELLS],
            playouts: 0,
        }
    }
}

impl Worker {
    /// Whether no point has a first player recorded (true between simulations).
    #[cfg(test)]
    pub fn first_player_is_clear(&self) -> bool {
        self.first_player.iter().all(|&c| c == 0)
    }
}

const PASS_POINT: usize = 0;

impl Context<'_> {
    /// Whether the search may choose the root move `mv` (a tree move code) when the root
    /// is restricted: a pass, or one of `root_moves`.
    pub fn may_choose_at_root(&self, mv: u16) -> bool {
        mv == PASS
            || self
                .root_moves
                .is_none_or(|read| read.contains(Point::from_index(mv as usize)))
    }

    /// Whether the root's choice is restricted to `root_moves`: only when a move of theirs
    /// (not just the pass) is among the root's children `moves`; a root whose children
    /// hold none of them (a stale set) chooses among all.
    pub fn restricts_root(&self, mut moves: impl Iterator<Item = u16>) -> bool {
        self.root_moves.is_some() && moves.any(|mv| mv != PASS && self.may_choose_at_root(mv))
    }

    /// Black's margin on a finished board under the game's counting (no dead stones: a
    /// playout has captured them), and ownership added to the worker's sums.
    fn count(&self, board: &Board, worker: &mut Worker) -> f64 {
        let owned = owned_regions(board, &Bitboard::EMPTY);
        let black = board.stones(Color::Black);
        let white = board.stones(Color::White);
        for p in (black | owned.black).iter() {
            worker.ownership[p.index()] += 1;
        }
        for p in (white | owned.white).iter() {
            worker.ownership[p.index()] -= 1;
        }
        match self.game.ruleset().scoring() {
            Scoring::Area => {
                (black.count() + owned.black.count()) as f64
                    - (white.count() + owned.white.count()) as f64
                    - self.komi
                    - self.white_bonus
            }
            Scoring::Territory => {
                (owned.black.count() + board.captures(Color::Black)) as f64
                    - (owned.white.count() + board.captures(Color::White)) as f64
                    - self.komi
            }
        }
    }

    /// The root child to descend into when the root is restricted (`restricts_root`):
    /// the best by value among the moves it may choose, else among all.
    fn best_root_child(&self, children: &[super::tree::Node], inv_rave_k: f32) -> usize {
        let (mut best, mut best_allowed) = ((0, f32::NEG_INFINITY), None::<(usize, f32)>);
        let mut reads_a_child = false;
        for (k, child) in children.iter().enumerate() {
            let v = child.rave_value(inv_rave_k);
            if v > best.1 {
                best = (k, v);
            }
            if self.may_choose_at_root(child.mv()) {
                reads_a_child |= child.mv() != PASS;
                if best_allowed.is_none_or(|(_, b)| v > b) {
                    best_allowed = Some((k, v));
                }
            }
        }
        match best_allowed {
            Some((k, _)) if reads_a_child => k,
            _ => best.0,
        }
    }

    /// One simulation from the root.
    pub fn simulate(&self, w: &mut Worker) {
        let tree = self.tree;
        let game = self.game;
        let mut board = *game.board();
        let mut color = self.color;
        let mut passes = self.passes_before;
        let mut moves_played = game.record().len();
        let record = game.record();
        let recent = crate::knowledge::Recent::from_record(record, color);
        let (mut last, mut before) = (recent.last, recent.before);
        w.path.clear();
        w.path_keys.clear();
        w.trace.clear();

        let mut node = ROOT;
        let inv_rave_k = 1.0 / self.rave_k;
        // Black's result when the descent ends in a terminal node: 1 win, 0.5 draw, 0 loss.
        let mut terminal: Option<f32> = None;
        loop {
            w.path.push(node);
            tree.node(node).add_in_flight();
            if node != ROOT && tree.node(node).is_cycle() {
                terminal = Some(0.5);
                break;
            }
            if passes >= 2 || moves_played >= game.move_limit() {
                let margin = self.count(&board, w);
                self.add_margin(w, margin);
                terminal = Some(self.black_result(margin, &mut w.rng));
                break;
            }
            let (first, children) = match tree.child_nodes(node) {
                Some(c) => c,
                None => {
                    let ripe = node == ROOT || tree.node(node).visits() >= self.expand_after;
                    if !ripe || tree.is_full() || !tree.try_begin_expansion(node) {
                        break;
                    }
                    let expansion = Expansion {
                        game,
                        board: &board,
                        color,
                        recent: crate::knowledge::Recent { last, before },
                        path: &w.path_keys,
                        allow_pass: moves_played >= self.pass_from_move || passes > 0,
                        policy: self.policy,
                        weights: &self.weights,
                        knowledge: self.knowledge,
                    };
                    expansion.children(&mut w.children, &mut w.strengths);
                    tree.finish_expansion(node, &w.children);
                    match tree.child_nodes(node) {
                        Some(c) => c,
                        None => break,
                    }
                }
            };
            if let Some(network) = self.network {
                let n = tree.node(node);
                if (node == ROOT || n.visits() >= network.settings.threshold && network.has_room())
                    && !n.has_network()
                    && n.claim_network()
                {
                    let request = Request {
                        node,
                        board,
                        color,
                        history: history_at(&self.root_history, &w.trace),
                    };
                    network.submit(request, &mut w.network_scratch);
                }
            }
            let mut best_k = 0;
            let mut best_value = f32::NEG_INFINITY;
            if node == ROOT && self.root_moves.is_some() {
                best_k = self.best_root_child(children, inv_rave_k);
            } else {
                for (k, child) in children.iter().enumerate() {
                    let v = child.rave_value(inv_rave_k);
                    if v > best_value {
                        best_value = v;
                        best_k = k;
                    }
                }
            }
            let mv = children[best_k].mv();
            let best = first + best_k as u32;
            before = last;
            if mv == PASS {
                board.clear_ko();
                passes += 1;
                last = None;
                w.trace.push((Point::from_index(PASS_POINT), color));
            } else {
                let p = Point::from_index(mv as usize);
                // A tree kept for another position (which `RootKey` is there to prevent):
                // stop before the board is corrupted. One load of a cell a tree move.
                if board.color_at(p).is_some() {
                    self.tree_mismatch.store(true, Ordering::Relaxed);
                    return;
                }
                board.play_unchecked(p, color);
                passes = 0;
                last = Some(p);
                w.trace.push((p, color));
            }
            moves_played += 1;
            color = color.opponent();
            w.path_keys.push((board.hash(), color));
            node = best;
        }

        let result = match terminal {
            Some(r) => r,
            None => {
                let limits = PlayoutLimits {
                    suicide: game.ruleset().suicide(),
                    moves_played,
                    move_limit: game.move_limit(),
                    passes,
                };
                playout(
                    &mut board,
                    color,
                    limits,
                    self.policy,
                    last,
                    &mut w.rng,
                    &mut w.trace,
                );
                let margin = self.count(&board, w);
                self.add_margin(w, margin);
                self.black_result(margin, &mut w.rng)
            }
        };
        w.playouts += 1;
        self.back_up(w, result);
    }

    /// Adds a playout's final margin (Black's) to the worker's sums: the whole search's,
    /// and that of the root move it went through.
    fn add_margin(&self, w: &mut Worker, margin: f64) {
        w.margin_sum += margin;
        if let Some(&child) = w.path.get(1) {
            let sum = &mut w.root_margins[self.tree.node(child).mv() as usize];
            sum.0 += margin;
            sum.1 += 1;
        }
    }

    /// Records the result on every node of the path, and AMAF results on the children of
    /// every path node whose move the same player played first later in the simulation.
    fn back_up(&self, w: &mut Worker, black_result: f32) {
        let tree = self.tree;
        let black_halves = (black_result * 2.0).round() as u32;
        let halves_for = |c: Color| {
            if c == Color::Black {
                black_halves
            } else {
                2 - black_halves
            }
        };
        let depth = w.path.len() - 1;
        // First player of each point over the moves after the tree part (the playout). The
        // table is all zero here: it is cleared below for every point this simulation set.
        let len = w.trace.len();
        for (i, &(p, c)) in w.trace.iter().enumerate().skip(depth).rev() {
            w.first_player[p.index()] = c.index() as u8 + 1;
            w.first_index[p.index()] = i as u16;
        }
        let root_mover = self.color.opponent();
        for d in (0..=depth).rev() {
            let node = w.path[d];
            let mover = if d % 2 == 0 {
                root_mover
            } else {
                root_mover.opponent()
            };
            tree.node(node).record(halves_for(mover));
            if d < depth {
                let (p, c) = w.trace[d];
                w.first_player[p.index()] = c.index() as u8 + 1;
                w.first_index[p.index()] = d as u16;
            }
            let to_move = mover.opponent();
            if let Some((_, children)) = tree.child_nodes(node) {
                let code = to_move.index() as u8 + 1;
                let halves = halves_for(to_move);
                for child in children {
                    let mv = child.mv() as usize;
                    if mv != PASS as usize && w.first_player[mv] == code {
                        let weight = match self.amaf_distance {
                            0 => 1,
                            distance => amaf_weight(distance, w.first_index[mv] as usize, d, len),
                        };
                        child.record_amaf(halves, weight);
                    }
                }
            }
        }
        for &(p, _) in &w.trace {
            w.first_player[p.index()] = 0;
        }
    }
}

impl Context<'_> {
    /// Black's result for a final margin (komi included): a win, a loss or a draw, or
    /// (with a score utility, at its weight) a win drawn with the margin's logistic
    /// probability.
    fn black_result(&self, margin: f64, rng: &mut Pcg32) -> f32 {
        match self.score_utility {
            Some(u) if u.weight >= 1.0 || rng.random::<f32>() < u.weight => {
                let p = 1.0 / (1.0 + (-(margin as f32) / u.scale).exp());
                if rng.random::<f32>() < p { 1.0 } else { 0.0 }
            }
            _ => win_loss(margin),
        }
    }
}

/// The AMAF weight of a move first played at trace index `first`, for the children of the
/// node at depth `start`, in a simulation of `len` moves: `1 + distance·(len - first) /
/// (len - start + 1)`, from about `distance` for the move right after the node down to 1.
#[inline]
fn amaf_weight(distance: u32, first: usize, start: usize, len: usize) -> u32 {
    1 + distance * (len - first) as u32 / (len - start + 1) as u32
}

fn win_loss(margin: f64) -> f32 {
    if margin > 0.0 {
        1.0
    } else if margin < 0.0 {
        0.0
    } else {
        0.5
    }
}

#[cfg(test)]
mod tests {
    use super::amaf_weight;

    #[test]
    fn amaf_weights_fall_from_the_distance_to_one_as_moves_come_later() {
        let (start, len) = (4, 64);
        for first in start..len {
            assert_eq!(amaf_weight(0, first, start, len), 1);
        }
        // Pachi's distance_rave 3: "final weight = 3, 2 or 1".
        let weights: Vec<u32> = (start..len)
            .map(|f| amaf_weight(3, f, start, len))
            .collect();
        assert_eq!((weights[0], weights[weights.len() - 1]), (3, 1));
        assert!(weights.windows(2).all(|w| w[0] >= w[1]), "{weights:?}");
        assert!(weights.contains(&2));
    }
}
