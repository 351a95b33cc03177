//! yeoul's own engine as a match [`Player`], in-process.

use super::{Player, PlayerError, Reply, TimeControl};
use crate::engine::{Engine, EngineConfig};
use crate::rules::{BoardSize, Color, Move, Point, Ruleset};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub struct EnginePlayer {
    engine: Engine,
}

impl EnginePlayer {
    pub fn new(config: EngineConfig) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(BoardSize::NINE, Ruleset::Chinese, config),
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        let config = self.engine.config();
        if config.network_only {
            return format!("yeoul {} (network alone)", env!("CARGO_PKG_VERSION"));
        }
        format!("yeoul {} ({})", env!("CARGO_PKG_VERSION"), config.level)
    }

    fn new_game(
        &mut self,
        size: BoardSize,
        komi: f64,
        ruleset: Ruleset,
    ) -> Result<(), PlayerError> {
        self.engine.new_game(size);
        self.engine.game_mut().set_ruleset(ruleset);
        self.engine.game_mut().set_komi(komi);
        Ok(())
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
        self.engine
            .game_mut()
            .play(color, mv)
            .map(drop)
            .map_err(|e| PlayerError::IllegalMove(e.to_string()))
    }

    fn fixed_handicap(&mut self, stones: u32) -> Result<Vec<Point>, PlayerError> {
        self.engine
            .game_mut()
            .place_fixed_handicap(stones)
            .map_err(|e| PlayerError::Rejected(format!("fixed_handicap {stones}: {e}")))
    }

    fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), PlayerError> {
        self.engine
            .game_mut()
            .set_free_handicap(points)
            .map_err(|e| PlayerError::Rejected(format!("set_free_handicap: {e}")))
    }

    fn genmove(&mut self, color: Color) -> Result<Reply, PlayerError> {
        self.engine
            .genmove(color, &AtomicBool::new(false))
            .map_err(|e| PlayerError::Rejected(format!("genmove: {e}")))
    }

    fn final_score(&mut self) -> Result<Option<String>, PlayerError> {
        let score = self.engine.final_score();
        let score = score.map_err(|e| PlayerError::Rejected(format!("final_score: {e}")))?;
        Ok(Some(score.to_string()))
    }

    fn time_settings(&mut self, control: TimeControl) -> Result<(), PlayerError> {
        self.engine.set_time_control(control);
        Ok(())
    }

    fn time_left(&mut self, color: Color, left: Duration, count: u32) -> Result<(), PlayerError> {
        self.engine.clock_mut(color).set_left(left, count);
        Ok(())
    }
}
