//! The engine: a game, a search that keeps its tree, a level and a clock, and one method
//! per use case (generate a move, analyse). GTP and the match runner sit on top of it.
//!
//! One file a concern: `levels` (the table), `choice` (how a level picks its move),
//! `move_timer` (a move's time, owning the clocks), `time_budget` (a move's search
//! parameters), `genmove`, `passing` (the pass judge), `end_of_game`, `judgement` (the
//! arbiter's cache), `analysis`, `memory`.

mod analysis;
mod choice;
mod end_of_game;
mod genmove;
mod judgement;
mod levels;
mod memory;
mod move_timer;
mod passing;
pub mod seen;
mod time_budget;

pub use levels::{
    Basis, Choice, LEVEL_SET_KEYS, Level, LevelChanges, LevelSettings, NetworkSizes, Rank, Sight,
};
pub use memory::{check_memory, prepare_in_background, tree_nodes};

use crate::knowledge::Model;
use crate::network::Network;
use crate::rules::{BoardSize, Color, Game, Move, Ruleset};
use crate::search::Search;
use crate::search::policy::PlayoutPolicy;
use crate::search::time::Clock;
// The engine is the front ends' one door to the search: what they see of it comes from here.
pub use crate::search::time::TimeControl;
pub use crate::search::{SearchError, SearchResult, SearchStats};
use judgement::ArbiterCache;
use move_timer::MoveTimer;
use passing::HopelessStreaks;
use std::sync::Arc;
use std::time::Duration;

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
    /// The board sizes on which the network is used, where it plays them (bit n: n x n):
    /// by default 9x9, 13x13 and 19x19, where a match showed that it helps
    /// ([`NETWORK_SIZES`]).
    pub network_sizes: u32,
    /// Visits a node needs before the network rates its children (the root at once).
    pub network_threshold: u32,
    /// The visits a value network's judgement of a rated node counts for (0: unused;
    /// see `NetworkUse::value_visits`).
    pub value_visits: u32,
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
    /// Changes to the level table's row, to calibrate it by matches (`--level-set`).
    pub level_changes: LevelChanges,
}

impl EngineConfig {
    /// Why this configuration cannot play, in the words of the command line's options.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=1024).contains(&self.threads) {
            return Err("--threads must be 1 to 1024".into());
        }
        if self.playouts == Some(0) {
            return Err("--playouts must be at least 1".into());
        }
        if self
            .time
            .is_some_and(|t| t.is_zero() || t >= Duration::from_secs(86_400))
        {
            return Err("--time must be a number of seconds above 0".into());
        }
        if !(1..=1 << 20).contains(&self.max_memory_mb) {
            return Err("--max-memory must be 1 to 1048576 MiB".into());
        }
        if self.lag > Duration::from_secs(60) {
            return Err("--lag must be 0 to 60 seconds".into());
        }
        if self.value_visits > MOST_VALUE_VISITS {
            return Err(format!("--value-visits must be 0 to {MOST_VALUE_VISITS}"));
        }
        if self.amaf_distance > 16 {
            return Err("--amaf-distance must be 0 to 16".into());
        }
        let board_sizes = (2..=19).fold(0u32, |mask, n| mask | 1 << n);
        if self.network_sizes & !board_sizes != 0 {
            return Err("--net-sizes takes board sizes from 2 to 19".into());
        }
        let uncapped = self.level_changes.apply(self.level).playouts[0] == u64::MAX;
        if self.deterministic && self.playouts.is_none() && uncapped {
            return Err(
                "--deterministic at the level max needs --playouts (max has no playout cap)".into(),
            );
        }
        Ok(())
    }
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            level: Level::NORMAL,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(1024)),
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
            network_sizes: NETWORK_SIZES,
            network_threshold: NETWORK_THRESHOLD,
            value_visits: VALUE_VISITS,
            network_only: false,
            network_inline: false,
            hand_priors: false,
            learned_playouts: false,
            two_liberty_playouts: false,
            amaf_distance: 0,
            arbiter_playouts: None,
            level_changes: LevelChanges::default(),
        }
    }
}

