//! The move timer, the one place a move's time is decided (as Fuego leaves it to
//! `SgTimeControl::TimeForCurrentMove` and KataGo to `timecontrols.cpp`): the clocks, the
//! controller's lag and what a move costs besides its search go in; the search's budget,
//! the whole move's limit and the arbiter's deadlines come out. The clock's own arithmetic
//! (its share of the main time, byo-yomi periods) is `search::time::Clock`'s.

use crate::rules::{Color, Game};
use crate::search::time::{Clock, TimeControl};
use std::time::{Duration, Instant};

/// What a move costs besides its search before any is measured.
const INITIAL_OVERHEAD: Duration = Duration::from_millis(5);

/// How fast the measured overhead forgets a slow move: a tenth a move.
const OVERHEAD_DECAY: f64 = 0.9;

/// The share of its room a judgement during play keeps for what the move does after it.
const KEPT_AFTER_JUDGEMENT: u32 = 20;

/// The time a level gives a move, before any clock.
#[derive(Clone, Copy, Debug)]
pub(super) struct LevelTime {
    /// The level's thinking time (`--time` overrides it).
    pub time: Duration,
    /// A move bound by playouts (`--playouts`, `--deterministic`), whose limit is the
    /// clock's alone, so that it plays the same whatever the machine's speed.
    pub fixed: bool,
}

pub(super) struct MoveTimer {
    clocks: [Clock; 2],
    /// What the controller and the network add to every move: kept back from the clock.
    lag: Duration,
    /// What a move costs besides its search and judgements (tree reuse, reading, the
    /// answer), a slowly decaying maximum of the moves measured: set aside from the
    /// clock for every move to come.
    overhead: Duration,
    /// Time the judgements of the move under way took (kept out of `overhead`).
    judging: Duration,
}

impl MoveTimer {
    pub fn new(lag: Duration) -> MoveTimer {
        MoveTimer {
            clocks: [Clock::new(TimeControl::None); 2],
            lag,
            overhead: INITIAL_OVERHEAD,
            judging: Duration::ZERO,
        }
    }

    /// New clocks for both sides (GTP `time_settings`).
    pub fn set_control(&mut self, control: TimeControl) {
        self.clocks = [Clock::new(control); 2];
    }

    /// `color`'s clock, for the controller's `time_left`.
    pub fn clock_mut(&mut self, color: Color) -> &mut Clock {
        &mut self.clocks[color.index()]
    }

    /// The search's thinking time for `color`'s next move in `game`: the clock's share,
    /// at most `level_time`.
    pub fn search_budget(&self, game: &Game, color: Color, level_time: Duration) -> Duration {
        self.clocks[color.index()].budget(
            level_time,
            self.lag,
            self.overhead,
            game.board().empty_count(),
            game.size().points(),
        )
    }

    /// The most a whole move of `color` may take, search and judgements together: the
    /// level's time, and under a clock what the clock can give (less the lag) and twice
    /// its share of a move (in sudden death the main time would otherwise drain into the
    /// endgame's judgements).
    pub fn move_limit(&self, game: &Game, color: Color, level: LevelTime) -> Duration {
        let level_limit = if level.fixed {
            Duration::MAX
        } else {
            level.time
        };
        match self.room_on_clock(color) {
            None => level_limit,
            Some(room) => level_limit.min(room).min(
                self.search_budget(game, color, Duration::MAX)
                    .saturating_mul(2),
            ),
        }
    }

    /// What `color`'s clock can still give a move, less the lag (`None`: no clock).
    pub fn room_on_clock(&self, color: Color) -> Option<Duration> {
        let limit = self.clocks[color.index()].hard_limit()?;
        Some(limit.saturating_sub(self.lag))
    }

    /// When a judgement given `room` from `from` must end: a twentieth of the room is
    /// kept for what the move does after it.
    pub fn judgement_deadline(from: Instant, room: Duration) -> Option<Instant> {
        from.checked_add(room - room / KEPT_AFTER_JUDGEMENT)
    }

    /// A rank's move is two searches (`Engine::search_as_level`): the first, of every
    /// move, has half of the move's search time `budget` ...
    pub fn wide_search_time(budget: Duration) -> Duration {
        budget / 2
    }

    /// ... and of what the second may have, a rank that may play its first impression
    /// keeps a tenth of `budget` to read it.
    pub fn kept_for_impression(budget: Duration) -> Duration {
        budget / 10
    }

    /// A move begins: its judgements are counted from nothing.
    pub fn start_move(&mut self) {
        self.judging = Duration::ZERO;
    }

    /// A judgement of the move under way took `took`.
    pub fn judged(&mut self, took: Duration) {
        self.judging += took;
    }

    /// `color`'s move that began at `started` is decided, its searches (and the wait for
    /// the model) having taken `thinking`: what the rest took is the overhead to set aside
    /// from now on, if more than the last one's decayed.
    pub fn learn_overhead(&mut self, started: Instant, thinking: Duration) {
        let besides = started.elapsed().saturating_sub(thinking + self.judging);
        self.overhead = besides.max(self.overhead.mul_f64(OVERHEAD_DECAY));
    }

    /// `color`'s move that began at `started` is played: its clock is charged.
    pub fn charge(&mut self, color: Color, started: Instant) {
        self.clocks[color.index()].charge(started.elapsed());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, Ruleset};

    #[test]
    fn the_overhead_is_what_a_move_took_besides_thinking_and_judging_and_decays() {
        let mut timer = MoveTimer::new(Duration::ZERO);
        let ms = Duration::from_millis;
        let began = |ago: Duration| Instant::now().checked_sub(ago).expect("a past instant");
        timer.start_move();
        timer.judged(ms(150));
        timer.learn_overhead(began(ms(300)), ms(100));
        assert!(
            timer.overhead >= ms(50) && timer.overhead < ms(80),
            "{:?}",
            timer.overhead
        );
        // A quick move: the overhead forgets a tenth of the slow one, no more.
        let slow = timer.overhead;
        timer.start_move();
        timer.learn_overhead(Instant::now(), Duration::ZERO);
        assert_eq!(timer.overhead, slow.mul_f64(OVERHEAD_DECAY));
    }

    #[test]
    fn a_move_is_limited_by_its_level_and_by_what_the_clock_can_give() {
        let game = Game::new(BoardSize::NINETEEN, Ruleset::Chinese);
        let mut timer = MoveTimer::new(Duration::from_millis(200));
        let level = LevelTime {
            time: Duration::from_secs(3),
            fixed: false,
        };
        let fixed = LevelTime {
            fixed: true,
            ..level
        };
        assert_eq!(timer.move_limit(&game, Color::Black, level), level.time);
        assert_eq!(timer.move_limit(&game, Color::Black, fixed), Duration::MAX);
        assert_eq!(timer.room_on_clock(Color::Black), None);
        timer.set_control(TimeControl::Absolute {
            main: Duration::from_secs(1),
        });
        let room = timer.room_on_clock(Color::Black).expect("a clock");
        assert_eq!(room, Duration::from_millis(800), "the lag kept back");
        for limit in [level, fixed].map(|l| timer.move_limit(&game, Color::Black, l)) {
            assert!(limit <= room, "{limit:?}");
        }
        timer.charge(Color::Black, Instant::now());
        assert_eq!(
            timer.room_on_clock(Color::White),
            Some(room),
            "one clock a side"
        );
    }
}
