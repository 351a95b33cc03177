//! The policy network's move probabilities as the priors of the nodes that matter: the
//! root at once (Pachi), and any other node once it has enough visits (AlphaGo: 40),
//! evaluated off the playouts' path by a thread of its own that takes requests from a
//! queue (AlphaGo's asynchronous evaluation), or in place where the search must be
//! reproducible. Until the network has spoken, a node keeps the learned model's priors.
//! A network with a value head judges the rated node's position in the same pass; the
//! judgement joins the node's results as `value_visits` visits of that result (Oakfoam's
//! and Rn's prior wins at the node the network rates), where the game is one the value
//! was learned for ([`value_applies`]). With an ownership head the judgement is the
//! foreseen count, the points each side is expected to own less the komi of this game,
//! through tanh: it called more winners than the value head (BENCHMARKS.md), and it
//! reads any komi and handicap.

use super::priors::PriorWeights;
use super::tree::{PASS, ROOT, Tree};
use crate::network::planes::{History, InputPlanes};
use crate::network::{Network, Scratch};
use crate::rules::{Board, Color, Game, Point, Scoring};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

/// Requests waiting at most: past this the search has moved on, and a new request is
/// dropped (its node keeps the model's priors and may ask again later).
const QUEUE_CAP: usize = 32;
/// Positions the evaluating thread takes at once.
pub const BATCH: usize = 8;

/// How a search uses the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkUse {
    /// Visits a node other than the root needs before the network rates its children.
    pub threshold: u32,
    /// Evaluate where the threshold is crossed, in the worker's own thread, instead of
    /// queueing for the evaluating thread: reproducible (`--deterministic`).
    pub inline: bool,
    /// The visits the value network's judgement of a rated node counts for, beside its
    /// playouts (0: the value unused). At the threshold's 40 playouts, 40 weighs the two
    /// alike (AlphaGo's mixing at 0.5), and the playouts take over as they pile up.
    pub value_visits: u32,
}

/// The foreseen count's margin (points, the side to move's) as a judgement: tanh(k·m),
/// k fitted to the results of Tygem's positions (`training/value_probe.py score`):
/// a 9-dan game's count is foreseen only roughly, so that 50 points ahead reads as 0.37
/// and 200 as 0.92.
pub const SCORE_SCALE: f32 = 0.0078;

/// The komi the value was learned at: 6.5 under territory counting (Tygem's games).
pub const VALUE_KOMI: f64 = 6.5;
/// How far from it, in points, the komi may be for the value to be used: its judgement
/// is of who wins at the learned komi, and a point moves many professional results.
pub const VALUE_KOMI_SLACK: f64 = 1.0;

/// Whether `network` may judge positions of `game`: 19x19 (the Tygem games' size), and
/// for a value head without the ownership head's count, no handicap (those games were
/// left out of its training) and a komi worth `VALUE_KOMI` within `VALUE_KOMI_SLACK`
/// (under area counting the same komi is worth a point less than under territory
/// counting: Chinese 7.5 is Japanese 6.5). Elsewhere the search goes by its playouts.
pub fn value_applies(game: &Game, network: &Network) -> bool {
    if !network.has_value() || game.size().get() != 19 {
        return false;
    }
    if network.has_ownership() {
        return true;
    }
    let territory_komi = match game.ruleset().scoring() {
        Scoring::Territory => game.komi(),
        Scoring::Area => game.komi() - 1.0,
    };
    game.handicap() == 0 && (territory_komi - VALUE_KOMI).abs() <= VALUE_KOMI_SLACK
}

/// One position to rate: the node whose children get the priors, and its position.
#[derive(Clone, Copy)]
pub struct Request {
    pub node: u32,
    pub board: Board,
    pub color: Color,
    pub history: History,
}

