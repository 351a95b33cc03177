//! Search: Monte-Carlo tree search with RAVE and priors over heavy playouts, run in
//! parallel with rayon. `Search::run` takes a game and returns values; it never prints.

pub mod mcts;
pub mod network_priors;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod priors;
pub mod threads;
pub mod time;
pub mod tree;

use crate::knowledge::Model;
use crate::network::Network;
use crate::network::planes::history_of_record;
use crate::rules::{Bitboard, BoardSize, Color, Game, Move, Point, Scoring};
use mcts::{Context, Worker};
use network_priors::{Evaluator, NetworkUse};
use policy::PlayoutPolicy;
use priors::PriorWeights;
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
pub use threads::ThreadsError;
use tree::{PASS, ROOT, Tree};

/// How one search runs. Every tunable is here, with its reason.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Stop after this many playouts.
    pub max_playouts: u64,
    /// Stop after this much wall-clock time (`None`: playouts only).
    pub max_time: Option<Duration>,
    /// Worker threads.
    pub threads: usize,
    pub seed: u64,
    /// Independent trees merged at the root, so that the same seed and playout budget give
    /// the same move at any thread count (no tree reuse, no early stop). `max_time` still
    /// stops it: a search cut short by it has fewer playouts and is not reproducible.
    pub deterministic: bool,
    /// Stop once the most visited move cannot be overtaken in the time left.
    pub early_stop: bool,
    /// RAVE's k (Pachi: 3,000 on 9x9, 4,000 on 19x19).
    pub rave_k: f32,
    /// AMAF results weigh `1 + d·(moves after the move) / (moves after the node + 1)`
    /// (1 to d), so that moves played sooner after a node count more (Pachi's
    /// `distance_rave`, 3); 0 weighs every move alike.
    pub amaf_distance: u32,
    /// Visits before a leaf grows children (cheap priors make early expansion pay).
    pub expand_after: u32,
    /// Node budget of the tree (memory cap).
    pub max_nodes: usize,
    /// Score as well as winning (see [`ScoreUtility`]); `None`: winning only.
    pub score_utility: Option<ScoreUtility>,
    /// Allow passes in the tree from the first move (the arbiter's searches start from
    /// finished positions, where a pass is often the only good move).
    pub pass_from_start: bool,
    /// The policy network's priors (with a search that has a network for this board
    /// size); `None`: the learned model's alone.
    pub network: Option<NetworkUse>,
    /// The root moves the search may choose (a level that sees only some: the pass is
    /// always among them); `None`: every legal move. Below the root every move counts.
    pub root_moves: Option<Bitboard>,
}

impl SearchParams {
    /// Defaults for a board size: a fixed playout budget, all cores.
    pub fn for_size(size: BoardSize, max_playouts: u64) -> SearchParams {
        SearchParams {
            max_playouts,
            max_time: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            deterministic: false,
            early_stop: true,
            rave_k: if size.get() >= 15 { 4000.0 } else { 3000.0 },
            amaf_distance: 0,
            expand_after: if size.get() >= 15 { 4 } else { 2 },
            max_nodes: 4_000_000,
            score_utility: None,
            pass_from_start: false,
            network: None,
            root_moves: None,
        }
    }
}

/// How much the margin counts besides the win: a playout is scored, with probability
/// `weight`, as a win drawn with probability `1 / (1 + e^(-m / scale))` for a margin of `m`
/// points above komi, else as a plain win or loss. With weight 1 the search fights for
/// every point even when the game is won or lost either way (the arbiter's searches).
/// Genmove uses weight 0.2 at scale n/2, so that a won game is not given away point by
/// point (measured against GNU Go in BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreUtility {
    pub scale: f32,
    pub weight: f32,
}

