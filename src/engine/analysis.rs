//! Analysis: searches that play nothing (GoGui, Sabaki, Lizzie), pondering, the
//! benchmark, and the policy the front ends draw.

use super::levels::NetworkSizes;
use super::memory::tree_nodes;
use super::{BenchmarkLimit, Decision, Engine};
use crate::knowledge::Recent;
use crate::network::Network;
use crate::network::planes::{InputPlanes, history_of_record};
use crate::rules::{BoardSize, Color, Game, Point};
use crate::search::policy::PlayoutPolicy;
use crate::search::{Search, SearchError, SearchParams, SearchResult, SearchStats};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

impl Engine {
    /// A search of the current position for `color` with the move's budget, going on with
    /// the tree when it stands for this position (GoGui's analysis commands).
    pub fn current_analysis(
        &mut self,
        color: Color,
        stop: &AtomicBool,
    ) -> Result<SearchResult, SearchError> {
        let params = self.params_for(color);
        self.analyze(color, &params, stop)
    }

    /// Whether the search's threads can be started (a pool of them is made now and kept
    /// for the next search): streaming answers check before their header.
    pub fn threads_ready(&self) -> Result<(), SearchError> {
        crate::search::threads::lease(self.config.threads)
            .map(drop)
            .map_err(SearchError::from)
    }

    /// The network, when the level uses it and it fits the board.
    pub(super) fn active_network(&self) -> Option<&Network> {
        let priors = self.settings().network.priors;
        let uses = NetworkSizes::on(priors, self.game.size().get()) || self.config.network_only;
        self.network_for_board().filter(|_| uses)
    }

    /// The network, when there is one for this board size.
    pub(super) fn network_for_board(&self) -> Option<&Network> {
        self.board_network.as_deref()
    }

    /// The network the level's own policy comes from, the one owner of that choice: on
    /// the sizes of its row's `network.sight` (a rank sees the board with it, `max` rates
    /// its moves with it; `--net-only` plays with it). `None`: the learned model's policy.
    pub(super) fn level_network(&self) -> Option<&Network> {
        let sight = self.settings().network.sight;
        let uses = NetworkSizes::on(sight, self.game.size().get()) || self.config.network_only;
        self.network_for_board().filter(|_| uses)
    }

    /// What [`Engine::policy`] answers from: "policy network" or "learned policy".
    pub fn policy_name(&self) -> &'static str {
        if self.level_network().is_some() {
            "policy network"
        } else {
            "learned policy"
        }
    }

    /// The probability of each legal move of `color` in the current position, best
    /// first: the level's own policy (the network's where the level sees or rates moves
    /// with it, [`Engine::level_network`], else the learned model's; `None` with neither),
    /// what the front ends draw.
    pub fn policy(&self, color: Color) -> Option<Vec<(Point, f32)>> {
        self.policy_from(color, self.level_network())
    }

    /// [`Engine::policy`] from `network`, or the learned model's without one.
    pub(super) fn policy_from(
        &self,
        color: Color,
        network: Option<&Network>,
    ) -> Option<Vec<(Point, f32)>> {
        if let Some(network) = network {
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

    /// Searches for `color` without playing, stoppable through `stop`; the search is the
    /// last one `yeoul-stats` reports.
    fn analyze(
        &mut self,
        color: Color,
        params: &SearchParams,
        stop: &AtomicBool,
    ) -> Result<SearchResult, SearchError> {
        let result = self.search.run(&self.game, color, params, stop)?;
        self.last = Some((result.clone(), Decision::Analysis));
        Ok(result)
    }

    /// Black's expected margin (komi included) after the side to move in `game` plays
    /// `p`, by this engine's search of the position after it, which becomes its game
    /// (`None` when `p` is illegal): a judge's view of a move, for the tools that
    /// measure point loss (`examples/point_loss.rs`).
    pub fn score_after(&mut self, game: &Game, p: Point) -> Result<Option<f32>, SearchError> {
        let color = game.to_move();
        let mut after = game.clone();
        if after.play(color, crate::rules::Move::Play(p)).is_err() {
            return Ok(None);
        }
        self.set_game(after);
        let result = self.current_analysis(color.opponent(), &AtomicBool::new(false))?;
        Ok(Some(result.score_lead))
    }

    /// One step of open-ended analysis for `color` (`kata-analyze` and the like): the
    /// move's search for `interval`, with no playout cap, going on with the tree.
    pub fn analysis_step(
        &mut self,
        color: Color,
        interval: Duration,
        stop: &AtomicBool,
    ) -> Result<SearchResult, SearchError> {
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
    ) -> Result<SearchResult, SearchError> {
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
    ) -> Result<SearchResult, SearchError> {
        let mut params = self.params_for(color);
        params.max_time = Some(interval);
        params.max_playouts = playouts;
        params.early_stop = false;
        // A rank's steps search every move, as the first half of its move does; the
        // move that ends them reads its moves in the same tree.
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
            match self.search_step(color, Duration::from_millis(500), limit - spent, true, stop) {
                Ok(result) => spent += result.stats.playouts,
                // Pondering is a bonus: without threads for it, the engine waits instead.
                Err(e) => {
                    log::warn!("pondering: {e}");
                    return;
                }
            }
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
    ) -> Result<SearchStats, SearchError> {
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
        Ok(search.run(&game, Color::Black, &params, stop)?.stats)
    }
}
