//! The engine: a game, a search that keeps its tree, a level and a clock, and one method
//! per use case (generate a move, analyse). GTP and the match runner sit on top of it.

use crate::knowledge::network::Network;
use crate::knowledge::planes::{InputPlanes, history_of_record};
use crate::knowledge::{Model, Recent};
use crate::referee::{self, Effort, Judgement};
use crate::rules::{BoardSize, Color, Game, Move, Point, Ruleset};
use crate::search::network_priors::NetworkUse;
use crate::search::policy::PlayoutPolicy;
use crate::search::time::Clock;
use crate::search::tree::Tree;
use crate::search::{Search, SearchParams};
// The engine is the front ends' one door to the search: what they see of it comes from here.
pub use crate::search::time::TimeControl;
pub use crate::search::{SearchResult, SearchStats};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The difficulty levels of RULES.md §8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Level {
    Easy,
    #[default]
    Normal,
    Hard,
    /// Full strength: the policy network on, every core, the level's or the clock's time.
    Max,
}

/// What a level is: all of it in one struct, so levels are values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSettings {
    /// Thinking time per move when no clock is set: the most a move may take.
    pub time: Duration,
    /// How far the level reads: a playout cap per move on 9x9, 13x13 and 19x19 (other
    /// sizes take the nearest), so that strength depends little on the machine.
    pub playouts: [u64; 3],
    /// How the level picks among the search's candidates.
    pub choice: Choice,
    /// Small endgame fights are read out exactly (`referee::endgame`): a weak player
    /// does not count the last points.
    pub reads_endgame: bool,
    /// Resign when the win rate stays below this on two moves in a row (`None`: never).
    pub resign_below: Option<f32>,
    /// Pass first when far ahead (only when the pass is safe).
    pub pass_when_won: bool,
    /// The policy network's priors (when the engine has a network for the board size).
    pub network: bool,
}

/// A level's move choice: the best move, or one drawn among the moves the search found
/// nearly as good, as a weaker player picks a plausible move rather than the best one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// 0: the search's best move. Above 0: a candidate drawn with weight
    /// visits^(1/temperature) (1: in proportion to the visits).
    pub temperature: f64,
    /// A drawn candidate loses at most this much win rate against the best.
    pub max_loss: f32,
    /// ... and has at least this share of the best's visits.
    pub min_visits_share: f64,
}

impl Choice {
    pub const BEST: Choice = Choice {
        temperature: 0.0,
        max_loss: 0.0,
        min_visits_share: 1.0,
    };
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Normal, Level::Hard, Level::Max];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }

    /// The levels' table (README "Levels"; their ranks are measured in BENCHMARKS.md).
    pub fn settings(self) -> LevelSettings {
        match self {
            Level::Easy => LevelSettings {
                time: Duration::from_millis(300),
                playouts: [1_000, 1_200, 1_400],
                choice: Choice {
                    temperature: 1.0,
                    max_loss: 0.05,
                    min_visits_share: 0.2,
                },
                reads_endgame: false,
                resign_below: None,
                pass_when_won: false,
                network: false,
            },
            Level::Normal => LevelSettings {
                time: Duration::from_millis(1200),
                playouts: [3_000, 3_500, 2_000],
                choice: Choice::BEST,
                reads_endgame: true,
                resign_below: Some(0.08),
                pass_when_won: true,
                network: false,
            },
            Level::Hard => LevelSettings {
                time: Duration::from_millis(2800),
                playouts: [25_000, 12_000, 56_000],
                choice: Choice::BEST,
                reads_endgame: true,
                resign_below: Some(0.08),
                pass_when_won: true,
                network: false,
            },
            // No playout cap: the time (2.8 s, --time, or the clock's share) decides.
            Level::Max => LevelSettings {
                time: Duration::from_millis(2800),
                playouts: [u64::MAX; 3],
                choice: Choice::BEST,
                reads_endgame: true,
                resign_below: Some(0.08),
                pass_when_won: true,
                network: true,
            },
        }
    }

    /// The playout cap on a board of `size`: the table's entry for the nearest of 9x9,
    /// 13x13 and 19x19.
    pub fn playout_cap(self, size: BoardSize) -> u64 {
        let caps = self.settings().playouts;
        match size.get() {
            0..=10 => caps[0],
            11..=15 => caps[1],
            _ => caps[2],
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown level {s:?} (easy, normal, hard, max)"))
    }
}

/// Settings that come from the command line.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub level: Level,
    pub threads: usize,
    /// A fixed playout budget per move, instead of the level's time and cap.
    pub playouts: Option<u64>,
    /// A fixed time per move, instead of the level's.
    pub time: Option<Duration>,
    pub seed: u64,
    pub deterministic: bool,
    /// The memory the process may hold, in MiB (see [`tree_nodes`]).
    pub max_memory_mb: usize,
    /// What the controller and the network add to every move: kept back from the clock.
    pub lag: Duration,
    /// Think on the opponent's time (GTP: after our move, until the next command).
    pub ponder: bool,
    /// Resign hopeless games (at the levels that do); off: play on to two passes.
    pub resign: bool,
    /// Learned move knowledge: the search's priors and `yeoul-policy`.
    pub knowledge: Option<Arc<Model>>,
    /// The policy network, for the levels that use it (`None`: `--no-net`).
    pub network: Option<Arc<Network>>,
    /// Visits a node needs before the network rates its children (the root at once).
    pub network_threshold: u32,
    /// No search: the network's most probable legal move at once, whatever the level
    /// (the network alone, to measure it).
    pub network_only: bool,
    /// The network rates a node in the worker that asks, instead of a thread of its own.
    pub network_inline: bool,
    /// The search uses the hand-written priors instead of the learned ones (comparisons).
    pub hand_priors: bool,
    /// The playouts draw their 3x3 pattern move by the learned γ.
    pub learned_playouts: bool,
    /// The playouts answer two-liberty fights (`PlayoutPolicy::two_liberties`).
    pub two_liberty_playouts: bool,
    /// See `SearchParams::amaf_distance`.
    pub amaf_distance: u32,
    /// The arbiter's search playouts a side, instead of its effort for the board size
    /// (quick verdicts: the fuzz targets and tests that only need an answer).
    pub arbiter_playouts: Option<u64>,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            level: Level::Normal,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            playouts: None,
            time: None,
            seed: 1,
            deterministic: false,
            max_memory_mb: 1024,
            lag: crate::search::time::DEFAULT_LAG,
            ponder: false,
            resign: true,
            knowledge: Model::builtin().ok(),
            network: Network::builtin().ok(),
            network_threshold: NETWORK_THRESHOLD,
            network_only: false,
            network_inline: false,
            hand_priors: false,
            learned_playouts: false,
            two_liberty_playouts: false,
            amaf_distance: 0,
            arbiter_playouts: None,
        }
    }
}

/// Visits before a node's children get the network's priors (AlphaGo: 40).
pub const NETWORK_THRESHOLD: u32 = 40;

/// Room for what the engine holds besides its tree while it thinks: the referee's
/// searches, GTP's lines and answers; and each thread's stack and buffers.
const WORKING_MARGIN: usize = (8 << 20) + referee::SEARCH_NODES * Tree::NODE_BYTES;
const THREAD_MARGIN: usize = 1 << 20;

/// Bytes the process holds besides the search tree: what it held when the first engine
/// asked (the code, the model's tables, the network's weights), and room for the
/// threads, GTP's strings and the network's buffers (each worker's, and the evaluating
/// thread's).
fn fixed_memory(config: &EngineConfig) -> usize {
    let at_start = memory_at_start(config);
    let threads = config.threads.max(1);
    let network = config.network.as_deref().map_or(0, |n| {
        threads * n.scratch_bytes(1) + n.scratch_bytes(crate::search::network_priors::BATCH)
    });
    at_start + WORKING_MARGIN + THREAD_MARGIN * threads + network
}