/// One root move as the search sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the side to move: the playouts through this move and, where a value
    /// network judged it, that judgement at its weight.
    pub win_rate: f32,
    /// The prior's value (0..1) for the side to move.
    pub prior: f32,
    /// A lower confidence bound of the win rate.
    pub lcb: f32,
    /// The most visited line after this move (the move first).
    pub pv: Vec<Move>,
    /// The mean final margin for the side to move (komi included) of this search's
    /// playouts through this move; `None` when none went through it.
    pub score_lead: Option<f32>,
}

/// Numbers about one search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    pub playouts: u64,
    pub nodes: usize,
    pub elapsed: Duration,
    pub memory_bytes: usize,
    /// The tree reached its share of `--max-memory` (its leaves then stay leaves).
    pub tree_full: bool,
    pub threads: usize,
    /// Positions the policy network rated, and requests dropped for a full queue.
    pub network_evaluations: u64,
    pub network_dropped: u64,
    /// The visits the root held when the search began: those of the tree kept from the
    /// searches before (0: a fresh tree).
    pub reused_visits: u32,
}

impl SearchStats {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// What a search found, as values.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub color: Color,
    /// The move to play: the most visited.
    pub best: Move,
    /// Win rate of `best` for `color`.
    pub win_rate: f32,
    /// Root moves, most visited first.
    pub candidates: Vec<Candidate>,
    /// Ownership of every point, row by row from the bottom left: +1 Black, -1 White.
    pub ownership: Vec<f32>,
    /// Mean final margin for Black (komi included).
    pub score_lead: f32,
    pub stats: SearchStats,
}

impl SearchResult {
    /// The principal variation (from `best`).
    pub fn pv(&self) -> &[Move] {
        self.candidates.first().map_or(&[], |c| &c.pv)
    }
}

/// Why a search gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The system would not start the search's threads.
    Threads(ThreadsError),
    /// A move of the tree met an occupied point: the tree stood for another position.
    /// The search stops before the board is corrupted, and the tree is dropped, so that
    /// the next search starts afresh.
    TreeMismatch,
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Threads(e) => e.fmt(f),
            SearchError::TreeMismatch => f.write_str(
                "internal error: the search tree did not fit the board (dropped; ask again)",
            ),
        }
    }
}

impl std::error::Error for SearchError {}

impl From<ThreadsError> for SearchError {
    fn from(e: ThreadsError) -> SearchError {
        SearchError::Threads(e)
    }
}

/// What a tree's root stands for: the position, how it was reached, and what its values
/// were counted with. A tree is reused only from a root equal to the old one, or from a
/// node the moves played since lead to.
#[derive(Clone, PartialEq)]
struct RootKey {
    game: GameKey,
    record: Vec<(Color, Move)>,
    /// The root position itself (stones and the ko ban): implied by the game and the
    /// record, and checked too.
    position: (u64, Option<(Point, Color)>),
    /// The side to move at the root (GTP may ask either colour).
    color: Color,
}

/// What must be equal for a tree to be followed at all: the board size and
/// [`Game::start_key`] (the position the record starts from: set-up and handicap stones,
/// the side to move, the handicap that White's bonus counts), which with the record fix
/// every position since and so the history superko reads; rules, komi and node budget.
#[derive(Clone, Copy, PartialEq)]
struct GameKey {
    size: usize,
    start: crate::rules::StartKey,
    ruleset: crate::rules::Ruleset,
    komi_bits: u64,
    max_nodes: usize,
}

impl RootKey {
    fn of(game: &Game, color: Color, params: &SearchParams) -> RootKey {
        RootKey {
            game: GameKey {
                size: game.size().get(),
                start: game.start_key(),
                ruleset: game.ruleset(),
                komi_bits: game.komi().to_bits(),
                max_nodes: params.max_nodes,
            },
            record: game.record().to_vec(),
            position: (game.board().hash(), game.board().ko()),
            color,
        }
    }
}

/// A search engine that keeps its tree between moves.
pub struct Search {
    policy: PlayoutPolicy,
    /// Learned move knowledge for the priors (`None`: the hand priors).
    knowledge: Option<Arc<Model>>,
    /// The policy network, for the searches whose parameters ask for it.
    network: Option<Arc<Network>>,
    tree: Tree,
    /// What the tree's root stands for ([`RootKey`]); `None`: nothing to reuse.
    root: Option<RootKey>,
}

