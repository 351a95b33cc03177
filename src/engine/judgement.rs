//! The arbiter during play, and its cache: a judgement is kept while the position, rule
//! set and komi stay the same, and what it cost sizes the next.

use super::Engine;
use super::move_timer::MoveTimer;
use crate::referee::{self, Effort, Judgement};
use crate::rules::{Color, Move, Ruleset, Score};
use crate::search::SearchError;
use std::time::{Duration, Instant};

impl Engine {
    /// The arbiter's count of the current position (GTP `final_score`).
    pub fn final_score(&mut self) -> Result<Score, SearchError> {
        Ok(self.judgement()?.score(&self.game))
    }

    /// The arbiter's verdict on the current position, kept while the position, rule set
    /// and komi stay the same (so that repeated questions get the same answer cheaply).
    pub fn judgement(&mut self) -> Result<Judgement, SearchError> {
        Ok(self
            .judgement_with(None)?
            .expect("a judgement with no deadline always comes"))
    }

    /// The full effort of a quick judgement of this board, the judgement for a decision
    /// during play (passing, cleanup, territory): unclear chains are not looked at again,
    /// since the time comes out of the clock (a full judgement of 19x19 with unclear
    /// groups took up to 12 s in the referee matches). A full judgement of the same
    /// position is used when there is one.
    pub(super) fn quick_effort(&self) -> Effort {
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

    /// How long a judgement is expected to take for each search playout a side.
    fn judgement_cost_per_playout(&self) -> Duration {
        self.arbiter.cost_per_playout(self.game.size().points())
    }

    /// How long a judgement with `effort` is expected to take.
    pub(super) fn judgement_cost(&self, effort: &Effort) -> Duration {
        let playouts = u32::try_from(effort.playouts).unwrap_or(u32::MAX);
        self.judgement_cost_per_playout().saturating_mul(playouts)
    }

    /// The arbiter's judgement of the board that `color`'s pass would leave, the opponent
    /// to move (who wins a race of unsettled chains): the position a pass asks to be
    /// counted, so that the count a pass relies on is the one `final_score` gives after
    /// it. Made when it fits what the move may take after `spent`: with the full quick
    /// effort when that fits twice over, else with fewer playouts (a shorter look, as a
    /// weaker player reads less), and `None` when even `MIN_JUDGEMENT_PLAYOUTS` would not
    /// fit, or the judgement takes longer than its estimate and reaches the move's limit.
    /// A position already judged costs nothing.
    pub(super) fn judgement_after_pass(
        &mut self,
        color: Color,
        spent: Duration,
    ) -> Option<Judgement> {
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
            deadline: MoveTimer::judgement_deadline(Instant::now(), room),
            ..self.affordable_effort(color, spent)?
        };
        self.judgement_in_play(effort)
    }

    /// Makes the judgement of the board after the pass being decided (the last one made)
    /// the count of that position: `final_score` and `final_status_list` give it however
    /// quick it was, so that a pass that ends the game is never made on one count and
    /// then reported with another.
    pub(super) fn count_on_judgement_after_pass(&mut self) {
        if let Some(known) = &mut self.arbiter.last {
            known.counted = true;
        }
    }