/// What the process held when first asked, the model's shape table counted whole even
/// when it is not built yet (it is asked before the resident set is read).
fn memory_at_start(config: &EngineConfig) -> usize {
    static AT_START: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *AT_START.get_or_init(|| {
        let pending = config
            .knowledge
            .as_deref()
            .filter(|m| !m.is_prepared())
            .map_or(0, Model::table_bytes);
        // Where the system does not say, what a release build holds on Linux, doubled.
        resident_bytes().unwrap_or(140 << 20) + pending
    })
}

/// Builds the model's shape table on a thread of its own, so that the engine answers
/// at once (about 0.2 s of start-up otherwise); a move that needs the table first waits
/// for it. The memory is taken before the thread starts, so that `--max-memory` does not
/// depend on how far it got.
pub fn prepare_in_background(config: &EngineConfig) {
    memory_at_start(config);
    if let Some(model) = config.knowledge.clone() {
        std::thread::spawn(move || model.prepare());
    }
}

/// The resident set size of this process (from Linux's /proc; `None` elsewhere).
fn resident_bytes() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib << 10)
}

/// The nodes the search tree may hold so that the whole process stays within
/// `--max-memory`: half of what the fixed part leaves, because tree reuse copies the
/// subtree it keeps before it drops the old tree, and both are held for that moment.
/// Whole chunks, since a tree allocates a chunk at a time.
pub fn tree_nodes(config: &EngineConfig) -> usize {
    let limit = config.max_memory_mb << 20;
    let chunks = limit.saturating_sub(fixed_memory(config)) / 2 / Tree::MIN_BYTES;
    chunks.max(1) * (Tree::MIN_BYTES / Tree::NODE_BYTES)
}

/// Checks at start that `--max-memory` leaves room for a tree that can search.
pub fn check_memory(config: &EngineConfig) -> Result<(), String> {
    let fixed = fixed_memory(config);
    let needed = fixed + 2 * Tree::MIN_BYTES;
    let mib = |bytes: usize| bytes.div_ceil(1 << 20);
    if config.max_memory_mb << 20 < needed {
        return Err(format!(
            "--max-memory {} MiB is too small: the engine holds {} MiB besides its search tree \
             and needs at least {} MiB",
            config.max_memory_mb,
            mib(fixed),
            mib(needed)
        ));
    }
    Ok(())
}

/// A genmove answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(Move),
    Resign,
}

/// One line per move on stderr with `-v`: what the search spent and found.
fn log_move(
    size: BoardSize,
    color: Color,
    reply: Reply,
    result: &SearchResult,
    decision: Decision,
    spent: Duration,
) {
    if !log::log_enabled!(log::Level::Info) {
        return;
    }
    let name = |mv: Move| match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => size.name(p),
    };
    let chosen = match reply {
        Reply::Move(mv) => name(mv),
        Reply::Resign => "resign".to_string(),
    };
    let best: Vec<String> = result
        .candidates
        .iter()
        .take(3)
        .map(|c| format!("{} {}", name(c.mv), c.visits))
        .collect();
    log::info!(
        "{color:?} {chosen} ({decision:?}): {} playouts in {:.2} s, win rate {:.1}%, candidates {}",
        result.stats.playouts,
        spent.as_secs_f64(),
        100.0 * result.win_rate,
        best.join(", ")
    );
}

/// How long [`Engine::benchmark`] searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BenchmarkLimit {
    Time(Duration),
    Playouts(u64),
}

/// Why the engine passed or resigned, for `yeoul-stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Searched,
    /// The game reached the move limit: pass from then on.
    MoveLimit,
    /// The opponent passed and the game is decided by the ownership count.
    PassWon,
    /// The tree's best move was a pass, and the count says it is safe.
    PassSafe,
    /// Nothing legal but filling own eyes.
    NoMoves,
    Resigned,
    /// The level's choice drawn among nearly best candidates (`Choice`).
    Drawn,
    /// A neutral point filled before passing (area rules).
    Cleanup,
    /// The move comes from reading out the small local games of the endgame (the best
    /// of the game the search chose, or the biggest of them).
    LocalReading,
    /// The policy network's most probable move, without search (`--net-only`).
    Network,
}

pub struct Engine {
    game: Game,
    search: Search,
    config: EngineConfig,
    clocks: [Clock; 2],
    rng: Pcg32,
    /// Consecutive genmoves whose win rate was below the level's resign threshold.
    hopeless_moves: [u32; 2],
    /// Games started: mixed into the seeds, so that a match's games differ.
    games_started: u64,
    last: Option<(SearchResult, Decision)>,
    /// The last judgement.
    judgement: Option<KnownJudgement>,
    /// What the last judgement took for each search playout a side and each point of the
    /// board (before the first, an estimate): how long the next would take.
    judgement_unit_cost: Duration,
    /// Time the judgements of the move under way took (kept out of `move_overhead`).
    judging: Duration,
    /// What a move costs besides its search and judgements (tree reuse, reading, the
    /// answer), a slowly decaying maximum of the moves measured: set aside from the
    /// clock for every move to come.
    move_overhead: Duration,
}