impl Search {
    pub fn new(policy: PlayoutPolicy) -> Search {
        Search {
            policy,
            knowledge: None,
            network: None,
            tree: Tree::new(1),
            root: None,
        }
    }

    /// The same search with a policy network for the searches that ask for it.
    pub fn with_network(mut self, network: Option<Arc<Network>>) -> Search {
        self.set_network(network);
        self
    }

    /// Another network (or none) for the searches to come: a new board size's.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
        self.root = None;
    }

    /// The network and how to use it, when the parameters ask and it fits the board.
    fn network_use(&self, game: &Game, params: &SearchParams) -> Option<(&Network, NetworkUse)> {
        let network = self.network.as_deref()?;
        let mut settings = params.network?;
        settings.inline |= params.deterministic;
        if !network_priors::value_applies(game, network) {
            settings.value_visits = 0;
        }
        (network.board_size() == game.size().get()).then_some((network, settings))
    }

    /// The same search with learned priors from `model` (or the hand priors with `None`).
    pub fn with_knowledge(mut self, model: Option<Arc<Model>>) -> Search {
        self.knowledge = model;
        self.root = None;
        self
    }

    pub fn policy(&self) -> &PlayoutPolicy {
        &self.policy
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.root = None;
    }

    /// Reuses the subtree of the moves played since the last search when they follow it,
    /// else starts a fresh tree. Returns the visits the root starts with (0: fresh).
    fn prepare_tree(&mut self, game: &Game, color: Color, params: &SearchParams) -> u32 {
        let key = RootKey::of(game, color, params);
        let reused = self.root.as_ref().and_then(|old| self.follow(old, &key));
        self.tree = match reused {
            // The same position again (analysis in steps, genmove after analysis): go on.
            Some(ROOT) => std::mem::replace(&mut self.tree, Tree::new(1)),
            Some(node) => self.tree.subtree(node, params.max_nodes),
            None => Tree::new(params.max_nodes),
        };
        self.root = Some(key);
        self.tree.node(ROOT).visits()
    }

    /// The node of the old tree that `new` stands for: the same game (start, rules, komi,
    /// budget), and the moves played since `old`, alternating from the old root's side to
    /// move, all in the tree. The old root itself only for the same position.
    fn follow(&self, old: &RootKey, new: &RootKey) -> Option<u32> {
        if old.game != new.game || !new.record.starts_with(&old.record) {
            return None;
        }
        if new.record.len() == old.record.len() {
            return ((old.position, old.color) == (new.position, new.color)).then_some(ROOT);
        }
        let mut node = ROOT;
        let mut expected = old.color;
        for &(c, mv) in &new.record[old.record.len()..] {
            let code = match mv {
                Move::Pass => PASS,
                Move::Play(p) => p.index() as u16,
            };
            if c != expected {
                return None;
            }
            node = self.tree.child_with_move(node, code)?;
            expected = expected.opponent();
        }
        (expected == new.color).then_some(node)
    }

    /// Searches the position for `color` until the budget is spent or `stop` is set; an
    /// error when the system will not start its threads, or when the tree turns out to
    /// stand for another position ([`SearchError::TreeMismatch`]).
    pub fn run(
        &mut self,
        game: &Game,
        color: Color,
        params: &SearchParams,
        stop: &AtomicBool,
    ) -> Result<SearchResult, SearchError> {
        let pool = threads::lease(params.threads)?;
        pool.install(|| self.run_here(game, color, params, stop))
    }

    /// [`Search::run`] on the rayon pool the caller runs in (inside a lease's `install`:
    /// the arbiter runs all its work on one pool).
    pub fn run_here(
        &mut self,
        game: &Game,
        color: Color,
        params: &SearchParams,
        stop: &AtomicBool,
    ) -> Result<SearchResult, SearchError> {
        let started = Instant::now();
        if params.deterministic {
            return self.run_deterministic(game, color, params, stop, started);
        }
        let reused_visits = self.prepare_tree(game, color, params);
        let threads = params.threads.max(1);
        let weights = PriorWeights::for_size(game.size().get());
        let evaluator = self.network_use(game, params).map(|(network, settings)| {
            Evaluator::new(network, &self.tree, weights, settings, game)
        });
        let ctx = self.context(game, color, &self.tree, params, evaluator.as_ref());
        let workers = std::thread::scope(|scope| {
            if let Some(e) = evaluator.as_ref().filter(|e| !e.settings.inline) {
                scope.spawn(|| e.serve());
            }
            // Ends the evaluating thread however the workers end (a panic too).
            let _finish = evaluator.as_ref().map(network_priors::FinishOnDrop);
            run_workers(&ctx, params, threads, stop, started, params.seed)
        });
        if ctx.tree_mismatch.load(Ordering::Relaxed) {
            drop(evaluator);
            log::error!("a tree move met a stone: the tree stood for another position");
            self.root = None;
            self.tree = Tree::new(1);
            return Err(SearchError::TreeMismatch);
        }
        let mut result = summarize(&ctx, &[&self.tree], &workers, started);
        result.stats.threads = threads;
        result.stats.reused_visits = reused_visits;
        if let Some(e) = &evaluator {
            result.stats.network_evaluations = e.evaluated.load(Ordering::Relaxed);
            result.stats.network_dropped = e.dropped.load(Ordering::Relaxed);
        }
        Ok(result)
    }

    /// Root parallelism with a fixed number of trees: the same answer on any thread count.
    fn run_deterministic(
        &mut self,
        game: &Game,
        color: Color,
        params: &SearchParams,
        stop: &AtomicBool,
        started: Instant,
    ) -> Result<SearchResult, SearchError> {
        const TREES: u64 = 4;
        self.root = None;
        let deadline = params.max_time.map(|t| started + t);
        let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
        let trees: Vec<Tree> = (0..TREES)
            .map(|_| Tree::new(params.max_nodes / TREES as usize))
            .collect();
        let policy = &self.policy;
        let knowledge = self.knowledge.as_deref();
        let network = self.network_use(game, params);
        let weights = PriorWeights::for_size(game.size().get());
        let evaluators: Vec<Option<Evaluator>> = trees
            .iter()
            .map(|tree| network.map(|(n, s)| Evaluator::new(n, tree, weights, s, game)))
            .collect();
        // A tree that meets a stone (`None`) fails the search as in `run_here`, rather
        // than end the process: fresh trees should never, but the rules would be at fault.
        let workers: Option<Vec<Worker>> = {
            trees
                .par_iter()
                .zip(evaluators.par_iter())
                .enumerate()
                .map(|(k, (tree, evaluator))| {
                    let ctx = context_for(
                        policy,
                        knowledge,
                        game,
                        color,
                        tree,
                        params,
                        evaluator.as_ref(),
                    );
                    let mut worker = Worker::new(mix(params.seed, k as u64));
                    let budget = params.max_playouts / TREES
                        + u64::from((k as u64) < params.max_playouts % TREES);
                    while worker.playouts < budget
                        && !stop.load(Ordering::Relaxed)
                        && !out_of_time()
                        && !ctx.tree_mismatch.load(Ordering::Relaxed)
                    {
                        ctx.simulate(&mut worker);
                    }
                    (!ctx.tree_mismatch.load(Ordering::Relaxed)).then_some(worker)
                })
                .collect()
        };
        let workers = workers.ok_or(SearchError::TreeMismatch)?;
        let ctx = context_for(policy, knowledge, game, color, &trees[0], params, None);
        let tree_refs: Vec<&Tree> = trees.iter().collect();
        let mut result = summarize(&ctx, &tree_refs, &workers, started);
        result.stats.threads = params.threads.max(1);
        result.stats.network_evaluations = evaluators
            .iter()
            .flatten()
            .map(|e| e.evaluated.load(Ordering::Relaxed))
            .sum();
        Ok(result)
    }

    fn context<'a>(
        &'a self,
        game: &'a Game,
        color: Color,
        tree: &'a Tree,
        params: &SearchParams,
        network: Option<&'a Evaluator<'a>>,
    ) -> Context<'a> {
        context_for(
            &self.policy,
            self.knowledge.as_deref(),
            game,
            color,
            tree,
            params,
            network,
        )
    }
}

