//! The time a move may take: the level's, the clock's share, and room for the arbiter.

use super::Engine;
use super::end_of_game::{SETTLED_SHARE, settled_share};
use super::memory::tree_nodes;
use super::move_timer::LevelTime;
use crate::rules::Color;
use crate::search::SearchParams;
use crate::search::network_priors::NetworkUse;
use std::time::Duration;

impl Engine {
    /// The search parameters for the next move of `color`.
    pub(super) fn params_for(&self, color: Color) -> SearchParams {
        let size = self.game.size();
        let mut params = SearchParams::for_size(size, self.settings().playout_cap(size));
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
                value_visits: self.config.value_visits,
            });
        }
        let mut budget = self
            .timer
            .search_budget(&self.game, color, self.level_time().time);
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

    /// What a move of `color` may spend: the time (none without a clock or level time)
    /// and the playouts.
    pub fn move_budget(&self, color: Color) -> (Option<Duration>, u64) {
        let params = self.params_for(color);
        (params.max_time, params.max_playouts)
    }

    /// The time the level gives a move (`--time` overrides it; `--playouts` and
    /// `--deterministic` bind it by playouts instead).
    fn level_time(&self) -> LevelTime {
        LevelTime {
            time: self.config.time.unwrap_or(self.settings().time),
            fixed: self.config.playouts.is_some() || self.config.deterministic,
        }
    }

    /// The most a whole move of `color` may take, search and judgements together
    /// ([`MoveTimer::move_limit`]).
    pub(super) fn move_limit(&self, color: Color) -> Duration {
        self.timer.move_limit(&self.game, color, self.level_time())
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
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::rules::{BoardSize, Move, Ruleset};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_move_and_its_judgement_never_take_longer_than_the_levels_time() {
        let byo_yomi = TimeControl::ByoYomi {
            main: Duration::ZERO,
            period: Duration::from_secs(20),
            periods: 3,
        };
        for level in Level::all() {
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
                        // leaves it room (the levels of 0.3 s have none to spare).
                        if engine
                            .affordable_effort(Color::Black, Duration::ZERO)
                            .is_some()
                            && level_time > Duration::from_millis(300)
                        {
                            let after = engine.affordable_effort(Color::Black, budget);
                            assert!(after.is_some(), "{what}: no room left after {budget:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_move_that_waits_for_the_models_table_searches_only_for_what_is_left() {
        // The first move of a process may wait for the model's shape table (built in the
        // background at start-up): that wait is the move's time, not more. A fresh model
        // builds its table in the move's first policy, far longer than 50 ms.
        let mut engine = easy_on_a_fresh_model();
        engine
            .genmove(Color::Black, &AtomicBool::new(false))
            .unwrap();
        let (result, _) = engine.last_search().expect("a search");
        // Out of time before it starts, each of the level's two searches plays the one
        // playout that expands its root.
        assert!(result.stats.playouts <= 2, "{:?}", result.stats);
        // The next move has its whole time.
        engine
            .genmove(Color::White, &AtomicBool::new(false))
            .unwrap();
        let (result, _) = engine.last_search().expect("a search");
        assert!(result.stats.playouts > 2, "{:?}", result.stats);
    }

    /// `easy` on 9x9, 50 ms a move, with a model whose shape table is not built yet.
    fn easy_on_a_fresh_model() -> Engine {
        let model = crate::knowledge::Model::load(std::path::Path::new("models/yeoul.model"))
            .expect("the shipped model");
        assert!(!model.is_prepared());
        let config = EngineConfig {
            threads: 1,
            level: Level::EASY,
            time: Some(Duration::from_millis(50)),
            knowledge: Some(std::sync::Arc::new(model)),
            ..EngineConfig::default()
        };
        Engine::new(BoardSize::NINE, Ruleset::Chinese, config)
    }

    #[test]
    fn a_new_game_waits_for_the_models_table_so_the_first_move_has_its_time() {
        let mut engine = easy_on_a_fresh_model();
        engine.new_game(BoardSize::NINE);
        engine
            .genmove(Color::Black, &AtomicBool::new(false))
            .unwrap();
        let (result, _) = engine.last_search().expect("a search");
        assert!(result.stats.playouts > 2, "{:?}", result.stats);
    }
}