    /// The quick judgement's effort that fits twice into what is left of the move.
    pub(super) fn affordable_effort(&self, color: Color, spent: Duration) -> Option<Effort> {
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
    pub(super) fn known_judgement(&self, quick: bool) -> Option<Judgement> {
        let known = self.arbiter.last.as_ref()?;
        let thorough = quick || !known.quick || known.counted;
        (known.key == self.judgement_key() && thorough).then(|| known.judgement.clone())
    }

    fn judgement_key(&self) -> JudgementKey {
        JudgementKey {
            size: self.game.size().get(),
            hash: self.game.board().hash(),
            ko: self.game.board().ko(),
            to_move: self.game.to_move(),
            ruleset: self.game.ruleset(),
            komi_bits: self.game.komi().to_bits(),
        }
    }

    /// A quick judgement with `effort` during play: `None` when the effort's deadline
    /// came first, or the arbiter could not start its threads (then, as when time is
    /// short, the search's word decides).
    pub(super) fn judgement_in_play(&mut self, effort: Effort) -> Option<Judgement> {
        self.judgement_with(Some(effort)).unwrap_or_else(|e| {
            log::warn!("arbiter: {e}");
            None
        })
    }

    /// The arbiter's judgement of the position: the full one (`None`), or a quick one with
    /// `effort`; a position already judged as thoroughly is not judged again. `Ok(None)`
    /// when the effort's deadline came first.
    pub(super) fn judgement_with(
        &mut self,
        effort: Option<Effort>,
    ) -> Result<Option<Judgement>, SearchError> {
        let quick = effort.is_some();
        if let Some(known) = self.known_judgement(quick) {
            return Ok(Some(known));
        }
        let key = self.judgement_key();
        let effort = effort.unwrap_or_else(|| self.full_effort());
        let started = Instant::now();
        let judgement = referee::judge(&self.game, &effort)?;
        let took = started.elapsed();
        self.timer.judged(took);
        // Cut short, it still took at least this long: the next estimate grows.
        let units = effort.playouts.max(1) * self.game.size().points() as u64;
        self.arbiter.unit_cost = took.div_f64(units as f64);
        match &judgement {
            Some(j) => {
                self.arbiter.last = Some(KnownJudgement {
                    key,
                    quick,
                    counted: false,
                    judgement: j.clone(),
                })
            }
            None => log::debug!("arbiter: cut short at the move's limit after {took:?}"),
        }
        Ok(judgement)
    }
}

/// Fewest search playouts a side of a judgement during play: with fewer its verdict is
/// noise, and the search's word decides instead.
const MIN_JUDGEMENT_PLAYOUTS: u64 = 300;

/// What a judgement is taken to cost a search playout a side and a point of the board
/// on one thread before the first is measured (a full quick judgement of 19x19, 5,000
/// playouts a side, about 3.6 s).
const INITIAL_JUDGEMENT_UNIT_COST: Duration = Duration::from_nanos(2_000);

/// The arbiter's memory during play: its last judgement with the position it is of, and
/// what judgements cost, which sizes the next.
pub(super) struct ArbiterCache {
    last: Option<KnownJudgement>,
    /// What the last judgement took for each search playout a side and each point of the
    /// board (before the first, an estimate): how long the next would take.
    unit_cost: Duration,
}

impl ArbiterCache {
    /// Before any judgement, on `threads`.
    pub(super) fn new(threads: usize) -> ArbiterCache {
        ArbiterCache {
            last: None,
            unit_cost: INITIAL_JUDGEMENT_UNIT_COST / threads.max(1) as u32,
        }
    }

    /// A judgement's expected time for each search playout a side on a board of `points`.
    fn cost_per_playout(&self, points: usize) -> Duration {
        self.unit_cost.saturating_mul(points as u32)
    }

    /// A new or loaded game is judged afresh, whatever a pass of the last relied on (what
    /// judgements cost is kept).
    pub(super) fn forget_judgement(&mut self) {
        self.last = None;
    }

    /// The last judgement, made quick (during play) or full.
    #[cfg(test)]
    pub(super) fn last_was_quick(&self) -> Option<bool> {
        self.last.as_ref().map(|known| known.quick)
    }
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

/// What a judgement depends on: the stones (set-up stones too: the hash is of the board,
/// not the record) with the ko ban, the side to move, the rules and komi. The handicap
/// and the prisoners are not in it: the count is made from the game at each answer
/// ([`Judgement::score`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct JudgementKey {
    size: usize,
    hash: u64,
    ko: Option<(crate::rules::Point, Color)>,
    to_move: Color,
    ruleset: Ruleset,
    komi_bits: u64,
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;
    use crate::rules::BoardSize;

    #[test]
    fn the_arbiter_is_asked_during_play_only_within_the_moves_time() {
        let config = EngineConfig {
            threads: 1,
            level: Level::HARD,
            ..EngineConfig::default()
        };
        let mut engine = Engine::new(BoardSize::NINETEEN, Ruleset::Japanese, config);
        let spent = Duration::from_millis(300);
        let full = Effort::for_board(361, 1).quick();
        // A first quick judgement of 19x19 on one thread is taken to need about 3.6 s.
        // Without a clock, hard's 2.8 s bound the move: a shorter look fits, the full
        // one does not, and past the level's time none does.
        let level = Level::HARD.settings().time;
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
        engine.judgement_with(Some(engine.quick_effort())).unwrap();
        assert!(engine.judgement_during_play(Color::Black, late).is_some());
    }
}