/// The points White gets for handicap stones: under area counting, one a stone.
pub(super) fn white_bonus(game: &Game) -> f64 {
    match game.ruleset().scoring() {
        Scoring::Area => game.ruleset().handicap_bonus(game.handicap()) as f64,
        Scoring::Territory => 0.0,
    }
}

fn context_for<'a>(
    policy: &'a PlayoutPolicy,
    knowledge: Option<&'a Model>,
    game: &'a Game,
    color: Color,
    tree: &'a Tree,
    params: &SearchParams,
    network: Option<&'a Evaluator<'a>>,
) -> Context<'a> {
    let n = game.size().get();
    Context {
        game,
        color,
        tree,
        policy,
        weights: PriorWeights::for_size(n),
        rave_k: params.rave_k,
        amaf_distance: params.amaf_distance,
        expand_after: params.expand_after,
        // Pachi: no pass in the tree before move n²/(7 - n/5) (13 on 9x9, 90 on 19x19).
        pass_from_move: if params.pass_from_start {
            0
        } else {
            n * n * 5 / (35 - n)
        },
        passes_before: game.passes_before(color),
        komi: game.komi(),
        white_bonus: white_bonus(game),
        score_utility: params.score_utility,
        knowledge: knowledge.filter(|_| n >= LEARNED_PRIORS_FROM),
        network,
        root_history: history_of_record(game.record(), color),
        root_moves: params.root_moves,
        tree_mismatch: AtomicBool::new(false),
    }
}

