//! Thinking time per move: the level's budget when there is no clock; with a clock
//! (absolute, byo-yomi, canadian) a share of what is left that never runs out, longer in
//! the opening and middle game than at the end, and a margin for latency.

use std::time::Duration;

/// A game clock as GTP's `time_settings` and `kgs-time_settings` describe it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No limit.
    None,
    /// Main time only (sudden death).
    Absolute { main: Duration },
    /// Main time, then `periods` periods of `period` each; a move inside a period resets it.
    ByoYomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// Main time, then `stones` moves to play within each `period`.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `none`, `absolute:MAIN`, `byoyomi:MAIN:PERIOD:PERIODS` or
    /// `canadian:MAIN:PERIOD:STONES`, in seconds (the match runner's `--clock`).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let seconds = |s: &str| -> Result<Duration, String> {
            match s.parse::<f64>() {
                Ok(t) if t.is_finite() && (0.0..=1e6).contains(&t) => {
                    Ok(Duration::from_secs_f64(t))
                }
                _ => Err(format!("not a number of seconds: {s:?}")),
            }
        };
        let count = |s: &str| -> Result<u32, String> {
            match s.parse::<u32>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!("not a count above 0: {s:?}")),
            }
        };
        let positive = |d: Duration| {
            if d.is_zero() {
                Err("a period must be longer than 0 s".to_string())
            } else {
                Ok(d)
            }
        };
        match parts.as_slice() {
            ["none"] => Ok(TimeControl::None),
            ["absolute", main] => Ok(TimeControl::Absolute {
                main: positive(seconds(main)?)?,
            }),
            ["byoyomi", main, period, periods] => Ok(TimeControl::ByoYomi {
                main: seconds(main)?,
                period: positive(seconds(period)?)?,
                periods: count(periods)?,
            }),
            ["canadian", main, period, stones] => Ok(TimeControl::Canadian {
                main: seconds(main)?,
                period: positive(seconds(period)?)?,
                stones: count(stones)?,
            }),
            _ => Err(
                "expected none, absolute:MAIN, byoyomi:MAIN:PERIOD:PERIODS or canadian:MAIN:PERIOD:STONES"
                    .to_string(),
            ),
        }
    }
}

/// The clock of one player: settings plus what is left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub control: TimeControl,
    /// Time left in the current phase (main time, or the current period).
    pub left: Duration,
    /// Byo-yomi periods or canadian stones left in the period (0 while in main time).
    pub count: u32,
}