impl Engine {
    pub fn new(size: BoardSize, ruleset: Ruleset, config: EngineConfig) -> Engine {
        Engine {
            game: Game::new(size, ruleset),
            search: Search::new(playout_policy(&config))
                .with_knowledge(config.knowledge.clone().filter(|_| !config.hand_priors))
                .with_network(config.network.clone()),
            rng: Pcg32::seed_from_u64(config.seed),
            judgement_unit_cost: INITIAL_JUDGEMENT_UNIT_COST / config.threads.max(1) as u32,
            judging: Duration::ZERO,
            move_overhead: INITIAL_MOVE_OVERHEAD,
            config,
            clocks: [Clock::new(TimeControl::None); 2],
            hopeless_moves: [0; 2],
            games_started: 0,
            last: None,
            judgement: None,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, for commands that change it (play, undo, komi, handicap...).
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// Replaces the game (GTP `loadsgf`).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.games_started += 1;
        self.search.clear();
        self.hopeless_moves = [0; 2];
        self.last = None;
        // A loaded game is judged afresh, whatever a pass of the last game relied on.
        self.judgement = None;
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    pub fn set_level(&mut self, level: Level) {
        self.config.level = level;
    }

    /// A new random seed (GTP `yeoul-seed`); the tree is dropped so that it takes effect.
    pub fn set_seed(&mut self, seed: u64) {
        self.config.seed = seed;
        self.rng = Pcg32::seed_from_u64(seed);
        self.search.clear();
    }

    /// A search of the current position for `color` with the move's budget, going on with
    /// the tree when it stands for this position (GoGui's analysis commands).
    pub fn current_analysis(&mut self, color: Color, stop: &AtomicBool) -> SearchResult {
        let params = self.params_for(color);
        self.analyze(color, &params, stop)
    }

    /// A fresh game of `size` (keeping rule set and komi).
    pub fn new_game(&mut self, size: BoardSize) {
        let mut game = Game::new(size, self.game.ruleset());
        if let Some(komi) = self.explicit_komi() {
            game.set_komi(komi);
        }
        self.game = game;
        self.games_started += 1;
        self.search.clear();
        self.hopeless_moves = [0; 2];
        self.last = None;
        // A new game is judged afresh, whatever a pass of the last game relied on.
        self.judgement = None;
    }

    fn explicit_komi(&self) -> Option<f64> {
        let default = self.game.ruleset().default_komi(self.game.handicap());
        (self.game.komi() != default).then_some(self.game.komi())
    }

    pub fn set_time_control(&mut self, control: TimeControl) {
        self.clocks = [Clock::new(control); 2];
    }

    pub fn clock_mut(&mut self, color: Color) -> &mut Clock {
        &mut self.clocks[color.index()]
    }

    /// The network, when the level uses it and it fits the board.
    fn active_network(&self) -> Option<&Network> {
        let network = self.config.network.as_deref()?;
        ((self.config.level.settings().network || self.config.network_only)
            && network.board_size() == self.game.size().get())
        .then_some(network)
    }

    /// The network's most probable legal move for `color` that does not fill an own true
    /// eye, or a pass (`None` without a network for this board).
    fn network_move(&self, color: Color) -> Option<Move> {
        self.active_network()?;
        let board = self.game.board();
        let best = self.policy(color)?.into_iter().find(|&(p, _)| {
            !board.is_true_eye(p, color) && self.game.is_legal(color, Move::Play(p))
        });
        Some(best.map_or(Move::Pass, |(p, _)| Move::Play(p)))
    }

    /// What [`Engine::policy`] answers from: "policy network" or "learned policy".
    pub fn policy_name(&self) -> &'static str {
        if self.active_network().is_some() {
            "policy network"
        } else {
            "learned policy"
        }
    }

    /// The probability of each legal move of `color` in the current position, best
    /// first: the policy network's where the level uses it, else the learned model's
    /// (`None` with neither).
    pub fn policy(&self, color: Color) -> Option<Vec<(Point, f32)>> {
        if let Some(network) = self.active_network() {
            let size = self.game.size();
            let planes = InputPlanes::encode(
                self.game.board(),
                color,
                &history_of_record(self.game.record(), color),
            );
            let mut scratch = network.scratch(1);
            let probabilities = network.policy(&[planes], &mut scratch);
            let mut rated: Vec<(Point, f32)> = size
                .all_points()
                .map(|p| (p, probabilities[size.row_major(p)]))
                .filter(|&(_, prob)| prob > 0.0)
                .collect();
            rated.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.index().cmp(&b.0.index())));
            return Some(rated);
        }
        let model = self.config.knowledge.as_deref()?;
        let recent = Recent::from_record(self.game.record(), color);
        Some(crate::knowledge::move_probabilities(
            model,
            self.game.board(),
            color,
            recent,
        ))
    }

    /// The last search and what was decided from it.
    pub fn last_search(&self) -> Option<&(SearchResult, Decision)> {
        self.last.as_ref()
    }

    /// The search parameters for the next move of `color`.
    fn params_for(&self, color: Color) -> SearchParams {
        let size = self.game.size();
        let level = self.config.level;
        let mut params = SearchParams::for_size(size, level.playout_cap(size));
        params.threads = self.config.threads.max(1);
        // The game number too, so that the games of a match differ.
        params.seed = self.config.seed
            ^ (self.game.record().len() as u64).wrapping_mul(0x9E37_79B9)
            ^ self.games_started.wrapping_mul(0xD1B5_4A32_D192_ED03);
        params.deterministic = self.config.deterministic;
        // Points count a little besides the win: no slack moves once ahead.
        params.score_utility = Some(crate::search::ScoreUtility {
            scale: 0.5 * size.get() as f32,
            weight: 0.2,
        });
        params.amaf_distance = self.config.amaf_distance;
        params.max_nodes = tree_nodes(&self.config);
        if self.active_network().is_some() {
            params.network = Some(NetworkUse {
                threshold: self.config.network_threshold,
                inline: self.config.network_inline,
            });
        }
        let mut budget = self.clock_budget(color, self.level_time());
        if self.judgement_likely(color) {
            // The arbiter's look at the end comes out of the move's time, not on top.
            let limit = self.move_limit(color);
            let reserve = (2 * self.judgement_cost(&self.quick_effort())).min(limit / 2);
            budget = budget.min(limit.saturating_sub(reserve));
        }
        params.max_time = Some(budget);
        if let Some(playouts) = self.config.playouts {
            params.max_playouts = playouts;
            params.max_time = None;
        }
        // Reproducible: playouts alone bound the search. A level without a playout cap
        // (max) keeps its time instead, as the command line requires --playouts there.
        if self.config.deterministic && params.max_playouts != u64::MAX {
            params.max_time = None;
            params.early_stop = false;
        }
        params
    }

    /// Searches for `color` without playing, stoppable through `stop`.
    fn analyze(&mut self, color: Color, params: &SearchParams, stop: &AtomicBool) -> SearchResult {
        self.search.run(&self.game, color, params, stop)
    }

    /// The clock's thinking time for `color`'s next move, at most `level_time`.
    fn clock_budget(&self, color: Color, level_time: Duration) -> Duration {
        self.clocks[color.index()].budget(
            level_time,
            self.config.lag,
            self.move_overhead,
            self.game.board().empty_count(),
            self.game.size().points(),
        )
    }

    /// What a move of `color` may spend: the time (none without a clock or level time)
    /// and the playouts.
    pub fn move_budget(&self, color: Color) -> (Option<Duration>, u64) {
        let params = self.params_for(color);
        (params.max_time, params.max_playouts)
    }

    /// One step of open-ended analysis for `color` (`kata-analyze` and the like): the
    /// move's search for `interval`, with no playout cap, going on with the tree.
    pub fn analysis_step(
        &mut self,
        color: Color,
        interval: Duration,
        stop: &AtomicBool,
    ) -> SearchResult {
        self.search_step(color, interval, u64::MAX, true, stop)
    }

    /// One step of a move's thinking that prints as it goes (`kata-genmove_analyze`):
    /// the move's own search settings for `interval`, spending at most `playouts`.
    pub fn genmove_step(
        &mut self,
        color: Color,
        interval: Duration,
        playouts: u64,
        stop: &AtomicBool,
    ) -> SearchResult {
        self.search_step(color, interval, playouts, false, stop)
    }

    /// The move's search for `interval` and at most `playouts`, never stopped early;
    /// `open` (analysis, pondering) searches freely even in deterministic mode.
    fn search_step(
        &mut self,
        color: Color,
        interval: Duration,
        playouts: u64,
        open: bool,
        stop: &AtomicBool,
    ) -> SearchResult {
        let mut params = self.params_for(color);
        params.max_time = Some(interval);
        params.max_playouts = playouts;
        params.early_stop = false;
        if open {
            params.deterministic = false;
        }
        self.analyze(color, &params, stop)
    }

    /// Thinks about the position for the side to move until `stop` is set, so that the
    /// tree is ready when its move comes; bounded by twenty times the level's playout
    /// budget (the tree's memory cap holds anyway).
    pub fn ponder(&mut self, stop: &AtomicBool) {
        if self.game.is_over() {
            return;
        }
        let color = self.game.to_move();
        let limit = self.params_for(color).max_playouts.saturating_mul(20);
        let mut spent = 0;
        while spent < limit && !stop.load(std::sync::atomic::Ordering::Relaxed) {
            spent += self
                .search_step(color, Duration::from_millis(500), limit - spent, true, stop)
                .stats
                .playouts;
        }
    }

    /// A search of the empty board of `size` under the current rules, for GTP's
    /// `yeoul-benchmark`: for `seconds`, or for `playouts` when that is given, on `threads`.
    pub fn benchmark(
        &self,
        size: BoardSize,
        limit: BenchmarkLimit,
        threads: usize,
        stop: &AtomicBool,
    ) -> SearchStats {
        let mut params = SearchParams::for_size(size, u64::MAX);
        params.threads = threads;
        params.early_stop = false;
        // Beside the game's own tree, within the same share of --max-memory.
        params.max_nodes = tree_nodes(&self.config);
        match limit {
            BenchmarkLimit::Time(t) => params.max_time = Some(t),
            BenchmarkLimit::Playouts(n) => params.max_playouts = n,
        }
        let game = Game::new(size, self.game.ruleset());
        let mut search = Search::new(PlayoutPolicy::heavy());
        search.run(&game, Color::Black, &params, stop).stats
    }

    /// The move `genmove` would choose, without playing it or counting it towards a
    /// resignation (GTP `reg_genmove`).
    pub fn choose(&mut self, color: Color, stop: &AtomicBool) -> Reply {
        let started = Instant::now();
        let params = self.params_for(color);
        let streaks = self.hopeless_moves;
        let (reply, result, decision) = self.decide(color, &params, started, stop);
        self.hopeless_moves = streaks;
        self.last = Some((result, decision));
        reply
    }

    /// Chooses a move for `color`, plays it on the game, and says why.
    pub fn genmove(&mut self, color: Color, stop: &AtomicBool) -> Reply {
        self.genmove_within(color, stop, None)
    }

    /// [`Engine::genmove`] thinking at most `time_cap` (after analysis already spent some).
    pub fn genmove_within(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        time_cap: Option<Duration>,
    ) -> Reply {
        self.judging = Duration::ZERO;
        self.genmove_from(color, stop, time_cap, Instant::now())
    }

    /// [`Engine::genmove_within`] for a move that began at `started` (the clock is
    /// charged from then).
    fn genmove_from(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        time_cap: Option<Duration>,
        started: Instant,
    ) -> Reply {
        let mut params = self.params_for(color);
        if let (Some(cap), Some(t)) = (time_cap, params.max_time) {
            params.max_time = Some(t.min(cap));
        }
        let (reply, result, decision) = self.decide(color, &params, started, stop);
        let thinking = params
            .max_time
            .map_or(result.stats.elapsed, |t| t.min(result.stats.elapsed))
            + self.judging;
        self.move_overhead = started
            .elapsed()
            .saturating_sub(thinking)
            .max(self.move_overhead.mul_f64(0.9));
        if let Reply::Move(mv) = reply
            && self.game.play(color, mv).is_err()
        {
            // The search only proposes legal moves; a pass is the safe answer if not.
            log::error!("search proposed an illegal move; passing");
            let _ = self.game.play(color, Move::Pass);
        }
        self.clocks[color.index()].charge(started.elapsed());
        log_move(
            self.game.size(),
            color,
            reply,
            &result,
            decision,
            started.elapsed(),
        );
        self.last = Some((result, decision));
        reply
    }

    /// `genmove` for KGS's cleanup phase: while opposing stones the arbiter judges dead
    /// are on the board, capture them (never pass, never resign); then play on as usual.
    /// Under a clock the whole move, judgement included, may take longer than the
    /// level's time but never longer than the clock allows: a judgement the clock cuts
    /// short leaves the move to the search.
    pub fn genmove_cleanup(&mut self, color: Color, stop: &AtomicBool) -> Reply {
        let started = Instant::now();
        self.judging = Duration::ZERO;
        let limit = self.clocks[color.index()]
            .hard_limit()
            .map(|l| l.saturating_sub(self.config.lag));
        let left = |now: Instant| limit.map(|l| l.saturating_sub(now.duration_since(started)));
        let effort = Effort {
            // A twentieth of the room is kept for the move itself.
            deadline: limit.and_then(|l| started.checked_add(l - l / 20)),
            ..self.quick_effort()
        };
        let judgement = match self.judgement_with(Some(effort)) {
            Some(j) if !(j.dead & self.game.board().stones(color.opponent())).is_empty() => j,
            // Nothing left to capture, or no verdict in time: play on as usual.
            _ => return self.genmove_from(color, stop, left(Instant::now()), started),
        };
        let mv = match referee::capturing_move(&self.game, &judgement, color) {
            Some(p) => Move::Play(p),
            None => {
                // No safe liberty of a dead chain: the search's best move that is not a pass.
                let mut params = self.params_for(color);
                if let Some(room) = left(Instant::now()) {
                    params.max_time = Some(params.max_time.map_or(room, |t| t.min(room)));
                }
                let result = self.search.run(&self.game, color, &params, stop);
                let mv = result
                    .candidates
                    .iter()
                    .map(|c| c.mv)
                    .find(|&m| m != Move::Pass)
                    .unwrap_or(Move::Pass);
                self.last = Some((result, Decision::Cleanup));
                mv
            }
        };
        let mv = if self.game.play(color, mv).is_ok() {
            mv
        } else {
            log::error!("cleanup chose an illegal move; passing");
            let _ = self.game.play(color, Move::Pass);
            Move::Pass
        };
        self.clocks[color.index()].charge(started.elapsed());
        Reply::Move(mv)
    }

    /// The move for `color` from a search with `params`, for a move that began at
    /// `started`.
    fn decide(
        &mut self,
        color: Color,
        params: &SearchParams,
        started: Instant,
        stop: &AtomicBool,
    ) -> (Reply, SearchResult, Decision) {
        if self.config.network_only
            && let Some(mv) = self.network_move(color)
        {
            let result = SearchResult {
                color,
                best: mv,
                win_rate: 0.5,
                candidates: Vec::new(),
                ownership: vec![0.0; self.game.size().points()],
                score_lead: 0.0,
                stats: SearchStats {
                    elapsed: started.elapsed(),
                    network_evaluations: 1,
                    ..SearchStats::default()
                },
            };
            return (Reply::Move(mv), result, Decision::Network);
        }
        let result = self.search.run(&self.game, color, params, stop);
        let settings = self.config.level.settings();
        if self.game.record().len() >= self.game.move_limit() {
            return (Reply::Move(Move::Pass), result, Decision::MoveLimit);
        }
        // Resign: hopeless on two moves in a row, with enough playouts to trust it.
        if let Some(threshold) = settings.resign_below.filter(|_| self.config.resign) {
            let streak = &mut self.hopeless_moves[color.index()];
            if result.win_rate < threshold && result.stats.playouts >= 500 {
                *streak += 1;
            } else {
                *streak = 0;
            }
            if *streak >= 2 {
                return (Reply::Resign, result, Decision::Resigned);
            }
        }
        let opponent_passed = self.game.passes_before(color) > 0;
        let mut choice = result.best;
        let mut decision = Decision::Searched;
        // A search that sees every move win (or lose) alike may pass with points still
        // on the board: the biggest local game read out is worth more than a pass.
        if choice == Move::Pass
            && let Some(q) = self.endgame_reading(color, choice, &result, started)
        {
            return (Reply::Move(Move::Play(q)), result, Decision::LocalReading);
        }
        let considers_passing = opponent_passed || choice == Move::Pass;
        if considers_passing {
            let judgement = self.judgement_after_pass(color, started.elapsed());
            let judged = judgement.is_some();
            match self.end_of_game_move(
                color,
                &result,
                judgement,
                opponent_passed,
                settings.pass_when_won,
            ) {
                Some(Move::Pass) => {
                    if judged {
                        self.count_on_judgement_after_pass();
                    }
                    let decision = if opponent_passed {
                        Decision::PassWon
                    } else if result.candidates.len() <= 1 {
                        Decision::NoMoves
                    } else {
                        Decision::PassSafe
                    };
                    return (Reply::Move(Move::Pass), result, decision);
                }
                Some(mv) => {
                    return (Reply::Move(mv), result, Decision::Cleanup);
                }
                None => {
                    if choice == Move::Pass
                        && let Some(c) = result.candidates.iter().find(|c| c.mv != Move::Pass)
                    {
                        choice = c.mv;
                    }
                }
            }
            if choice == Move::Pass {
                decision = Decision::NoMoves;
            }
        }
        // Small local games are read out to the end: the exact best move within the one
        // the search chose, or a bigger game when the reading can compare.
        if choice != Move::Pass
            && let Some(q) = self.endgame_reading(color, choice, &result, started)
        {
            choice = Move::Play(q);
            decision = Decision::LocalReading;
        }
        // Territory rules: a stone inside settled territory costs a point (own) or hands
        // over a prisoner (the opponent's); when the count wins, or the search finds
        // nothing that saves a lost game, fill a dame or pass.
        if let Move::Play(p) = choice
            && decision != Decision::LocalReading
            && self.game.ruleset().scoring() == crate::rules::Scoring::Territory
            && inside_settled_area(&self.game, &result, p)
            && let Some(judgement) = self.judgement_after_pass(color, started.elapsed())
        {
            let territory = judgement.territory(&self.game);
            let decided =
                judgement.score(&self.game).winner() == Some(color) || result.win_rate < HOPELESS;
            if (territory.black | territory.white).contains(p)
                && decided
                && !self.needs_answer(color, &judgement)
                && !answers_an_invasion(&self.game, &judgement, p)
            {
                return match self.closing_move(color, &judgement) {
                    Some(dame) => (Reply::Move(Move::Play(dame)), result, Decision::Cleanup),
                    None => {
                        self.count_on_judgement_after_pass();
                        (Reply::Move(Move::Pass), result, Decision::PassSafe)
                    }
                };
            }
        }
        if decision == Decision::Searched
            && let Some(drawn) = draw_candidate(&result, choice, settings.choice, &mut self.rng)
            && drawn != choice
        {
            choice = drawn;
            decision = Decision::Drawn;
        }
        (Reply::Move(choice), result, decision)
    }

    /// The move the endgame's local games, read out, ask instead of the search's `choice`
    /// (`referee::endgame::endgame_move`), at levels that read, unless the search refutes it.
    fn endgame_reading(
        &self,
        color: Color,
        choice: Move,
        result: &SearchResult,
        started: Instant,
    ) -> Option<crate::rules::Point> {
        if !self.config.level.settings().reads_endgame {
            return None;
        }
        let reading = Instant::now();
        let q = referee::endgame::endgame_move(
            &self.game,
            color,
            choice,
            |q| ownership(&self.game, result, q),
            started.checked_add(self.move_limit(color)),
        )?;
        let mv = Move::Play(q);
        let playable = self.game.is_legal(color, mv) && !search_refutes(result, mv);
        log::debug!(
            "local reading: {q:?} for {choice:?} in {:?}",
            reading.elapsed()
        );
        playable.then_some(q)
    }

    /// A move that closes the game without changing its count: a neutral point filled
    /// (a point under area rules, and one that can cost a point later if left open), or
    /// the connection one of them will ask of us.
    fn closing_move(&self, color: Color, judgement: &Judgement) -> Option<crate::rules::Point> {
        referee::fillable_dame(&self.game, judgement, color)
            .or_else(|| referee::teire(&self.game, judgement, color))
    }

    /// Whether something of `color`'s still needs a move: a living chain in atari, or one
    /// that lives only if its owner moves first.
    fn needs_answer(&self, color: Color, judgement: &Judgement) -> bool {
        let board = self.game.board();
        let ours = board.stones(color) & !judgement.dead;
        ours.iter()
            .any(|p| !judgement.seki.contains(p) && board.is_in_atari(p))
            || !(judgement.unsettled & board.stones(color)).is_empty()
    }

    /// The end-of-game answer when the opponent has passed or the search likes a pass:
    /// `Some(pass)` when passing is safe (the arbiter's count wins, or after the
    /// opponent's pass nothing can change a lost count, and nothing of ours still needs an
    /// answer), `Some(dame)` when a neutral point is worth a point under area rules, `None`
    /// to play the search's move. Passing first when ahead needs `pass_when_won`.
    /// Without the arbiter's `judgement` (no time for it), the search's word decides.
    fn end_of_game_move(
        &mut self,
        color: Color,
        result: &SearchResult,
        judgement: Option<Judgement>,
        opponent_passed: bool,
        pass_when_won: bool,
    ) -> Option<Move> {
        let Some(judgement) = judgement else {
            // A pass answers a pass when the search thinks the game won, or lost beyond
            // saving.
            let decided = result.win_rate > 0.5 || result.win_rate < HOPELESS;
            let pass = result.best == Move::Pass || (opponent_passed && decided);
            return pass.then_some(Move::Pass);
        };
        if self.needs_answer(color, &judgement) {
            return None;
        }
        // Area rules: each neutral point is a point. Territory rules: worth nothing, but
        // free, and one left open can cost a point later (a missing teire).
        if let Some(p) = self.closing_move(color, &judgement) {
            return Some(Move::Play(p));
        }
        // A count over an open border is no count: the region behind it is nobody's.
        let wins = judgement.score(&self.game).winner() == Some(color)
            && referee::open_border(&self.game, &judgement).is_empty();
        let hopeless = result.win_rate < HOPELESS || result.best == Move::Pass;
        let safe = if opponent_passed {
            wins || hopeless
        } else {
            pass_when_won && wins
        };
        safe.then_some(Move::Pass)
    }

    /// The arbiter's count of the current position (GTP `final_score`).
    pub fn final_score(&mut self) -> crate::rules::Score {
        self.judgement().score(&self.game)
    }

    /// The arbiter's verdict on the current position, kept while the position, rule set
    /// and komi stay the same (so that repeated questions get the same answer cheaply).
    pub fn judgement(&mut self) -> Judgement {
        self.judgement_with(None)
            .expect("a judgement with no deadline always comes")
    }

    /// The full effort of a quick judgement of this board, the judgement for a decision
    /// during play (passing, cleanup, territory): unclear chains are not looked at again,
    /// since the time comes out of the clock (a full judgement of 19x19 with unclear
    /// groups took up to 12 s in the referee matches). A full judgement of the same
    /// position is used when there is one.
    fn quick_effort(&self) -> Effort {
        self.full_effort().quick()
    }

    /// The arbiter's effort for this board, or the playouts the configuration fixes.
    fn full_effort(&self) -> Effort {
        let effort = Effort::for_board(self.game.size().points(), self.config.threads);
        match self.config.arbiter_playouts {
            Some(playouts) => Effort {
                playouts,
                max_playouts: playouts,
                seki_playouts: effort.seki_playouts.min(playouts),
                ..effort
            },
            None => effort,
        }
    }

    /// The level's thinking time for a move (`--time` overrides it).
    fn level_time(&self) -> Duration {
        self.config
            .time
            .unwrap_or(self.config.level.settings().time)
    }

    /// The most a whole move of `color` may take, search and judgements together: the
    /// level's time, and under a clock what the clock can give (less the lag) and twice
    /// its share of a move (in sudden death the main time would otherwise drain into the
    /// endgame's judgements). A move with a fixed number of playouts is bound by the
    /// clock alone, so that it plays the same whatever the machine's speed.
    fn move_limit(&self, color: Color) -> Duration {
        let fixed = self.config.playouts.is_some() || self.config.deterministic;
        let level = if fixed {
            Duration::MAX
        } else {
            self.level_time()
        };
        match self.clocks[color.index()].hard_limit() {
            None => level,
            Some(limit) => level
                .min(limit.saturating_sub(self.config.lag))
                .min(self.clock_budget(color, Duration::MAX).saturating_mul(2)),
        }
    }

    /// How long a judgement is expected to take for each search playout a side.
    fn judgement_cost_per_playout(&self) -> Duration {
        self.judgement_unit_cost
            .saturating_mul(self.game.size().points() as u32)
    }

    /// How long a judgement with `effort` is expected to take.
    fn judgement_cost(&self, effort: &Effort) -> Duration {
        let playouts = u32::try_from(effort.playouts).unwrap_or(u32::MAX);
        self.judgement_cost_per_playout().saturating_mul(playouts)
    }

    /// Whether this move will likely ask the arbiter: the opponent has passed, or the last
    /// search found most of the board settled (an endgame).
    fn judgement_likely(&self, color: Color) -> bool {
        self.game.passes_before(color) > 0
            || self
                .last
                .as_ref()
                .is_some_and(|(result, _)| settled_share(result) >= SETTLED_SHARE)
    }

    /// The arbiter's judgement of the board that `color`'s pass would leave, the opponent
    /// to move (who wins a race of unsettled chains): the position a pass asks to be
    /// counted, so that the count a pass relies on is the one `final_score` gives after
    /// it. Made when it fits what the move may take after `spent`: with the full quick
    /// effort when that fits twice over, else with fewer playouts (a shorter look, as a
    /// weaker player reads less), and `None` when even `MIN_JUDGEMENT_PLAYOUTS` would not
    /// fit, or the judgement takes longer than its estimate and reaches the move's limit.
    /// A position already judged costs nothing.
    fn judgement_after_pass(&mut self, color: Color, spent: Duration) -> Option<Judgement> {
        // Played and taken back on the game itself: the judgement's cache is keyed by it.
        self.game
            .play(color, Move::Pass)
            .expect("a pass is always legal");
        let judgement = self.judgement_during_play(color, spent);
        self.game.undo().expect("the pass just played");
        judgement
    }

    /// The same as `judgement_after_pass`, for the position now on the board.
    fn judgement_during_play(&mut self, color: Color, spent: Duration) -> Option<Judgement> {
        if let Some(known) = self.known_judgement(true) {
            return Some(known);
        }
        let room = self.move_limit(color).saturating_sub(spent);
        let effort = Effort {
            // A twentieth of the room is kept for what the move does after it.
            deadline: Instant::now().checked_add(room - room / 20),
            ..self.affordable_effort(color, spent)?
        };
        self.judgement_with(Some(effort))
    }

    /// Makes the judgement of the board after the pass being decided (the last one made)
    /// the count of that position: `final_score` and `final_status_list` give it however
    /// quick it was, so that a pass that ends the game is never made on one count and
    /// then reported with another.
    fn count_on_judgement_after_pass(&mut self) {
        if let Some(known) = &mut self.judgement {
            known.counted = true;
        }
    }

    /// The quick judgement's effort that fits twice into what is left of the move.
    fn affordable_effort(&self, color: Color, spent: Duration) -> Option<Effort> {
        let full = self.quick_effort();
        let room = self.move_limit(color).saturating_sub(spent);
        let per_playout = self.judgement_cost_per_playout();
        let affordable = if per_playout.is_zero() {
            full.playouts
        } else {
            (room.as_secs_f64() / (2.0 * per_playout.as_secs_f64())) as u64
        };
        let playouts = affordable.min(full.playouts);
        (playouts >= MIN_JUDGEMENT_PLAYOUTS).then(|| Effort {
            playouts,
            max_playouts: playouts,
            seki_playouts: (full.seki_playouts * playouts / full.playouts).max(1),
            ..full
        })
    }

    /// The judgement of this position already made, if it is as thorough as asked (a
    /// full one answers a quick question too).
    fn known_judgement(&self, quick: bool) -> Option<Judgement> {
        let known = self.judgement.as_ref()?;
        let thorough = quick || !known.quick || known.counted;
        (known.key == self.judgement_key() && thorough).then(|| known.judgement.clone())
    }

    fn judgement_key(&self) -> JudgementKey {
        JudgementKey {
            hash: self.game.board().hash(),
            to_move: self.game.to_move(),
            ruleset: self.game.ruleset(),
            komi_bits: self.game.komi().to_bits(),
        }
    }

    /// The arbiter's judgement of the position: the full one (`None`), or a quick one with
    /// `effort`; a position already judged as thoroughly is not judged again. `None` when
    /// the effort's deadline came first.
    fn judgement_with(&mut self, effort: Option<Effort>) -> Option<Judgement> {
        let quick = effort.is_some();
        if let Some(known) = self.known_judgement(quick) {
            return Some(known);
        }
        let key = self.judgement_key();
        let effort = effort.unwrap_or_else(|| self.full_effort());
        let started = Instant::now();
        let judgement = referee::judge(&self.game, &effort);
        let took = started.elapsed();
        self.judging += took;
        // Cut short, it still took at least this long: the next estimate grows.
        let units = effort.playouts.max(1) * self.game.size().points() as u64;
        self.judgement_unit_cost = took.div_f64(units as f64);
        match &judgement {
            Some(j) => {
                self.judgement = Some(KnownJudgement {
                    key,
                    quick,
                    counted: false,
                    judgement: j.clone(),
                })
            }
            None => log::debug!("arbiter: cut short at the move's limit after {took:?}"),
        }
        judgement
    }
}