/// The smallest board the learned priors are used on: the model comes from 19x19 games
/// and was measured to help on 9x9 and 19x19; smaller boards keep the hand priors.
pub const LEARNED_PRIORS_FROM: usize = 9;

/// A seed for stream `k` derived from `seed` (splitmix64 of both).
fn mix(seed: u64, k: u64) -> u64 {
    let mut z = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Runs simulations on `threads` workers of the caller's rayon pool, sharing one tree,
/// until a stop condition.
fn run_workers(
    ctx: &Context<'_>,
    params: &SearchParams,
    threads: usize,
    stop: &AtomicBool,
    started: Instant,
    seed: u64,
) -> Vec<Worker> {
    let started_playouts = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let deadline = params.max_time.map(|t| started + t);
    {
        (0..threads)
            .into_par_iter()
            .map(|t| {
                let mut worker = Worker::new(mix(seed, t as u64));
                loop {
                    if done.load(Ordering::Relaxed)
                        || stop.load(Ordering::Relaxed)
                        || ctx.tree_mismatch.load(Ordering::Relaxed)
                    {
                        break;
                    }
                    let n = started_playouts.fetch_add(1, Ordering::Relaxed);
                    if n >= params.max_playouts {
                        break;
                    }
                    // One playout at least, whatever the time: it expands the root, so
                    // that even a search out of time answers a move and not a pass.
                    if n > 0
                        && n.is_multiple_of(64)
                        && t == 0
                        && should_stop(ctx, params, n, started, deadline)
                    {
                        done.store(true, Ordering::Relaxed);
                        break;
                    }
                    ctx.simulate(&mut worker);
                    // Every playout: a clock read is a fraction of a per mille of one,
                    // and in sudden death's tail a budget is a few playouts long.
                    if let Some(d) = deadline
                        && Instant::now() >= d
                    {
                        done.store(true, Ordering::Relaxed);
                    }
                }
                worker
            })
            .collect()
    }
}

/// Time is up, or the leader cannot be overtaken with the playouts left (estimated from
/// the rate so far).
fn should_stop(
    ctx: &Context<'_>,
    params: &SearchParams,
    n: u64,
    started: Instant,
    deadline: Option<Instant>,
) -> bool {
    let now = Instant::now();
    if deadline.is_some_and(|d| now >= d) {
        return true;
    }
    if !params.early_stop || n < 500 {
        return false;
    }
    let Some(children) = ctx.tree.children(ROOT) else {
        return false;
    };
    let (mut first, mut second) = (0u32, 0u32);
    let restricted = ctx.restricts_root(children.clone().map(|c| ctx.tree.node(c).mv()));
    for c in children.filter(|&c| !restricted || ctx.may_choose_at_root(ctx.tree.node(c).mv())) {
        let v = ctx.tree.node(c).visits();
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    let by_playouts = params.max_playouts.saturating_sub(n);
    let by_time = deadline.map_or(u64::MAX, |d| {
        let rate = n as f64 / now.duration_since(started).as_secs_f64().max(1e-6);
        (rate * d.duration_since(now).as_secs_f64()) as u64
    });
    (first - second) as u64 > by_playouts.min(by_time)
}

/// Merges the root statistics of `trees` (in order) and the workers' sums into a result.
fn summarize(
    ctx: &Context<'_>,
    trees: &[&Tree],
    workers: &[Worker],
    started: Instant,
) -> SearchResult {
    let game = ctx.game;
    let size = game.size();
    let mut merged: Vec<(u16, u32, f64, f32, Vec<Move>)> = Vec::new();
    for tree in trees {
        let Some(children) = tree.children(ROOT) else {
            continue;
        };
        let restricted = ctx.restricts_root(children.clone().map(|c| tree.node(c).mv()));
        for c in children.filter(|&c| !restricted || ctx.may_choose_at_root(tree.node(c).mv())) {
            let node = tree.node(c);
            let entry = match merged.iter_mut().position(|e| e.0 == node.mv()) {
                Some(i) => &mut merged[i],
                None => {
                    merged.push((node.mv(), 0, 0.0, node.prior_value(), Vec::new()));
                    merged.last_mut().expect("just pushed")
                }
            };
            entry.1 += node.visits();
            entry.2 += node.win_rate() as f64 * node.visits() as f64;
            if entry.4.is_empty() || node.visits() > 0 {
                let pv = principal_variation(tree, c);
                if pv.len() > entry.4.len() {
                    entry.4 = pv;
                }
            }
        }
    }
    // Most visited first; ties by the prior, then by move code, for determinism.
    merged.sort_by(|a, b| b.1.cmp(&a.1).then(b.3.total_cmp(&a.3)).then(a.0.cmp(&b.0)));
    // Margins are Black's; a candidate's is the side to move's.
    let sign = if ctx.color == Color::Black { 1.0 } else { -1.0 };
    let mut candidates: Vec<Candidate> = merged
        .into_iter()
        .map(|(mv, visits, weighted, prior, pv)| {
            let win_rate = if visits > 0 {
                (weighted / visits as f64) as f32
            } else {
                prior
            };
            let lcb = if visits > 0 {
                win_rate
                    - 1.96 * (win_rate * (1.0 - win_rate) / visits as f32).sqrt()
                    - 0.5 / visits as f32
            } else {
                0.0
            };
            let (sum, count) = workers
                .iter()
                .map(|w| w.root_margins[mv as usize])
                .fold((0.0, 0), |(s, n), (ws, wn)| (s + ws, n + wn));
            Candidate {
                mv: decode(mv),
                visits,
                win_rate,
                prior,
                lcb: lcb.max(0.0),
                pv,
                score_lead: (count > 0).then(|| (sign * sum / count as f64) as f32),
            }
        })
        .collect();
    promote_safest_leader(&mut candidates);
    let playouts: u64 = workers.iter().map(|w| w.playouts).sum();
    let mut ownership = vec![0.0; size.points()];
    for (k, p) in size.all_points().enumerate() {
        let sum: i64 = workers.iter().map(|w| w.ownership[p.index()] as i64).sum();
        ownership[k] = if playouts > 0 {
            sum as f32 / playouts as f32
        } else {
            0.0
        };
    }
    let margin: f64 = workers.iter().map(|w| w.margin_sum).sum();
    let best = candidates.first().map_or(Move::Pass, |c| c.mv);
    let win_rate = candidates.first().map_or(0.5, |c| c.win_rate);
    SearchResult {
        color: ctx.color,
        best,
        win_rate,
        candidates,
        ownership,
        score_lead: if playouts > 0 {
            (margin / playouts as f64) as f32
        } else {
            0.0
        },
        stats: SearchStats {
            playouts,
            nodes: trees.iter().map(|t| t.len()).sum(),
            elapsed: started.elapsed(),
            memory_bytes: trees.iter().map(|t| t.memory_bytes()).sum(),
            tree_full: trees.iter().any(|t| t.is_full()),
            threads: 1,
            ..SearchStats::default()
        },
    }
}

/// The most visited move leads unless a rival with at least a tenth of its visits has a
/// higher lower confidence bound (Leela Zero's rule for a leader that is not yet safe).
fn promote_safest_leader(candidates: &mut [Candidate]) {
    let Some(most) = candidates.first().map(|c| c.visits) else {
        return;
    };
    let safest = (0..candidates.len())
        .filter(|&i| candidates[i].visits * 10 >= most && candidates[i].visits >= 32)
        .max_by(|&a, &b| {
            candidates[a]
                .lcb
                .total_cmp(&candidates[b].lcb)
                .then(b.cmp(&a))
        });
    if let Some(i) = safest
        && i > 0
    {
        candidates[..=i].rotate_right(1);
    }
}

fn decode(mv: u16) -> Move {
    if mv == PASS {
        Move::Pass
    } else {
        Move::Play(Point::from_index(mv as usize))
    }
}

/// The most visited line from node `i` (its own move first), cut at a pass.
fn principal_variation(tree: &Tree, i: u32) -> Vec<Move> {
    let mut pv = vec![decode(tree.node(i).mv())];
    let mut node = i;
    while let Some(children) = tree.children(node) {
        let Some(best) = children.max_by_key(|&c| tree.node(c).visits()) else {
            break;
        };
        if tree.node(best).visits() == 0 || tree.node(best).mv() == PASS || pv.len() >= 30 {
            break;
        }
        pv.push(decode(tree.node(best).mv()));
        node = best;
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simulation_leaves_no_first_player_entries_for_the_next() {
        let size = BoardSize::new(9).unwrap();
        let game = Game::new(size, crate::rules::Ruleset::Chinese);
        let policy = PlayoutPolicy::heavy();
        let tree = Tree::new(10_000);
        let params = SearchParams::for_size(size, 200);
        let ctx = context_for(&policy, None, &game, Color::Black, &tree, &params, None);
        let mut worker = Worker::new(7);
        for _ in 0..200 {
            ctx.simulate(&mut worker);
            // Stale entries would credit moves the next simulation never played.
            assert!(worker.first_player_is_clear());
        }
    }

    #[test]
    fn a_search_out_of_time_still_answers_a_move() {
        // Sudden death's last milliseconds: the budget is over before the search starts.
        let size = BoardSize::NINETEEN;
        let game = Game::new(size, crate::rules::Ruleset::Japanese);
        let mut params = SearchParams::for_size(size, u64::MAX);
        params.max_time = Some(Duration::ZERO);
        params.threads = 1;
        let result = Search::new(PlayoutPolicy::heavy())
            .run(&game, Color::Black, &params, &AtomicBool::new(false))
            .unwrap();
        assert_ne!(result.best, Move::Pass);
        assert!(result.stats.playouts >= 1);
    }

    #[test]
    fn a_tree_that_meets_a_stone_stops_the_search_with_an_error_and_is_dropped() {
        let size = BoardSize::NINE;
        let mut params = SearchParams::for_size(size, 2_000);
        params.threads = 1;
        let stop = AtomicBool::new(false);
        let empty = Game::new(size, crate::rules::Ruleset::Chinese);
        let mut search = Search::new(PlayoutPolicy::heavy());
        let first = search.run(&empty, Color::Black, &params, &stop).unwrap();
        assert_eq!(first.stats.reused_visits, 0);
        // The same position: the tree goes on.
        let again = search.run(&empty, Color::Black, &params, &stop).unwrap();
        assert!(again.stats.reused_visits > 0);
        // Stones on every move the root knows, with the key made to match (as the key of
        // before this guard did for set-up stones): the descent meets a stone at once.
        let mut covered = empty.clone();
        for p in size.all_points().filter(|p| p.index() % 2 == 0) {
            let _ = covered.play(Color::White, Move::Play(p));
        }
        search.root = Some(RootKey::of(&covered, Color::Black, &params));
        let error = search.run(&covered, Color::Black, &params, &stop);
        assert_eq!(error.err(), Some(SearchError::TreeMismatch));
        // Dropped: the next search starts afresh and answers.
        let after = search.run(&covered, Color::Black, &params, &stop).unwrap();
        assert_eq!(after.stats.reused_visits, 0);
        assert!(covered.is_legal(Color::Black, after.best));
    }

    #[test]
    fn a_restricted_root_chooses_among_its_moves_and_a_stale_set_among_all() {
        let size = BoardSize::NINE;
        let mut game = Game::new(size, crate::rules::Ruleset::Chinese);
        let at = |name: &str| size.parse_point(name).unwrap();
        game.play(Color::Black, Move::Play(at("E5"))).unwrap();
        let mut params = SearchParams::for_size(size, 400);
        params.threads = 1;
        params.max_time = None;
        let mut read = Bitboard::EMPTY;
        read.insert(at("A1"));
        read.insert(at("J9"));
        params.root_moves = Some(read);
        let mut search = Search::new(PlayoutPolicy::heavy());
        let result = search
            .run(&game, Color::White, &params, &AtomicBool::new(false))
            .unwrap();
        let is_read = |m: Move| matches!(m, Move::Play(p) if read.contains(p));
        assert!(
            result
                .candidates
                .iter()
                .all(|c| c.mv == Move::Pass || is_read(c.mv))
        );
        assert!(is_read(result.best), "{:?}", result.best);
        // Only an occupied point read: the root chooses among every move.
        let mut stale = Bitboard::EMPTY;
        stale.insert(at("E5"));
        params.root_moves = Some(stale);
        let result = Search::new(PlayoutPolicy::heavy())
            .run(&game, Color::White, &params, &AtomicBool::new(false))
            .unwrap();
        assert!(result.candidates.len() > 10, "{}", result.candidates.len());
    }

    fn candidate(code: u16, visits: u32, lcb: f32) -> Candidate {
        Candidate {
            mv: decode(code),
            visits,
            win_rate: lcb + 0.05,
            prior: 0.5,
            lcb,
            pv: vec![],
            score_lead: None,
        }
    }

    #[test]
    fn a_well_visited_rival_with_a_higher_lower_bound_takes_the_lead() {
        let mut c = vec![
            candidate(10, 1000, 0.40),
            candidate(11, 300, 0.55),
            candidate(12, 50, 0.90),
        ];
        promote_safest_leader(&mut c);
        // 12 has too few visits (under a tenth of the leader's) to be trusted.
        assert_eq!(
            c.iter().map(|c| c.visits).collect::<Vec<_>>(),
            [300, 1000, 50]
        );
        let mut d = vec![candidate(10, 1000, 0.60), candidate(11, 300, 0.55)];
        promote_safest_leader(&mut d);
        assert_eq!(d[0].visits, 1000);
    }
}