/// Kept back for the controller's and the network's latency unless `--lag` says otherwise:
/// all of it from the time that must not run out, half of it from every budget.
pub const DEFAULT_LAG: Duration = Duration::from_millis(200);
/// Think at least this while the clock allows it (a search needs a few playouts)...
const FLOOR: Duration = Duration::from_millis(20);
/// ...and, when it does not, this share of what the move may take: in sudden death's
/// tail the moves then cost little more than the engine's own overhead, which a long
/// game can afford for hundreds of moves.
const FLOOR_SHARE: u32 = 50;

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let left = match control {
            TimeControl::None => Duration::ZERO,
            TimeControl::Absolute { main }
            | TimeControl::ByoYomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        };
        Clock {
            control,
            left,
            count: 0,
        }
    }

    /// GTP's `time_left`: `count` is 0 in main time, else periods (byo-yomi) or stones
    /// (canadian) left.
    pub fn set_left(&mut self, left: Duration, count: u32) {
        self.left = left;
        self.count = count;
    }

    /// Charges one move that took `used`, the way a server does (the engine's own
    /// bookkeeping when no `time_left` comes, and the match runner's clock). False when
    /// the time ran out: past the main time of sudden death, past the last byo-yomi
    /// period, or past a canadian period before its stones were played.
    pub fn charge(&mut self, used: Duration) -> bool {
        match self.control {
            TimeControl::None => true,
            TimeControl::Absolute { .. } => {
                let in_time = used <= self.left;
                self.left = self.left.saturating_sub(used);
                in_time
            }
            TimeControl::ByoYomi {
                period, periods, ..
            } => {
                let mut used = used;
                if self.count == 0 {
                    if used <= self.left {
                        self.left -= used;
                        return true;
                    }
                    used -= self.left;
                    self.count = periods;
                }
                // Each period that ran out before the move is lost; the move resets the next.
                let lost = (used.as_nanos().saturating_sub(1) / period.as_nanos().max(1)) as u32;
                self.left = period;
                if lost >= self.count {
                    self.count = 0;
                    self.left = Duration::ZERO;
                    return false;
                }
                self.count -= lost;
                true
            }
            TimeControl::Canadian { period, stones, .. } => {
                let mut used = used;
                if self.count == 0 {
                    if used <= self.left {
                        self.left -= used;
                        return true;
                    }
                    used -= self.left;
                    self.count = stones.max(1);
                    self.left = period;
                }
                if used > self.left {
                    self.left = Duration::ZERO;
                    return false;
                }
                self.left -= used;
                self.count -= 1;
                if self.count == 0 {
                    self.count = stones.max(1);
                    self.left = period;
                }
                true
            }
        }
    }

    /// Byo-yomi periods burned by the move that took this clock from `before` (a move
    /// that ran past a period); 0 for other clocks, in main time, and for a loss on time.
    pub fn periods_lost_since(&self, before: &Clock) -> u32 {
        match self.control {
            TimeControl::ByoYomi { periods, .. } if self.count > 0 => {
                let had = if before.count == 0 {
                    periods
                } else {
                    before.count
                };
                had.saturating_sub(self.count)
            }
            _ => 0,
        }
    }

    /// The most the next move may take before the clock runs out (`None`: no clock).
    pub fn hard_limit(&self) -> Option<Duration> {
        Some(match self.control {
            TimeControl::None => return None,
            TimeControl::ByoYomi { .. } | TimeControl::Canadian { .. } if self.count > 0 => {
                self.left
            }
            TimeControl::ByoYomi { period, .. } => self.left + period,
            TimeControl::Canadian { period, stones, .. } => self.left + period / stones.max(1),
            TimeControl::Absolute { .. } => self.left,
        })
    }

    /// The thinking time for the next move: at most `level_time`, and within the clock
    /// less `lag` (what the controller and the network add to every move) and
    /// `overhead` (what the engine itself spends on a move besides thinking, measured).
    /// `empty_points` of `points` tell the game's phase.
    pub fn budget(
        &self,
        level_time: Duration,
        lag: Duration,
        overhead: Duration,
        empty_points: usize,
        points: usize,
    ) -> Duration {
        let share = self.main_share(overhead, empty_points, points);
        let clock_budget = match self.control {
            TimeControl::None => return level_time,
            TimeControl::Absolute { .. } => share,
            TimeControl::ByoYomi { period, .. } if self.count == 0 => share + period.mul_f64(0.8),
            TimeControl::ByoYomi { .. } => self.left.mul_f64(0.8),
            TimeControl::Canadian { period, stones, .. } if self.count == 0 => {
                share + period.mul_f64(0.8) / stones.max(1)
            }
            TimeControl::Canadian { .. } => self.left.mul_f64(0.9) / self.count.max(1),
        };
        let hard_limit = self
            .hard_limit()
            .unwrap_or(Duration::MAX)
            .saturating_sub(overhead);
        let floor = FLOOR.min(hard_limit / FLOOR_SHARE);
        clock_budget
            .min(level_time)
            .min(hard_limit.saturating_sub(lag))
            .saturating_sub(lag / 2)
            .max(floor)
    }

    /// A share of the main time left: spread over the moves still to come (Pachi: half of
    /// the empty points beyond 20% of the board, at least 30) once each of them has its
    /// `overhead` set aside, more while the board is open, less in the endgame.
    fn main_share(&self, overhead: Duration, empty_points: usize, points: usize) -> Duration {
        let moves_left = ((empty_points.saturating_sub(points / 5)) / 2).max(30) as u32;
        let phase = if empty_points * 10 > points * 4 {
            1.3
        } else {
            0.7
        };
        (self.left.saturating_sub(overhead * moves_left) / moves_left).mul_f64(phase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    #[test]
    fn a_clock_is_read_from_its_text_and_bad_text_is_refused() {
        assert_eq!("none".parse(), Ok(TimeControl::None));
        assert_eq!(
            "absolute:300".parse(),
            Ok(TimeControl::Absolute { main: S(300) })
        );
        assert_eq!(
            "byoyomi:0:20:3".parse(),
            Ok(TimeControl::ByoYomi {
                main: S(0),
                period: S(20),
                periods: 3
            })
        );
        assert_eq!(
            "canadian:60:30:5".parse(),
            Ok(TimeControl::Canadian {
                main: S(60),
                period: S(30),
                stones: 5
            })
        );
        for bad in [
            "",
            "absolute",
            "absolute:0",
            "absolute:-1",
            "absolute:nan",
            "byoyomi:0:0:3",
            "byoyomi:0:20:0",
            "canadian:1:2",
            "fischer:60:5",
            "byoyomi:1e9:20:3",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn without_a_clock_the_level_time_is_the_budget() {
        let clock = Clock::new(TimeControl::None);
        assert_eq!(
            clock.budget(
                Duration::from_millis(1200),
                DEFAULT_LAG,
                Duration::ZERO,
                81,
                81
            ),
            Duration::from_millis(1200)
        );
    }

    #[test]
    fn sudden_death_spreads_the_time_and_never_overruns() {
        let mut clock = Clock::new(TimeControl::Absolute { main: S(60) });
        let level = S(10);
        let opening = clock.budget(level, DEFAULT_LAG, Duration::ZERO, 81, 81);
        assert!(
            opening < S(3) && opening > Duration::from_millis(500),
            "{opening:?}"
        );
        clock.set_left(Duration::from_millis(300), 0);
        let late = clock.budget(level, DEFAULT_LAG, Duration::ZERO, 10, 81);
        assert!(late < Duration::from_millis(300), "{late:?}");
    }

    #[test]
    fn a_whole_game_in_sudden_death_thinks_longer_early_and_never_runs_out() {
        let mut clock = Clock::new(TimeControl::Absolute { main: S(600) });
        let mut budgets = Vec::new();
        // 19x19, 160 moves each: the board fills by two stones per own move.
        for k in 0..160 {
            let b = clock.budget(S(100), DEFAULT_LAG, Duration::ZERO, 361 - 2 * k, 361);
            budgets.push(b);
            clock.charge(b);
            assert!(clock.left > Duration::ZERO, "ran out at move {k}");
        }
        let early: Duration = budgets[..60].iter().sum();
        let late: Duration = budgets[100..].iter().sum();
        assert!(early > late, "{early:?} vs {late:?}");
    }

    #[test]
    fn a_long_game_in_sudden_death_survives_the_engines_own_overhead() {
        // The soak's loss: 19x19, 60 s sudden death, a 455-move game under Japanese
        // rules; every move costs the clock its thinking plus the engine's own 8 ms.
        let overhead = Duration::from_millis(8);
        let mut clock = Clock::new(TimeControl::Absolute { main: S(60) });
        for k in 0..300 {
            let empty = 361usize.saturating_sub(2 * k).max(60);
            let b = clock.budget(S(1), DEFAULT_LAG, overhead, empty, 361);
            assert!(clock.charge(b + overhead), "ran out at own move {k}");
        }
        // Its last move took 20 ms with 10 ms left: in the last milliseconds a move
        // thinks a small share of what is left.
        for left_ms in [1000, 100, 10, 2] {
            let left = Duration::from_millis(left_ms);
            clock.set_left(left, 0);
            let b = clock.budget(S(1), DEFAULT_LAG, Duration::from_millis(1), 60, 361);
            assert!(b * 10 < left, "{b:?} of {left:?}");
        }
    }

    #[test]
    fn byo_yomi_periods_are_used_but_not_overrun() {
        let mut clock = Clock::new(TimeControl::ByoYomi {
            main: S(0),
            period: S(30),
            periods: 3,
        });
        clock.set_left(S(30), 3);
        let b = clock.budget(S(60), DEFAULT_LAG, Duration::ZERO, 81, 81);
        assert!(b <= S(24) && b >= S(20), "{b:?}");
        // The level caps the budget even when the clock allows more.
        assert_eq!(
            clock.budget(
                Duration::from_millis(2800),
                DEFAULT_LAG,
                Duration::ZERO,
                81,
                81
            ),
            Duration::from_millis(2700)
        );
    }

    #[test]
    fn the_lag_is_kept_back_from_the_time_that_must_not_run_out() {
        let mut clock = Clock::new(TimeControl::ByoYomi {
            main: S(0),
            period: S(10),
            periods: 1,
        });
        clock.set_left(S(10), 1);
        let lag = S(3);
        let b = clock.budget(S(60), lag, Duration::ZERO, 81, 81);
        assert!(b + lag <= S(10), "{b:?}");
        assert!(
            b > clock.budget(S(60), S(5), Duration::ZERO, 81, 81),
            "more lag, less thought"
        );
        // A lag longer than the time left still answers, with a small share of it.
        clock.set_left(Duration::from_millis(500), 1);
        assert_eq!(
            clock.budget(S(60), S(2), Duration::ZERO, 81, 81),
            Duration::from_millis(10)
        );
    }

    #[test]
    fn canadian_overtime_divides_the_period_by_the_stones_left() {
        let mut clock = Clock::new(TimeControl::Canadian {
            main: S(0),
            period: S(300),
            stones: 25,
        });
        clock.set_left(S(100), 10);
        let b = clock.budget(S(60), DEFAULT_LAG, Duration::ZERO, 81, 81);
        assert!(b <= S(9) && b >= S(8), "{b:?}");
    }

    #[test]
    fn the_clock_runs_out_as_a_server_says() {
        let mut sudden = Clock::new(TimeControl::Absolute { main: S(10) });
        assert!(sudden.charge(S(6)) && sudden.charge(S(4)));
        assert!(!sudden.charge(Duration::from_millis(1)), "nothing left");

        // Byo-yomi 10 s x 2: a move of 15 s loses one period, a move longer than the
        // last period loses the game.
        let mut byo = Clock::new(TimeControl::ByoYomi {
            main: S(0),
            period: S(10),
            periods: 2,
        });
        assert!(
            byo.charge(S(10)),
            "a move that takes the whole period keeps it"
        );
        assert_eq!((byo.left, byo.count), (S(10), 2));
        assert_eq!(byo.periods_lost_since(&Clock::new(byo.control)), 0);
        let before = byo;
        assert!(byo.charge(S(15)));
        assert_eq!((byo.left, byo.count), (S(10), 1));
        assert_eq!(byo.periods_lost_since(&before), 1);
        assert!(!byo.charge(S(11)));
        assert_eq!(
            byo.periods_lost_since(&before),
            0,
            "a loss on time counts apart"
        );

        // Canadian 10 s for 2 stones: 6 s + 5 s is too slow.
        let mut canadian = Clock::new(TimeControl::Canadian {
            main: S(0),
            period: S(10),
            stones: 2,
        });
        assert!(canadian.charge(S(6)));
        assert_eq!((canadian.left, canadian.count), (S(4), 1));
        assert!(!canadian.charge(S(5)));
        let mut canadian = Clock::new(TimeControl::Canadian {
            main: S(2),
            period: S(10),
            stones: 2,
        });
        // 3 s: the main time, then 1 s of the first period, and a stone played.
        assert!(canadian.charge(S(3)));
        assert_eq!((canadian.left, canadian.count), (S(9), 1));
        assert!(canadian.charge(S(9)));
        assert_eq!((canadian.left, canadian.count), (S(10), 2), "a new period");
        assert!(Clock::new(TimeControl::None).charge(S(1_000_000)));
    }

    #[test]
    fn charging_moves_into_overtime() {
        let mut clock = Clock::new(TimeControl::ByoYomi {
            main: S(5),
            period: S(10),
            periods: 2,
        });
        clock.charge(S(4));
        assert_eq!((clock.left, clock.count), (S(1), 0));
        clock.charge(S(3));
        assert_eq!((clock.left, clock.count), (S(10), 2));
        clock.charge(S(11));
        assert_eq!((clock.left, clock.count), (S(10), 1));
    }
}