/// The heavy playout policy, with the learned shape weights and the 2-liberty check when
/// asked.
fn playout_policy(config: &EngineConfig) -> PlayoutPolicy {
    let mut policy = PlayoutPolicy::heavy();
    policy.two_liberties = config.two_liberty_playouts;
    if config.learned_playouts {
        policy.shape_gammas = config.knowledge.as_ref().map(|m| m.tactical_gammas());
    }
    policy
}

/// What a move is taken to cost besides thinking before one is measured.
const INITIAL_MOVE_OVERHEAD: Duration = Duration::from_millis(5);

/// A search win rate below which no move saves the game: passing costs nothing then.
const HOPELESS: f32 = 0.15;

/// An endgame: the search's ownership settles at least this share of the board.
const SETTLED_SHARE: f32 = 0.5;

/// Fewest search playouts a side of a judgement during play: with fewer its verdict is
/// noise, and the search's word decides instead.
const MIN_JUDGEMENT_PLAYOUTS: u64 = 300;

/// What a judgement is taken to cost a search playout a side and a point of the board
/// on one thread before the first is measured (a full quick judgement of 19x19, 5,000
/// playouts a side, about 3.6 s).
const INITIAL_JUDGEMENT_UNIT_COST: Duration = Duration::from_nanos(2_000);