/// The sizes the engine has the network for by default (bit n: n x n; `--net-sizes`):
/// 9x9, 13x13 and 19x19, where `max` with it beat `max` without it (BENCHMARKS.md "Policy
/// network"). Where each level uses it is its row's `network` (`NetworkSizes`).
pub const NETWORK_SIZES: u32 = 1 << 9 | 1 << 13 | 1 << 19;

/// The network of `config` for boards of `size`, where it plays that size and is used on
/// it.
fn network_of_size(config: &EngineConfig, size: BoardSize) -> Option<Arc<Network>> {
    let network = config.network.as_ref()?;
    let n = size.get();
    if !NetworkSizes::on(config.network_sizes, n) {
        None
    } else if network.board_size() == n {
        Some(Arc::clone(network))
    } else {
        network.for_size(n).map(Arc::new)
    }
}

/// Visits before a node's children get the network's priors (AlphaGo: 40).
pub const NETWORK_THRESHOLD: u32 = 40;

/// The visits a value network's judgement counts for by default (`--value-visits`): 0
/// until a match shows the value helps (the built-in network has none).
pub const VALUE_VISITS: u32 = 0;
/// The most `--value-visits` takes (a node keeps the judgement in 16 bits).
pub const MOST_VALUE_VISITS: u32 = crate::search::tree::MOST_PACKED;

/// A genmove answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(Move),
    Resign,
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
    /// The tree's best move was a pass, and nothing on the board changes the count
    /// (`passing`, case 3).
    PassSafe,
    /// A pass first, far ahead (`passing`, case 4: levels that pass first when won).
    PassFarAhead,
    /// Every move lost (or won) alike: the one whose playouts end with the best margin.
    LeastLoss,
    /// The search's best was a pass that the pass judge did not allow: its most visited
    /// move on the board.
    PlaysOn,
    /// Nothing legal but filling own eyes.
    NoMoves,
    Resigned,
    /// The level's choice drawn among nearly best candidates (`Choice`).
    Drawn,
    /// A rank's first impression, which its search did not find too much worse
    /// (`levels::Impression`).
    Impression,
    /// A move the level did not read, which the search found far better than those it
    /// did (`Sight::AsRank::notices`).
    Noticed,
    /// A neutral point filled before passing (area rules).
    Cleanup,
    /// The move comes from reading out the small local games of the endgame (the best
    /// of the game the search chose, or the biggest of them).
    LocalReading,
    /// The policy network's most probable move, without search (`--net-only`).
    Network,
    /// No move: a search for analysis (GoGui's analyze commands, live analysis).
    Analysis,
}

pub struct Engine {
    game: Game,
    search: Search,
    /// The network for this board's size, where it plays it and is used on it.
    board_network: Option<Arc<Network>>,
    config: EngineConfig,
    /// What the level plays with, worked out from its row and the calibration's changes
    /// whenever either changes (not at each use).
    settings: LevelSettings,
    timer: MoveTimer,
    /// What the level read in the last position it moved in, and its draws.
    chooser: choice::Chooser,
    /// Consecutive genmoves whose win rate was below the level's resign threshold.
    hopeless: HopelessStreaks,
    /// Games started: mixed into the seeds, so that a match's games differ.
    games_started: u64,
    last: Option<(SearchResult, Decision)>,
    /// The arbiter's last judgement and what judgements cost.
    arbiter: ArbiterCache,
}

