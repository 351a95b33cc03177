//! Match statistics: wins by colour, the first player's win rate with a Wilson interval,
//! game lengths, time per move, faults.

use super::{FaultKind, GameRecord, GameResult, MatchConfig, Role};
use crate::rules::{BoardSize, Color, Ruleset};
use std::fmt;
use std::time::Duration;

/// The Wilson score interval of a proportion, 95% (z = 1.96): `(low, high)`. With no
/// trials, `(0, 1)`. `successes` may be fractional (a draw counts half).
pub fn wilson_interval(successes: f64, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96_f64;
    let n = trials as f64;
    let p = successes / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One player's side of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    pub name: String,
    pub games_as_black: usize,
    pub games_as_white: usize,
    pub wins: usize,
    pub wins_as_black: usize,
    pub wins_as_white: usize,
    /// Moves asked of it (`genmove` calls).
    pub moves: usize,
    pub total_time: Duration,
    pub max_time: Duration,
    pub illegal_moves: usize,
    pub crashes: usize,
    pub timeouts: usize,
    /// Unreadable answers, failed starts.
    pub protocol_errors: usize,
    /// Commands it answered with an error (moves it refused, ...).
    pub refusals: usize,
    /// Moves that took longer than its clock had left.
    pub time_losses: usize,
    /// Byo-yomi periods lost by thinking past a period (not a fault: the game goes on).
    pub periods_lost: u32,
}

impl PlayerSummary {
    /// Average time per move.
    pub fn average_time(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.total_time / self.moves as u32
        }
    }

    /// All its faults.
    pub fn errors(&self) -> usize {
        self.illegal_moves
            + self.crashes
            + self.timeouts
            + self.protocol_errors
            + self.refusals
            + self.time_losses
    }

    fn count_fault(&mut self, kind: FaultKind) {
        match kind {
            FaultKind::IllegalMove => self.illegal_moves += 1,
            FaultKind::Crash => self.crashes += 1,
            FaultKind::Timeout => self.timeouts += 1,
            FaultKind::Protocol | FaultKind::Start => self.protocol_errors += 1,
            FaultKind::Rejected => self.refusals += 1,
            FaultKind::TimeLoss => self.time_losses += 1,
        }
    }
}

/// A whole match: `a` is the first player passed to `run_match`.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub size: BoardSize,
    pub komi: f64,
    pub ruleset: Ruleset,
    pub alternate: bool,
    /// Stones B received in every game (0: even games).
    pub handicap: u32,
    pub games: usize,
    pub a: PlayerSummary,
    pub b: PlayerSummary,
    pub draws: usize,
    pub no_results: usize,
    pub black_wins: usize,
    pub white_wins: usize,
    pub scored: usize,
    pub resignations: usize,
    pub forfeits: usize,
    /// Games lost on time.
    pub on_time: usize,
    /// `a`'s share of the games with a result, a draw counting half (`None` without any).
    pub a_win_rate: Option<f64>,
    /// The Wilson 95% interval of `a_win_rate`.
    pub a_win_interval: (f64, f64),
    /// Moves per game, passes included.
    pub average_length: f64,
    /// Games stopped at `MatchConfig::max_moves` and counted as they stood.
    pub stopped: usize,
    pub referee_errors: usize,
    pub records: Vec<GameRecord>,
}