/// Whether `p` is within two points of stones that only the arbiter's static rule calls
/// dead: a fresh invasion the search wants to answer is answered, not left for a pass
/// while the invader plays on.
fn answers_an_invasion(game: &Game, judgement: &Judgement, p: crate::rules::Point) -> bool {
    let size = game.size();
    let on = game.board().on_board();
    let near = judgement.hopeless.neighbours(size, &on) | judgement.hopeless;
    (near | near.neighbours(size, &on)).contains(p)
}

/// Whether the search's ownership gives `p` firmly to one side, in an endgame where most
/// of the board is settled (the arbiter is asked only then: it costs two searches, seconds
/// on 19x19, and in the opening a point near a corner stone looks owned).
fn inside_settled_area(game: &Game, result: &SearchResult, p: crate::rules::Point) -> bool {
    ownership(game, result, p).abs() >= 0.4 && settled_share(result) >= SETTLED_SHARE
}

/// The share of the board the search's ownership gives firmly to one side.
fn settled_share(result: &SearchResult) -> f32 {
    const FIRM: f32 = 0.7;
    let settled = result.ownership.iter().filter(|o| o.abs() >= FIRM).count();
    settled as f32 / result.ownership.len().max(1) as f32
}

/// A move drawn for `choice` among the search's candidates that are nearly as good as
/// `best` (never a pass); `None` when the level plays the best move.
fn draw_candidate(
    result: &SearchResult,
    best: Move,
    choice: Choice,
    rng: &mut impl Rng,
) -> Option<Move> {
    if choice.temperature <= 0.0 || best == Move::Pass {
        return None;
    }
    let top = result.candidates.iter().find(|c| c.mv == best)?;
    let eligible = |c: &&crate::search::Candidate| {
        c.mv != Move::Pass
            && c.visits > 0
            && c.win_rate >= top.win_rate - choice.max_loss
            && c.visits as f64 >= choice.min_visits_share * top.visits as f64
    };
    let weight = |c: &crate::search::Candidate| (c.visits as f64).powf(1.0 / choice.temperature);
    let total: f64 = result.candidates.iter().filter(eligible).map(weight).sum();
    let mut draw = rng.random::<f64>() * total;
    for c in result.candidates.iter().filter(eligible) {
        draw -= weight(c);
        if draw <= 0.0 {
            return Some(c.mv);
        }
    }
    Some(best)
}