impl Engine {
    pub fn new(size: BoardSize, ruleset: Ruleset, config: EngineConfig) -> Engine {
        let board_network = network_of_size(&config, size);
        Engine {
            game: Game::new(size, ruleset),
            search: Search::new(playout_policy(&config))
                .with_knowledge(config.knowledge.clone().filter(|_| !config.hand_priors))
                .with_network(board_network.clone()),
            board_network,
            chooser: choice::Chooser::new(config.seed),
            arbiter: ArbiterCache::new(config.threads),
            timer: MoveTimer::new(config.lag),
            settings: config.level_changes.apply(config.level),
            config,
            hopeless: HopelessStreaks::default(),
            games_started: 0,
            last: None,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, for commands that change it (play, undo, komi, handicap...).
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// Replaces the game (GTP `loadsgf`, a new game).
    pub fn set_game(&mut self, game: Game) {
        // The first game of a process, new or loaded, waits here for the model's shape
        // table (built since start-up): in its first move the wait would take the move's
        // time, or more.
        if let Some(model) = &self.config.knowledge {
            model.prepare();
        }
        if game.size() != self.game.size() {
            self.board_network = network_of_size(&self.config, game.size());
            self.search.set_network(self.board_network.clone());
        }
        self.game = game;
        self.games_started += 1;
        self.search.clear();
        self.hopeless = HopelessStreaks::default();
        self.last = None;
        self.arbiter.forget_judgement();
        self.chooser.forget_reading();
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// What the level plays with: its row of the table, with the calibration's changes.
    pub fn settings(&self) -> LevelSettings {
        self.settings
    }

    pub fn set_level(&mut self, level: Level) {
        self.config.level = level;
        self.settings = self.config.level_changes.apply(level);
    }

    /// Changes to the level's row (GTP `yeoul-level_set`); the moves read are read anew.
    pub fn set_level_changes(&mut self, changes: LevelChanges) {
        self.config.level_changes = changes;
        self.settings = changes.apply(self.config.level);
        self.chooser.forget_reading();
    }

    /// A new random seed (GTP `yeoul-seed`); the tree is dropped so that it takes effect.
    pub fn set_seed(&mut self, seed: u64) {
        self.config.seed = seed;
        self.chooser = choice::Chooser::new(seed);
        self.search.clear();
    }

    /// A fresh game of `size` (keeping rule set and komi).
    pub fn new_game(&mut self, size: BoardSize) {
        let mut game = Game::new(size, self.game.ruleset());
        if let Some(komi) = self.explicit_komi() {
            game.set_komi(komi);
        }
        self.set_game(game);
    }

    fn explicit_komi(&self) -> Option<f64> {
        let default = self.game.ruleset().default_komi(self.game.handicap());
        (self.game.komi() != default).then_some(self.game.komi())
    }

    pub fn set_time_control(&mut self, control: TimeControl) {
        self.timer.set_control(control);
    }

    pub fn clock_mut(&mut self, color: Color) -> &mut Clock {
        self.timer.clock_mut(color)
    }

    /// The last search and what was decided from it.
    pub fn last_search(&self) -> Option<&(SearchResult, Decision)> {
        self.last.as_ref()
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

#[cfg(test)]
mod test_support {
    use super::*;

    pub fn result_with(ownership: Vec<f32>) -> SearchResult {
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

    pub fn candidate(name: &str, visits: u32, win_rate: f32) -> crate::search::Candidate {
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
            score_lead: None,
        }
    }
}

#[cfg(test)]
mod config_tests {
    use super::*;

    #[test]
    fn a_configuration_out_of_range_is_refused_in_the_options_words() {
        assert_eq!(EngineConfig::default().check(), Ok(()));
        let refused = |config: EngineConfig, option: &str| {
            let error = config.check().expect_err(option);
            assert!(error.starts_with(option), "{error}");
        };
        let config = EngineConfig::default;
        refused(
            EngineConfig {
                threads: 0,
                ..config()
            },
            "--threads",
        );
        refused(
            EngineConfig {
                playouts: Some(0),
                ..config()
            },
            "--playouts",
        );
        refused(
            EngineConfig {
                time: Some(Duration::ZERO),
                ..config()
            },
            "--time",
        );
        refused(
            EngineConfig {
                max_memory_mb: 0,
                ..config()
            },
            "--max-memory",
        );
        refused(
            EngineConfig {
                lag: Duration::from_secs(61),
                ..config()
            },
            "--lag",
        );
        refused(
            EngineConfig {
                amaf_distance: 17,
                ..config()
            },
            "--amaf-distance",
        );
        refused(
            EngineConfig {
                network_sizes: 1 << 20,
                ..config()
            },
            "--net-sizes",
        );
        let max = || EngineConfig {
            level: Level::MAX,
            deterministic: true,
            ..config()
        };
        refused(max(), "--deterministic");
        let capped = EngineConfig {
            playouts: Some(100),
            ..max()
        };
        assert_eq!(capped.check(), Ok(()));
    }
}