impl MatchSummary {
    pub fn new(
        config: &MatchConfig,
        a_name: String,
        b_name: String,
        records: Vec<GameRecord>,
    ) -> MatchSummary {
        let mut a = PlayerSummary {
            name: a_name,
            ..PlayerSummary::default()
        };
        let mut b = PlayerSummary {
            name: b_name,
            ..PlayerSummary::default()
        };
        let (mut draws, mut no_results, mut black_wins, mut white_wins) = (0, 0, 0, 0);
        let (mut scored, mut resignations, mut forfeits, mut referee_errors) = (0, 0, 0, 0);
        let mut on_time = 0;
        let mut total_moves = 0;
        let mut stopped = 0;
        for rec in &records {
            let a_color = rec.a_color();
            let seat = |color: Color| color == a_color;
            for color in Color::BOTH {
                let p = if seat(color) { &mut a } else { &mut b };
                match color {
                    Color::Black => p.games_as_black += 1,
                    Color::White => p.games_as_white += 1,
                }
            }
            match rec.result.winner() {
                Some(w) => {
                    let p = if seat(w) { &mut a } else { &mut b };
                    p.wins += 1;
                    match w {
                        Color::Black => {
                            p.wins_as_black += 1;
                            black_wins += 1;
                        }
                        Color::White => {
                            p.wins_as_white += 1;
                            white_wins += 1;
                        }
                    }
                }
                None if rec.result.is_draw() => draws += 1,
                None => no_results += 1,
            }
            match rec.result {
                GameResult::Score { .. } => scored += 1,
                GameResult::Resignation(_) => resignations += 1,
                GameResult::Forfeit { .. } => forfeits += 1,
                GameResult::Time(_) => on_time += 1,
                GameResult::NoResult(_) => {}
            }
            for color in Color::BOTH {
                let p = if seat(color) { &mut a } else { &mut b };
                p.periods_lost += rec.periods_lost[color.index()];
            }
            for &(color, time) in &rec.times {
                let p = if seat(color) { &mut a } else { &mut b };
                p.moves += 1;
                p.total_time += time;
                p.max_time = p.max_time.max(time);
            }
            for fault in &rec.faults {
                match fault.role {
                    Role::Referee => referee_errors += 1,
                    Role::Black => {
                        let p = if seat(Color::Black) { &mut a } else { &mut b };
                        p.count_fault(fault.kind);
                    }
                    Role::White => {
                        let p = if seat(Color::White) { &mut a } else { &mut b };
                        p.count_fault(fault.kind);
                    }
                }
            }
            total_moves += rec.moves.len();
            let two_passes = rec.moves.len() >= 2
                && rec.moves[rec.moves.len() - 2..]
                    .iter()
                    .all(|&(_, mv)| mv == crate::rules::Move::Pass);
            if config.max_moves.is_some_and(|most| rec.moves.len() >= most) && !two_passes {
                stopped += 1;
            }
        }
        let decided = a.wins + b.wins + draws;
        let a_points = a.wins as f64 + 0.5 * draws as f64;
        MatchSummary {
            size: config.size,
            komi: config.komi,
            ruleset: config.ruleset,
            alternate: config.alternate,
            handicap: config.handicap,
            games: records.len(),
            a,
            b,
            draws,
            no_results,
            black_wins,
            white_wins,
            scored,
            resignations,
            forfeits,
            on_time,
            a_win_rate: (decided > 0).then(|| a_points / decided as f64),
            a_win_interval: wilson_interval(a_points, decided),
            stopped,
            average_length: if records.is_empty() {
                0.0
            } else {
                total_moves as f64 / records.len() as f64
            },
            referee_errors,
            records,
        }
    }
}

impl fmt::Display for MatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} games on {}x{}, komi {}, {} rules{}",
            self.games,
            self.size,
            self.size,
            self.komi,
            self.ruleset,
            match (self.handicap, self.alternate) {
                (0, true) => ", colours alternating".to_string(),
                (0, false) => String::new(),
                (stones, _) => format!(
                    ", {} takes Black with {stones} handicap stone(s)",
                    self.b.name
                ),
            }
        )?;
        writeln!(
            f,
            "{:<3}{:<28}{:>6}{:>10}{:>10}{:>10}{:>10}{:>8}{:>8}{:>9}{:>9}{:>9}{:>9}{:>9}",
            "",
            "player",
            "wins",
            "as black",
            "as white",
            "avg s/mv",
            "max s/mv",
            "illegal",
            "crash",
            "timeout",
            "protocol",
            "refused",
            "on time",
            "periods"
        )?;
        for (label, p) in [("A", &self.a), ("B", &self.b)] {
            let name: String = p.name.chars().take(27).collect();
            writeln!(
                f,
                "{label:<3}{name:<28}{:>6}{:>10}{:>10}{:>10.3}{:>10.3}{:>8}{:>8}{:>9}{:>9}{:>9}{:>9}{:>9}",
                p.wins,
                format!("{}/{}", p.wins_as_black, p.games_as_black),
                format!("{}/{}", p.wins_as_white, p.games_as_white),
                p.average_time().as_secs_f64(),
                p.max_time.as_secs_f64(),
                p.illegal_moves,
                p.crashes,
                p.timeouts,
                p.protocol_errors,
                p.refusals,
                p.time_losses,
                p.periods_lost,
            )?;
        }
        match self.a_win_rate {
            Some(rate) => writeln!(
                f,
                "A wins {:.1}% (95% Wilson interval {:.1}% to {:.1}%; draws count half)",
                100.0 * rate,
                100.0 * self.a_win_interval.0,
                100.0 * self.a_win_interval.1
            )?,
            None => writeln!(f, "A wins: no game with a result")?,
        }
        writeln!(
            f,
            "black won {}, white won {}, draws {}, no result {}",
            self.black_wins, self.white_wins, self.draws, self.no_results
        )?;
        writeln!(
            f,
            "endings: {} counted, {} resigned, {} forfeited, {} lost on time; average length {:.1} moves",
            self.scored, self.resignations, self.forfeits, self.on_time, self.average_length
        )?;
        if self.stopped > 0 {
            writeln!(f, "stopped at the move limit and counted: {}", self.stopped)?;
        }
        if self.referee_errors > 0 {
            writeln!(f, "referee errors: {}", self.referee_errors)?;
        }
        Ok(())
    }
}