/// Whether the search's own move wins almost surely while `mv` clearly does not: then the
/// search has found what the local count misses (a race the playouts settle only with
/// its move, say), and its move stands. The reading is for the opposite case, moves the
/// search cannot tell apart: in sekis its playouts are wrong by a wide margin (GNU Go's
/// seki suite, test 402: 64% for the pair in atari, 9% for the corner that is worth
/// more), so only a near-certain win outweighs the reading.
fn search_refutes(result: &SearchResult, mv: Move) -> bool {
    const ENOUGH_VISITS: u32 = 100;
    const SURE_WIN: f32 = 0.9;
    const CLEARLY_WORSE: f32 = 0.3;
    let rate = |m: Move| result.candidates.iter().find(|c| c.mv == m);
    match (rate(result.best), rate(mv)) {
        (Some(best), Some(other)) => {
            best.win_rate >= SURE_WIN
                && other.visits >= ENOUGH_VISITS
                && other.win_rate < best.win_rate - CLEARLY_WORSE
        }
        _ => false,
    }
}

/// The search's playout ownership of `p` (+1 Black, -1 White).
fn ownership(game: &Game, result: &SearchResult, p: crate::rules::Point) -> f32 {
    let index = game.size().row_major(p);
    result.ownership.get(index).copied().unwrap_or(0.0)
}