/// The network's side of one search over one tree.
pub struct Evaluator<'a> {
    network: &'a Network,
    tree: &'a Tree,
    weights: PriorWeights,
    pub settings: NetworkUse,
    /// The points Black gives at the count (the komi, and White's handicap bonus under
    /// area counting), which the foreseen count takes off.
    black_gives: f32,
    queue: Mutex<VecDeque<Request>>,
    /// Requests waiting: read before a node is claimed, so that a full queue costs the
    /// workers one load rather than a claim, a lock and a release.
    waiting: AtomicUsize,
    ready: Condvar,
    finished: AtomicBool,
    pub evaluated: AtomicU64,
    pub dropped: AtomicU64,
}

impl<'a> Evaluator<'a> {
    pub fn new(
        network: &'a Network,
        tree: &'a Tree,
        weights: PriorWeights,
        settings: NetworkUse,
        game: &Game,
    ) -> Evaluator<'a> {
        Evaluator {
            network,
            tree,
            weights,
            settings,
            black_gives: (game.komi() + super::white_bonus(game)) as f32,
            queue: Mutex::new(VecDeque::with_capacity(QUEUE_CAP)),
            waiting: AtomicUsize::new(0),
            ready: Condvar::new(),
            finished: AtomicBool::new(false),
            evaluated: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
        }
    }

    /// Buffers for evaluating one position at a time in place.
    pub fn scratch(&self) -> Scratch {
        self.network.scratch(1)
    }

    /// Whether a node other than the root may ask now (in place always; queued while the
    /// queue has room).
    #[inline]
    pub fn has_room(&self) -> bool {
        self.settings.inline || self.waiting.load(Ordering::Relaxed) < QUEUE_CAP
    }

    /// Asks for the children of `request.node` to be rated, in place (`scratch`) or by
    /// the evaluating thread. The caller has claimed the node.
    pub fn submit(&self, request: Request, scratch: &mut Option<Scratch>) {
        if self.settings.inline || request.node == ROOT {
            let scratch = scratch.get_or_insert_with(|| self.scratch());
            self.evaluate(&[request], scratch);
            return;
        }
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        if queue.len() >= QUEUE_CAP {
            drop(queue);
            self.tree.node(request.node).release_network();
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        queue.push_back(request);
        self.waiting.store(queue.len(), Ordering::Relaxed);
        drop(queue);
        self.ready.notify_one();
    }

    /// The evaluating thread: rates queued positions until [`Evaluator::finish`].
    pub fn serve(&self) {
        let mut scratch = self.network.scratch(BATCH);
        let mut batch: Vec<Request> = Vec::with_capacity(BATCH);
        loop {
            {
                let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
                while queue.is_empty() && !self.finished.load(Ordering::Relaxed) {
                    queue = self
                        .ready
                        .wait_timeout(queue, Duration::from_millis(5))
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
                if self.finished.load(Ordering::Relaxed) {
                    // Whatever is left keeps the model's priors; let later searches ask.
                    for r in queue.drain(..) {
                        self.tree.node(r.node).release_network();
                    }
                    return;
                }
                let take = queue.len().min(BATCH);
                batch.clear();
                batch.extend(queue.drain(..take));
                self.waiting.store(queue.len(), Ordering::Relaxed);
            }
            self.evaluate(&batch, &mut scratch);
        }
    }

    /// Ends [`Evaluator::serve`].
    pub fn finish(&self) {
        // Under the lock: `serve` checks the flag and waits under it, so the wake-up
        // cannot fall between its check and its wait.
        let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        self.finished.store(true, Ordering::Relaxed);
        drop(queue);
        self.ready.notify_all();
    }

    /// Rates the children of each request's node with the network's probabilities.
    fn evaluate(&self, requests: &[Request], scratch: &mut Scratch) {
        let mut planes = [InputPlanes::from_fn(0, |_, _| false); BATCH];
        for chunk in requests.chunks(BATCH.min(scratch.batch())) {
            for (slot, r) in planes.iter_mut().zip(chunk) {
                *slot = InputPlanes::encode(&r.board, r.color, &r.history);
            }
            let points = self.network.board_size().pow(2);
            let evaluation = self.network.evaluate(&planes[..chunk.len()], scratch);
            for (k, r) in chunk.iter().enumerate() {
                self.apply(r, &evaluation.policy[k * points..(k + 1) * points]);
                if let Some(&value) = evaluation.value.get(k) {
                    let owners = evaluation.ownership.get(k * points..(k + 1) * points);
                    self.judge(r, value, owners);
                }
            }
            self.evaluated
                .fetch_add(chunk.len() as u64, Ordering::Relaxed);
        }
    }

    /// Adds the judgement of the request's position to its node's results, for the
    /// player who moved into it, as `value_visits` visits: the foreseen count where the
    /// network foresees the owners (`owners`, the side to move's +1), else `value` (-1..1
    /// for the side to move).
    fn judge(&self, request: &Request, value: f32, owners: Option<&[f32]>) {
        let visits = self.settings.value_visits;
        if visits == 0 {
            return;
        }
        let judgement = match owners {
            Some(owners) => {
                let gives = match request.color {
                    Color::Black => self.black_gives,
                    Color::White => -self.black_gives,
                };
                (SCORE_SCALE * (owners.iter().sum::<f32>() - gives)).tanh()
            }
            None => value,
        };
        let mover_wins = (1.0 - judgement.clamp(-1.0, 1.0)) / 2.0;
        let half_wins = (2.0 * visits as f32 * mover_wins).round() as u32;
        self.tree.node(request.node).set_value(visits, half_wins);
    }

    /// Sets each child's prior from its move's probability p: an even game of E visits
    /// and `network · sqrt(p)` value-1 visits (the learned model's form, Pachi's).
    fn apply(&self, request: &Request, probabilities: &[f32]) {
        let Some((_, children)) = self.tree.child_nodes(request.node) else {
            return;
        };
        let size = request.board.size();
        let (even, scale) = (self.weights.even, self.weights.network);
        for child in children {
            if child.mv() == PASS {
                continue;
            }
            let p = probabilities[size.row_major(Point::from_index(child.mv() as usize))];
            let visits = (scale * p.sqrt()).round() as u32;
            child.set_prior(even + visits, even + 2 * visits);
        }
    }
}

/// Calls [`Evaluator::finish`] when dropped.
pub struct FinishOnDrop<'e, 'a>(pub &'e Evaluator<'a>);

impl Drop for FinishOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// The history at a node: the moves of the tree's descent (`trace`, oldest first, a pass
/// as point index 0) on top of the root's.
pub fn history_at(root: &History, trace: &[(Point, Color)]) -> History {
    let mut history = [None; crate::network::planes::HISTORY];
    let from_trace = trace
        .iter()
        .rev()
        .map(|&(p, _)| (p.index() != 0).then_some(p));
    for (h, mv) in history
        .iter_mut()
        .zip(from_trace.chain(root.iter().copied()))
    {
        *h = mv;
    }
    history
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::planes::{HISTORY, history_of_record};
    use crate::rules::Game;
    use crate::rules::{BoardSize, Move, Ruleset};
    use crate::search::policy::PlayoutPolicy;
    use crate::search::{Search, SearchParams};
    use std::sync::Arc;

    fn tiny() -> Arc<Network> {
        let bytes = include_bytes!("../../tests/data/tiny-net.safetensors");
        Arc::new(Network::from_bytes(bytes).expect("the tiny network"))
    }

    /// The tiny network with a value and an ownership head (version 3), and without the
    /// ownership head.
    fn tiny_with_value() -> (Arc<Network>, Arc<Network>) {
        use crate::network::test_files::{TINY_V3, v3_with};
        let both = Network::from_bytes(TINY_V3).expect("the tiny network of version 3");
        let value_only = v3_with(|t| t.retain(|(name, ..)| !name.starts_with("ownership.")));
        let value_only = Network::from_bytes(&value_only).expect("without the ownership head");
        assert!(both.has_ownership() && !value_only.has_ownership());
        (Arc::new(both), Arc::new(value_only))
    }

    /// The nodes of `tree` the network rated, and whether any other carries a judgement.
    fn rated_nodes(tree: &Tree) -> (Vec<u32>, bool) {
        let all = 0..tree.len() as u32;
        let rated = all
            .clone()
            .filter(|&i| tree.node(i).has_network())
            .collect();
        let judged_unrated = all
            .filter(|&i| !tree.node(i).has_network())
            .any(|i| tree.node(i).value_stats().0 > 0);
        (rated, judged_unrated)
    }

    fn params(size: BoardSize, playouts: u64, threads: usize, inline: bool) -> SearchParams {
        let mut params = SearchParams::for_size(size, playouts);
        params.threads = threads;
        params.early_stop = false;
        params.network = Some(NetworkUse {
            threshold: 20,
            inline,
            value_visits: 0,
        });
        params
    }

    #[test]
    fn the_roots_children_carry_the_networks_priors_and_busy_nodes_are_rated_too() {
        let network = tiny();
        let size = BoardSize::NINETEEN;
        let mut game = Game::new(size, Ruleset::Chinese);
        let q16 = size.parse_point("Q16").expect("point");
        game.play(Color::Black, Move::Play(q16)).expect("legal");
        let mut search = Search::new(PlayoutPolicy::heavy()).with_network(Some(network.clone()));
        let stop = AtomicBool::new(false);
        let result = search
            .run(&game, Color::White, &params(size, 600, 1, true), &stop)
            .unwrap();
        let history = history_of_record(game.record(), Color::White);
        assert_eq!(history[0], Some(q16));
        let planes = InputPlanes::encode(game.board(), Color::White, &history);
        let mut scratch = network.scratch(1);
        let probabilities = network.policy(&[planes], &mut scratch).to_vec();
        let weights = PriorWeights::for_size(19);
        let mut checked = 0;
        for c in &result.candidates {
            let Move::Play(p) = c.mv else { continue };
            let v = (weights.network * probabilities[size.row_major(p)].sqrt()).round();
            let even = weights.even as f32;
            let expected = (even + 2.0 * v) / (2.0 * (even + v));
            assert!(
                (c.prior - expected).abs() < 1e-6,
                "{}: {} against {expected}",
                size.name(p),
                c.prior
            );
            checked += 1;
        }
        assert_eq!(checked, 360);
        // The root, and nodes below it that reached 20 visits.
        assert!(result.stats.network_evaluations > 1, "{:?}", result.stats);
        // A node below the root: its children carry the network's priors for its own
        // position (the root's move played, the history one move longer).
        let tree = &search.tree;
        let rated = tree
            .children(ROOT)
            .expect("an expanded root")
            .find(|&c| tree.node(c).has_network() && tree.children(c).is_some())
            .expect("a rated child of the root");
        let mv = Move::Play(Point::from_index(tree.node(rated).mv() as usize));
        let mut below = game.clone();
        below.play(Color::White, mv).expect("legal");
        let planes = InputPlanes::encode(
            below.board(),
            Color::Black,
            &history_of_record(below.record(), Color::Black),
        );
        let probabilities = network.policy(&[planes], &mut scratch).to_vec();
        let mut grandchildren = 0;
        for g in tree.children(rated).expect("children") {
            let node = tree.node(g);
            if node.mv() == PASS {
                continue;
            }
            let p = Point::from_index(node.mv() as usize);
            let v = (weights.network * probabilities[size.row_major(p)].sqrt()).round();
            let even = weights.even as f32;
            let expected = (even + 2.0 * v) / (2.0 * (even + v));
            assert!(
                (node.prior_value() - expected).abs() < 1e-6,
                "{}",
                size.name(p)
            );
            grandchildren += 1;
        }
        assert!(grandchildren > 300);
    }

    #[test]
    fn the_evaluating_thread_serves_a_parallel_search_and_other_sizes_go_without() {
        let mut search = Search::new(PlayoutPolicy::heavy()).with_network(Some(tiny()));
        let stop = AtomicBool::new(false);
        let game = Game::new(BoardSize::NINETEEN, Ruleset::Chinese);
        let result = search
            .run(
                &game,
                Color::Black,
                &params(BoardSize::NINETEEN, 2000, 2, false),
                &stop,
            )
            .unwrap();
        assert!(result.stats.network_evaluations > 1, "{:?}", result.stats);
        let nine = Game::new(BoardSize::NINE, Ruleset::Chinese);
        let mut search = Search::new(PlayoutPolicy::heavy()).with_network(Some(tiny()));
        let result = search
            .run(
                &nine,
                Color::Black,
                &params(BoardSize::NINE, 500, 2, false),
                &stop,
            )
            .unwrap();
        assert_eq!(result.stats.network_evaluations, 0);
    }

    /// Searches `game` for `color` with `network` judging at 30 visits (`visits`), and
    /// returns the root's judgement, after checking that every rated node and no other
    /// carries one.
    fn root_judgement(
        network: &Arc<Network>,
        game: &Game,
        color: Color,
        visits: u32,
    ) -> (u32, u32) {
        let mut params = params(game.size(), 600, 1, true);
        params
            .network
            .as_mut()
            .expect("the network's use")
            .value_visits = visits;
        let mut search = Search::new(PlayoutPolicy::heavy()).with_network(Some(network.clone()));
        search
            .run(game, color, &params, &AtomicBool::new(false))
            .unwrap();
        let (rated, judged_unrated) = rated_nodes(&search.tree);
        assert!(
            !rated.is_empty() && !judged_unrated,
            "{} rated",
            rated.len()
        );
        let root = search.tree.node(ROOT).value_stats();
        assert!(
            rated
                .iter()
                .all(|&i| search.tree.node(i).value_stats().0 == root.0)
        );
        root
    }

    /// The half-wins of `visits` for the player who moved into a position its side to
    /// move values at `judgement`.
    fn mover_half_wins(visits: u32, judgement: f32) -> u32 {
        (2.0 * visits as f32 * (1.0 - judgement) / 2.0).round() as u32
    }

    #[test]
    fn the_value_head_judges_each_rated_node_at_the_komi_it_was_learned_at() {
        let (_, network) = tiny_with_value();
        let size = BoardSize::NINETEEN;
        let mut japanese = Game::new(size, Ruleset::Japanese);
        japanese.set_komi(6.5);
        // The root's judgement is its position's value for Black, to move, as the
        // result of White, who moved into it.
        let planes = InputPlanes::encode(japanese.board(), Color::Black, &[None; HISTORY]);
        let mut scratch = network.scratch(1);
        let value = network.evaluate(&[planes], &mut scratch).value[0];
        let expected = (30, mover_half_wins(30, value));
        assert_eq!(
            root_judgement(&network, &japanese, Color::Black, 30),
            expected
        );
        // Not at weight 0, nor where the value was not learned: another komi, a handicap,
        // another size.
        let mut far_komi = Game::new(size, Ruleset::Chinese);
        far_komi.set_komi(0.5);
        let mut handicap = Game::new(size, Ruleset::Chinese);
        handicap.place_fixed_handicap(2).expect("handicap");
        let nine = Arc::new(network.for_size(9).expect("every size"));
        let cases = [
            (&network, &japanese, 0, Color::Black),
            (&network, &far_komi, 30, Color::Black),
            (&network, &handicap, 30, Color::White),
            (
                &nine,
                &Game::new(BoardSize::NINE, Ruleset::Chinese),
                30,
                Color::Black,
            ),
        ];
        for (network, game, visits, color) in cases {
            assert_eq!(root_judgement(network, game, color, visits), (0, 0));
        }
    }

    #[test]
    fn the_foreseen_count_judges_with_the_games_komi_and_handicap() {
        let (network, _) = tiny_with_value();
        let size = BoardSize::NINETEEN;
        let mut scratch = network.scratch(1);
        let mut owned = |game: &Game, color: Color| {
            let history = history_of_record(game.record(), color);
            let planes = InputPlanes::encode(game.board(), color, &history);
            network
                .evaluate(&[planes], &mut scratch)
                .ownership
                .iter()
                .sum::<f32>()
        };
        let judgement = |margin: f32| (SCORE_SCALE * margin).tanh();
        for (rules, komi) in [
            (Ruleset::Japanese, 6.5),
            (Ruleset::Chinese, 0.5),
            (Ruleset::Chinese, -20.0),
        ] {
            let mut game = Game::new(size, rules);
            game.set_komi(komi);
            let black = owned(&game, Color::Black);
            let expected = mover_half_wins(30, judgement(black - komi as f32));
            assert_eq!(
                root_judgement(&network, &game, Color::Black, 30),
                (30, expected),
                "{komi}"
            );
            let white = owned(&game, Color::White);
            let expected = mover_half_wins(30, judgement(white + komi as f32));
            assert_eq!(
                root_judgement(&network, &game, Color::White, 30),
                (30, expected),
                "{komi}"
            );
        }
        // Under area counting White gets a point a handicap stone: 0.5 + 3.
        let mut handicap = Game::new(size, Ruleset::Chinese);
        handicap.set_komi(0.5);
        handicap.place_fixed_handicap(3).expect("handicap");
        let white = owned(&handicap, Color::White);
        let expected = mover_half_wins(30, judgement(white + 3.5));
        assert_eq!(
            root_judgement(&network, &handicap, Color::White, 30),
            (30, expected)
        );
        // Not on another size, nor at weight 0.
        let nine = Arc::new(network.for_size(9).expect("every size"));
        let game = Game::new(BoardSize::NINE, Ruleset::Chinese);
        assert_eq!(root_judgement(&nine, &game, Color::Black, 30), (0, 0));
        assert_eq!(root_judgement(&network, &handicap, Color::White, 0), (0, 0));
    }

    #[test]
    fn the_value_applies_at_the_komi_it_was_learned_at_under_either_counting() {
        let (with_count, value_only) = tiny_with_value();
        let game = |size: BoardSize, rules: Ruleset, komi: f64| {
            let mut game = Game::new(size, rules);
            game.set_komi(komi);
            game
        };
        let nineteen = BoardSize::NINETEEN;
        for (rules, komi, applies) in [
            (Ruleset::Japanese, 6.5, true),
            (Ruleset::Japanese, 5.5, true),
            (Ruleset::Japanese, 7.5, true),
            (Ruleset::Chinese, 7.5, true),
            (Ruleset::Chinese, 6.5, true),
            (Ruleset::Japanese, 0.5, false),
            (Ruleset::Japanese, 8.5, false),
            (Ruleset::Chinese, 5.5, false),
            (Ruleset::Chinese, 9.5, false),
            (Ruleset::Chinese, -7.5, false),
        ] {
            let game = game(nineteen, rules, komi);
            assert_eq!(
                value_applies(&game, &value_only),
                applies,
                "{rules:?} {komi}"
            );
            // The count reads any komi.
            assert!(value_applies(&game, &with_count), "{rules:?} {komi}");
        }
        let mut handicap = game(nineteen, Ruleset::Japanese, 6.5);
        handicap.place_fixed_handicap(2).expect("handicap");
        assert!(!value_applies(&handicap, &value_only));
        assert!(value_applies(&handicap, &with_count));
        for size in [BoardSize::NINE, BoardSize::THIRTEEN] {
            let other = game(size, Ruleset::Japanese, 6.5);
            assert!(!value_applies(&other, &value_only) && !value_applies(&other, &with_count));
        }
        let policy_only = tiny();
        assert!(!value_applies(
            &game(nineteen, Ruleset::Japanese, 6.5),
            &policy_only
        ));
    }

    #[test]
    fn a_nodes_history_is_the_descents_moves_on_top_of_the_roots() {
        let size = BoardSize::NINETEEN;
        let p = |name: &str| size.parse_point(name).expect("point");
        let root: History = [Some(p("D4")), Some(p("Q16")), None, Some(p("C3"))];
        let pass = Point::from_index(0);
        let trace = [(p("K10"), Color::Black), (pass, Color::White)];
        assert_eq!(
            history_at(&root, &trace),
            [None, Some(p("K10")), Some(p("D4")), Some(p("Q16"))]
        );
        assert_eq!(history_at(&root, &[]), root);
        assert_eq!(history_at(&[None; HISTORY], &trace)[1], Some(p("K10")));
    }
}