/// A judgement kept for its position.
struct KnownJudgement {
    key: JudgementKey,
    /// Made with a quick effort (during play).
    quick: bool,
    /// A pass of ours relied on it: the count of its position, however quick.
    counted: bool,
    judgement: Judgement,
}

/// What a judgement depends on.
#[derive(Clone, Copy, Debug, PartialEq)]
struct JudgementKey {
    hash: u64,
    to_move: Color,
    ruleset: Ruleset,
    komi_bits: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result_with(ownership: Vec<f32>) -> SearchResult {
        SearchResult {
            color: Color::Black,
            best: Move::Pass,
            win_rate: 0.5,
            candidates: Vec::new(),
            ownership,
            score_lead: 0.0,
            stats: SearchStats::default(),
        }
    }

    fn candidate(name: &str, visits: u32, win_rate: f32) -> crate::search::Candidate {
        let mv = match BoardSize::NINE.parse_point(name) {
            Ok(p) => Move::Play(p),
            Err(_) => Move::Pass,
        };
        crate::search::Candidate {
            mv,
            visits,
            win_rate,
            prior: 0.0,
            lcb: win_rate,
            pv: vec![mv],
        }
    }

    #[test]
    fn a_level_draws_only_among_nearly_best_moves_by_their_visits() {
        let mut result = result_with(vec![0.5; 81]);
        result.candidates = vec![
            candidate("E5", 600, 0.60),
            candidate("C3", 300, 0.55),
            candidate("pass", 500, 0.60),
            candidate("G7", 200, 0.30),
            candidate("D4", 20, 0.60),
        ];
        let best = result.candidates[0].mv;
        let mut rng = Pcg32::seed_from_u64(7);
        assert_eq!(draw_candidate(&result, best, Choice::BEST, &mut rng), None);
        let choice = Choice {
            temperature: 1.0,
            max_loss: 0.1,
            min_visits_share: 0.1,
        };
        let mut counts = std::collections::HashMap::new();
        for _ in 0..9_000 {
            let mv = draw_candidate(&result, best, choice, &mut rng).unwrap();
            *counts.entry(mv).or_insert(0) += 1;
        }
        // Not the pass, not G7 (30 points worse), not D4 (under a tenth of the visits):
        // E5 and C3 by their visits, 2 to 1.
        assert_eq!(counts.len(), 2, "{counts:?}");
        let e5 = counts[&best] as f64;
        let c3 = counts[&result.candidates[1].mv] as f64;
        assert!((e5 / c3 - 2.0).abs() < 0.2, "{counts:?}");
        // A colder draw leans to the best; the best being a pass, nothing is drawn.
        let cold = Choice {
            temperature: 0.25,
            ..choice
        };
        let c3_cold = (0..9_000)
            .filter(|_| draw_candidate(&result, best, cold, &mut rng) != Some(best))
            .count() as f64;
        assert!(c3_cold < c3 / 4.0, "{c3_cold} against {c3}");
        assert_eq!(draw_candidate(&result, Move::Pass, choice, &mut rng), None);
    }

    #[test]
    fn a_move_near_stones_only_the_static_rule_killed_answers_an_invasion() {
        let game = Game::new(BoardSize::NINETEEN, Ruleset::Japanese);
        let at = |name: &str| BoardSize::NINETEEN.parse_point(name).unwrap();
        let mut hopeless = crate::rules::Bitboard::EMPTY;
        hopeless.insert(at("C3"));
        let judgement = Judgement {
            dead: hopeless,
            seki: crate::rules::Bitboard::EMPTY,
            unsettled: crate::rules::Bitboard::EMPTY,
            hopeless,
            ownership: vec![0.0; 361],
            playout_ownership: vec![0.0; 361],
        };
        for near in ["C3", "C4", "D4", "E3", "C1"] {
            assert!(answers_an_invasion(&game, &judgement, at(near)), "{near}");
        }
        for far in ["C6", "F4", "G3"] {
            assert!(!answers_an_invasion(&game, &judgement, at(far)), "{far}");
        }
    }

    #[test]
    fn only_an_endgame_asks_the_arbiter_about_a_point_that_looks_owned() {
        let game = Game::new(BoardSize::NINETEEN, Ruleset::Japanese);
        let p = BoardSize::NINETEEN.parse_point("R16").unwrap();
        let k = BoardSize::NINETEEN.row_major(p);
        // The opening: one point near a corner stone looks owned, the rest is open.
        let mut opening = vec![0.1; 361];
        opening[k] = 0.8;
        assert!(!inside_settled_area(&game, &result_with(opening), p));
        // The endgame: most of the board is settled.
        let mut endgame = vec![0.9; 361];
        endgame[k] = 0.5;
        assert!(inside_settled_area(&game, &result_with(endgame.clone()), p));
        endgame[k] = 0.1;
        assert!(!inside_settled_area(&game, &result_with(endgame), p));
    }

    #[test]
    fn the_arbiter_is_asked_during_play_only_within_the_moves_time() {
        let config = EngineConfig {
            threads: 1,
            level: Level::Hard,
            ..EngineConfig::default()
        };
        let mut engine = Engine::new(BoardSize::NINETEEN, Ruleset::Japanese, config);
        let spent = Duration::from_millis(300);
        let full = Effort::for_board(361, 1).quick();
        // A first quick judgement of 19x19 on one thread is taken to need about 3.6 s.
        // Without a clock, hard's 2.8 s bound the move: a shorter look fits, the full
        // one does not, and past the level's time none does.
        let level = Level::Hard.settings().time;
        let effort = engine.affordable_effort(Color::Black, spent).expect("fits");
        assert!(effort.playouts >= MIN_JUDGEMENT_PLAYOUTS && effort.playouts < full.playouts);
        assert!(spent + 2 * engine.judgement_cost(&effort) <= level);
        let late = level - Duration::from_millis(100);
        assert!(engine.affordable_effort(Color::Black, late).is_none());
        // Half an hour of main time: the level's time still bounds the move.
        let main = Duration::from_secs(1800);
        engine.set_time_control(TimeControl::Absolute { main });
        assert_eq!(engine.affordable_effort(Color::Black, spent), Some(effort));
        // A minute of sudden death bounds it more (twice the clock's share of a move), and
        // with 5 s left nothing fits: the main time must not drain into judgements.
        let main = Duration::from_secs(60);
        engine.set_time_control(TimeControl::Absolute { main });
        let short = engine.affordable_effort(Color::Black, spent);
        assert!(
            short.is_none_or(|e| e.playouts < effort.playouts),
            "{short:?}"
        );
        engine
            .clock_mut(Color::Black)
            .set_left(Duration::from_secs(5), 0);
        assert_eq!(engine.affordable_effort(Color::Black, spent), None);
        // Once the position is judged, asking again costs nothing.
        engine.set_time_control(TimeControl::None);
        engine.judgement_with(Some(engine.quick_effort()));
        assert!(engine.judgement_during_play(Color::Black, late).is_some());
    }

    #[test]
    fn cleanup_answers_within_its_clock() {
        // A 19x19 judgement takes over a second on one thread; a clock of 0.6 s bounds the
        // whole cleanup move, the judgement included.
        // The lag keeps 0.3 s back: room for a loaded machine before the clock runs out.
        let config = EngineConfig {
            threads: 1,
            level: Level::Hard,
            lag: Duration::from_millis(300),
            ..EngineConfig::default()
        };
        // The model's shape table is built on first use: here before the clock starts, as
        // the binary's start-up does (slow in a debug build).
        if let Some(model) = &config.knowledge {
            model.prepare();
        }
        let mut engine = Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config);
        let size = BoardSize::NINETEEN;
        for (k, name) in ["D4", "Q16", "D16", "Q4", "C10", "R10", "E7", "D6"]
            .iter()
            .enumerate()
        {
            let color = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let p = size.parse_point(name).unwrap();
            engine.game_mut().play(color, Move::Play(p)).unwrap();
        }
        let main = Duration::from_millis(600);
        engine.set_time_control(TimeControl::Absolute { main });
        let started = Instant::now();
        let reply = engine.genmove_cleanup(Color::Black, &AtomicBool::new(false));
        let took = started.elapsed();
        assert!(took < main, "{took:?}");
        assert!(matches!(reply, Reply::Move(Move::Play(_))), "{reply:?}");
        // The clock was charged the move's time.
        let left = engine.clock_mut(Color::Black).left;
        assert!(left < main && left >= main.saturating_sub(took), "{left:?}");
    }

    /// A 9x9 race of two chains with two liberties each and no eye (D and E), between
    /// two living groups: the side to move wins it, and the game with it (B+3.5 when
    /// Black moves, W+36.5 when White does). Black has passed; White to move.
    fn race_after_blacks_pass() -> Engine {
        let race = crate::rules::parse_diagram(
            ".XXOXOOO.
             .XXOXOOO.
             .XXOXOOO.
             .X.OX.OO.
             XXXOXOOOO
             .X.OX.OO.
             .XXOXOOO.
             .XXOXOOO.
             .XXOXOOO.",
        )
        .unwrap();
        let stones = |color| race.stones(color).iter().collect::<Vec<_>>();
        let size = race.size();
        let config = EngineConfig {
            threads: 1,
            // A level that plays the search's best move, not one drawn near it.
            level: Level::Normal,
            playouts: Some(1_000),
            ..EngineConfig::default()
        };
        let mut engine = Engine::new(size, Ruleset::Chinese, config);
        engine.game_mut().set_komi(7.5);
        engine
            .game_mut()
            .set_up(&stones(Color::Black), &stones(Color::White), Color::Black)
            .unwrap();
        engine.game_mut().play(Color::Black, Move::Pass).unwrap();
        engine
    }

    #[test]
    fn a_pass_is_judged_on_the_board_it_leaves_to_be_counted() {
        // White to move wins the race, but a pass hands the move, and the race, to Black:
        // judged with White to move (as before), White passed and `final_score` then
        // said B+3.5. White must play the race out.
        let mut engine = race_after_blacks_pass();
        let reply = engine.genmove(Color::White, &AtomicBool::new(false));
        let at = |name| Reply::Move(Move::Play(BoardSize::NINE.parse_point(name).unwrap()));
        assert!(reply == at("F4") || reply == at("F6"), "{reply:?}");
        assert_eq!(engine.final_score().winner(), Some(Color::White));
    }

    #[test]
    fn a_pass_that_ends_the_game_is_counted_as_it_was_judged() {
        // The race won, Black passes again: White passes on its quick judgement, and that
        // judgement is the count, not a second, fuller one that could differ.
        let mut engine = race_after_blacks_pass();
        let stop = AtomicBool::new(false);
        let first = engine.genmove(Color::White, &stop);
        assert_ne!(first, Reply::Move(Move::Pass));
        engine.game_mut().play(Color::Black, Move::Pass).unwrap();
        assert_eq!(engine.genmove(Color::White, &stop), Reply::Move(Move::Pass));
        let relied_on = engine.known_judgement(true).expect("the pass's judgement");
        assert!(engine.judgement.as_ref().is_some_and(|k| k.quick));
        assert_eq!(engine.known_judgement(false), Some(relied_on.clone()));
        assert_eq!(engine.final_score(), relied_on.score(engine.game()));
        assert_eq!(engine.final_score().winner(), Some(Color::White));
    }

    #[test]
    fn a_move_and_its_judgement_never_take_longer_than_the_levels_time() {
        let byo_yomi = TimeControl::ByoYomi {
            main: Duration::ZERO,
            period: Duration::from_secs(20),
            periods: 3,
        };
        for level in Level::ALL {
            let level_time = level.settings().time;
            for size in [9, 13, 19] {
                let size = BoardSize::new(size).unwrap();
                for threads in [1, 2] {
                    for clock in [TimeControl::None, byo_yomi] {
                        let config = EngineConfig {
                            threads,
                            level,
                            ..EngineConfig::default()
                        };
                        let mut engine = Engine::new(size, Ruleset::Chinese, config);
                        engine.set_time_control(clock);
                        // The opponent passed: a judgement is likely, and the search
                        // leaves it room.
                        engine.game_mut().play(Color::White, Move::Pass).unwrap();
                        let budget = engine.params_for(Color::Black).max_time.unwrap();
                        let what = format!("{level} {size}x{size} {threads} threads {clock:?}");
                        assert!(budget <= level_time, "{what}: search {budget:?}");
                        for spent in [Duration::ZERO, budget, level_time] {
                            if let Some(e) = engine.affordable_effort(Color::Black, spent) {
                                let total = spent + engine.judgement_cost(&e);
                                assert!(total <= level_time, "{what}: {total:?}");
                            }
                        }
                        // Where the level's time affords a judgement at all, the search
                        // leaves it room.
                        if engine
                            .affordable_effort(Color::Black, Duration::ZERO)
                            .is_some()
                            && level != Level::Easy
                        {
                            let after = engine.affordable_effort(Color::Black, budget);
                            assert!(after.is_some(), "{what}: no room left after {budget:?}");
                        }
                    }
                }
            }
        }
    }
}
