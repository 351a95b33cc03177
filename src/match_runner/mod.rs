//! Engine-vs-engine matches (the engine behind a `yeoul match` command).
//!
//! A [`Player`] is either an engine in this process or an external GTP engine
//! ([`GtpPlayer`]). [`run_match`] plays a series of games between two players, keeps its
//! own [`Game`] to judge every move (an illegal move forfeits the game), ends a game on two
//! passes, a resignation or the move limit, counts it (a referee's `final_score`, else the
//! first player's, else the rules core's count with every stone alive), writes an SGF file
//! per game if asked ([`game_to_sgf`]) and sums everything up in a [`MatchSummary`].
//!
//! Faults: a crash, a timeout, an unreadable answer or an illegal move loses the game for
//! the player at fault (a forfeit); an engine that refuses a move our rules accept leaves
//! the game without result (the two disagree about the rules). A crashed or timed-out
//! [`GtpPlayer`] is started again at the next game.

mod engine_player;
mod gtp_client;
mod sgf;
mod stats;
#[cfg(test)]
mod tests;

pub use engine_player::EnginePlayer;
pub use gtp_client::{GtpPlayer, split_command_line};
pub use sgf::{game_to_sgf, sgf_file_name};
pub use stats::{MatchSummary, PlayerSummary, wilson_interval};

use crate::rules::{Bitboard, BoardSize, Color, Game, Move, Point, Ruleset, max_fixed_handicap};
use crate::search::time::Clock;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A participant: our engine in-process, or an external GTP engine.
pub trait Player {
    fn name(&self) -> String;
    /// Start a new game (clear the board) with these settings.
    fn new_game(&mut self, size: BoardSize, komi: f64, ruleset: Ruleset)
    -> Result<(), PlayerError>;
    /// Tell the player a move was played.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError>;
    /// Ask for a move (the player plays it on its own board).
    fn genmove(&mut self, color: Color) -> Result<Reply, PlayerError>;
    /// A score string such as "B+3.5" / "W+0.5" / "0" for the current position, if the
    /// player can score.
    fn final_score(&mut self) -> Result<Option<String>, PlayerError>;
    /// Places GTP's fixed handicap of `stones` (2 or more) on the player's board after
    /// `new_game`, and says where it put them.
    fn fixed_handicap(&mut self, stones: u32) -> Result<Vec<Point>, PlayerError>;
    /// Sets handicap stones on `points` after `new_game` (GTP's `set_free_handicap`): for
    /// an engine whose own fixed handicap stands elsewhere (Pachi puts the third of three
    /// stones on Q4, not D16).
    fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), PlayerError>;
    /// The game's clock, told after `new_game` when the match has one.
    fn time_settings(&mut self, _control: TimeControl) -> Result<(), PlayerError> {
        Ok(())
    }
    /// What `color`'s clock shows (GTP's `time_left`: main time with `count` 0, else the
    /// period and the periods or stones left), told before each of its moves as a server
    /// does.
    fn time_left(
        &mut self,
        _color: Color,
        _left: Duration,
        _count: u32,
    ) -> Result<(), PlayerError> {
        Ok(())
    }
}

/// A player's answer to `genmove` (the engine's own type).
pub use crate::engine::Reply;
/// A match's clock (the engine's own type).
pub use crate::engine::TimeControl;

/// What went wrong with a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The engine could not be started.
    Start(String),
    /// The engine exited or closed its output.
    Crashed(String),
    /// No answer in time (an external engine is killed).
    Timeout(String),
    /// An answer that is not GTP, or not what the command asks for.
    Protocol(String),
    /// The engine answered a command with an error (`? message`).
    Rejected(String),
    /// A move the rules forbid.
    IllegalMove(String),
    /// A move slower than the clock allowed.
    TimeLoss(String),
}

impl PlayerError {
    pub fn kind(&self) -> FaultKind {
        match self {
            PlayerError::Start(_) => FaultKind::Start,
            PlayerError::Crashed(_) => FaultKind::Crash,
            PlayerError::Timeout(_) => FaultKind::Timeout,
            PlayerError::Protocol(_) => FaultKind::Protocol,
            PlayerError::Rejected(_) => FaultKind::Rejected,
            PlayerError::IllegalMove(_) => FaultKind::IllegalMove,
            PlayerError::TimeLoss(_) => FaultKind::TimeLoss,
        }
    }

    /// The message without the kind.
    pub fn message(&self) -> &str {
        match self {
            PlayerError::Start(m)
            | PlayerError::Crashed(m)
            | PlayerError::Timeout(m)
            | PlayerError::Protocol(m)
            | PlayerError::Rejected(m)
            | PlayerError::IllegalMove(m)
            | PlayerError::TimeLoss(m) => m,
        }
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind(), self.message())
    }
}

impl std::error::Error for PlayerError {}

/// The kinds of [`PlayerError`], for counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    Start,
    Crash,
    Timeout,
    Protocol,
    Rejected,
    IllegalMove,
    /// A move that took longer than the clock had left.
    TimeLoss,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultKind::Start => "cannot start",
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
            FaultKind::Protocol => "protocol error",
            FaultKind::Rejected => "command refused",
            FaultKind::IllegalMove => "illegal move",
            FaultKind::TimeLoss => "lost on time",
        })
    }
}

/// Who in a game a fault belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Black,
    White,
    Referee,
}

impl From<Color> for Role {
    fn from(color: Color) -> Role {
        match color {
            Color::Black => Role::Black,
            Color::White => Role::White,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Black => "black",
            Role::White => "white",
            Role::Referee => "referee",
        })
    }
}

/// One fault in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub role: Role,
    /// The player's name.
    pub player: String,
    pub kind: FaultKind,
    pub message: String,
}

/// How a series of games is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub size: BoardSize,
    pub komi: f64,
    pub ruleset: Ruleset,
    pub games: usize,
    /// Swap colours every game (`a` is Black in odd-numbered games).
    pub alternate: bool,
    /// Write `game-001.sgf`, ... there.
    pub sgf_dir: Option<PathBuf>,
    /// How long an external engine may think about a move (other commands get at least
    /// ten seconds).
    pub move_timeout: Duration,
    /// The game clock both players get (`TimeControl::None`: none); a move that takes
    /// longer than its clock has left loses the game.
    pub clock: TimeControl,
    /// Added to every move's time on the clock: the round trip a server's players see
    /// (the time left they are told includes it).
    pub network_delay: Duration,
    /// Stones the second player (`b`) receives. 0: an even game (colours alternate as
    /// asked). 1 or more: `b` takes Black in every game and `a` gives the handicap; from 2
    /// stones on they stand on GTP's fixed points, placed by `fixed_handicap` on both
    /// players' and the referee's boards, and White moves first.
    pub handicap: u32,
    /// A game stops after this many moves and is counted as it stands (`None`: the
    /// rules' own limit, three moves a point).
    pub max_moves: Option<usize>,
}

/// A handicap game's komi when none is given: half a point, so that there is no draw.
pub const HANDICAP_KOMI: f64 = 0.5;

impl MatchConfig {
    /// The komi of a match with `handicap` stones under `ruleset` when none is given.
    pub fn default_komi(ruleset: Ruleset, handicap: u32) -> f64 {
        if handicap > 0 {
            HANDICAP_KOMI
        } else {
            ruleset.default_komi(0)
        }
    }

    /// Why these settings cannot make a match, in the words of the command line.
    pub fn check(&self) -> Result<(), String> {
        if self.move_timeout.is_zero() {
            return Err("--move-timeout must be a number of seconds above 0".into());
        }
        if self.network_delay > Duration::from_secs(60) {
            return Err("--network-delay must be 0 to 60 seconds".into());
        }
        if self.max_moves == Some(0) {
            return Err("--max-moves must be at least 1".into());
        }
        let (size, most) = (self.size, max_fixed_handicap(self.size).max(1));
        if self.handicap > most {
            return Err(format!(
                "--handicap must be 0 to {most} on {size}x{size} (GTP's fixed handicap)"
            ));
        }
        if !(self.komi.is_finite() && self.komi.abs() <= 1000.0) {
            return Err("--komi must be a number between -1000 and 1000".into());
        }
        Ok(())
    }
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            size: BoardSize::NINE,
            komi: 7.5,
            ruleset: Ruleset::Chinese,
            games: 2,
            alternate: true,
            sgf_dir: None,
            move_timeout: Duration::from_secs(60),
            clock: TimeControl::None,
            network_delay: Duration::ZERO,
            handicap: 0,
            max_moves: None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    /// Counted. `margin` is Black's lead (negative when White wins), komi included;
    /// `text` is the count as `B+3.5`, `W+0.5` or `0`.
    Score {
        winner: Option<Color>,
        margin: f64,
        text: String,
    },
    /// The loser resigned; the colour is the winner's.
    Resignation(Color),
    /// The loser crashed, timed out, answered nonsense or played an illegal move.
    Forfeit { winner: Color, reason: String },
    /// The loser's clock ran out; the colour is the winner's.
    Time(Color),
    /// Neither player wins (the game could not be played or counted).
    NoResult(String),
}

impl GameResult {
    /// The winning colour, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            GameResult::Score { winner, .. } => *winner,
            GameResult::Resignation(w)
            | GameResult::Time(w)
            | GameResult::Forfeit { winner: w, .. } => Some(*w),
            GameResult::NoResult(_) => None,
        }
    }

    pub fn is_draw(&self) -> bool {
        matches!(self, GameResult::Score { winner: None, .. })
    }

    /// SGF's `RE` value: `B+3.5`, `W+R`, `W+T`, `B+F`, `0` (a draw) or `Void`.
    pub fn sgf_result(&self) -> String {
        match self {
            GameResult::Score { text, .. } => text.clone(),
            GameResult::Resignation(w) => format!("{}+R", color_letter(*w)),
            GameResult::Time(w) => format!("{}+T", color_letter(*w)),
            GameResult::Forfeit { winner, .. } => format!("{}+F", color_letter(*winner)),
            GameResult::NoResult(_) => "Void".to_string(),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Score { text, .. } => f.write_str(text),
            GameResult::Resignation(_) | GameResult::Time(_) => f.write_str(&self.sgf_result()),
            GameResult::Forfeit { reason, .. } => write!(f, "{} ({reason})", self.sgf_result()),
            GameResult::NoResult(reason) => write!(f, "no result ({reason})"),
        }
    }
}

/// One game as played.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1 for the first game of the match.
    pub number: usize,
    pub black: String,
    pub white: String,
    /// Whether the match's first player (`a`) had Black.
    pub a_is_black: bool,
    pub size: BoardSize,
    pub komi: f64,
    pub ruleset: Ruleset,
    /// Black's handicap stones, placed before the first move.
    pub handicap: Vec<Point>,
    pub moves: Vec<(Color, Move)>,
    pub result: GameResult,
    /// Time of each `genmove`, with the colour asked.
    pub times: Vec<(Color, Duration)>,
    /// Byo-yomi periods each colour lost by thinking past a period.
    pub periods_lost: [u32; 2],
    /// Who counted a scored game (`referee GNU Go 3.8`, ...).
    pub scorer: Option<String>,
    /// Everything that went wrong, readable.
    pub errors: Vec<String>,
    /// The faults among `errors`, by player.
    pub faults: Vec<Fault>,
}

impl GameRecord {
    /// The colour the match's player `a` had.
    pub fn a_color(&self) -> Color {
        if self.a_is_black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Whether `a` won (`None` for a draw or no result).
    pub fn a_won(&self) -> Option<bool> {
        self.result.winner().map(|w| w == self.a_color())
    }

    /// Mean seconds per `genmove` of `color` (0 when it made none).
    pub fn mean_time(&self, color: Color) -> f64 {
        let (total, n) = self
            .times
            .iter()
            .filter(|(c, _)| *c == color)
            .fold((0.0, 0u32), |(t, n), (_, d)| (t + d.as_secs_f64(), n + 1));
        if n == 0 { 0.0 } else { total / f64::from(n) }
    }

    fn fault(&mut self, role: Role, player: String, context: &str, error: &PlayerError) {
        let text = format!("{role} {player}: {context}: {error}");
        log::warn!("game {}: {text}", self.number);
        self.errors.push(text);
        self.faults.push(Fault {
            role,
            player,
            kind: error.kind(),
            message: format!("{context}: {}", error.message()),
        });
    }

    fn note(&mut self, text: String) {
        log::warn!("game {}: {text}", self.number);
        self.errors.push(text);
    }
}

impl fmt::Display for GameRecord {
    /// One line: `game 3: B yeoul vs W GNU Go 3.8: W+12.5 (84 moves; s/move B 1.02, W 0.75)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: B {} vs W {}: {} ({} moves; s/move B {:.2}, W {:.2})",
            self.number,
            self.black,
            self.white,
            self.result,
            self.moves.len(),
            self.mean_time(Color::Black),
            self.mean_time(Color::White)
        )?;
        if !self.errors.is_empty() {
            write!(f, " [{} error(s)]", self.errors.len())?;
        }
        Ok(())
    }
}

fn color_letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

fn move_name(size: BoardSize, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => size.name(p),
    }
}

/// Parses a count as GTP's `final_score` gives it: `B+3.5`, `W+0.5`, `0`, `Draw`, `Jigo`
/// (case-insensitive). Returns the winner and Black's lead.
pub fn parse_score(text: &str) -> Option<(Option<Color>, f64)> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    if matches!(lower.as_str(), "0" | "0.0" | "draw" | "jigo") {
        return Some((None, 0.0));
    }
    let (letter, rest) = lower.split_at_checked(1)?;
    let value = rest.strip_prefix('+')?;
    let points: f64 = value.parse().ok()?;
    if !points.is_finite() || points < 0.0 {
        return None;
    }
    if points == 0.0 {
        return Some((None, 0.0));
    }
    match letter {
        "b" => Some((Some(Color::Black), points)),
        "w" => Some((Some(Color::White), -points)),
        _ => None,
    }
}

/// The canonical text of a count: `B+3.5`, `W+0.5` or `0`.
fn score_text(margin: f64) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    }
}

/// Plays `config.games` games between `a` and `b` (`a` is Black in game 1; colours
/// alternate if asked; in handicap games `b` is always Black), then sums them up.
/// `progress` sees each game when it ends (after its SGF file is written).
pub fn run_match(
    config: &MatchConfig,
    a: &mut dyn Player,
    b: &mut dyn Player,
    mut referee: Option<&mut dyn Player>,
    progress: &mut dyn FnMut(&GameRecord),
) -> MatchSummary {
    let mut records = Vec::with_capacity(config.games);
    for i in 0..config.games {
        let a_is_black = config.handicap == 0 && (!config.alternate || i % 2 == 0);
        let referee = referee.as_deref_mut();
        let mut record = if a_is_black {
            play_game(config, i + 1, a, b, referee, true)
        } else {
            play_game(config, i + 1, b, a, referee, false)
        };
        if let Some(dir) = &config.sgf_dir
            && let Err(e) = sgf::write_game(dir, &record)
        {
            record.note(format!(
                "cannot write the SGF file in {}: {e}",
                dir.display()
            ));
        }
        progress(&record);
        records.push(record);
    }
    MatchSummary::new(config, a.name(), b.name(), records)
}

/// Plays one game between `black` and `white`.
pub fn play_game(
    config: &MatchConfig,
    number: usize,
    black: &mut dyn Player,
    white: &mut dyn Player,
    referee: Option<&mut (dyn Player + '_)>,
    a_is_black: bool,
) -> GameRecord {
    let mut players: [&mut dyn Player; 2] = [black, white];
    let mut rec = GameRecord {
        number,
        black: players[0].name(),
        white: players[1].name(),
        a_is_black,
        size: config.size,
        komi: config.komi,
        ruleset: config.ruleset,
        handicap: Vec::new(),
        moves: Vec::new(),
        result: GameResult::NoResult("not played".to_string()),
        times: Vec::new(),
        periods_lost: [0; 2],
        scorer: None,
        errors: Vec::new(),
        faults: Vec::new(),
    };
    let mut game = Game::new(config.size, config.ruleset);
    game.set_komi(config.komi);

    for color in Color::BOTH {
        let player = &mut players[color.index()];
        let started = player
            .new_game(config.size, config.komi, config.ruleset)
            .and_then(|()| match config.clock {
                TimeControl::None => Ok(()),
                control => player.time_settings(control),
            });
        if let Err(e) = started {
            let name = player.name();
            rec.fault(color.into(), name, "new game", &e);
            rec.result = GameResult::Forfeit {
                winner: color.opponent(),
                reason: format!("{color} could not start the game: {}", e.kind()),
            };
            return rec;
        }
    }

    if config.handicap >= 2 {
        let expected = match game.place_fixed_handicap(config.handicap) {
            Ok(points) => points,
            Err(e) => {
                rec.result =
                    GameResult::NoResult(format!("{} handicap stones: {e}", config.handicap));
                return rec;
            }
        };
        for color in Color::BOTH {
            let player = &mut players[color.index()];
            let placed = match player.fixed_handicap(config.handicap) {
                // As many stones on other points: the engine's own table. Its board gets
                // GTP's points instead, so that every board holds the same game.
                Ok(points)
                    if points.len() == expected.len() && !same_points(&points, &expected) =>
                {
                    log::info!(
                        "{color} placed its {} handicap stones on its own points: told GTP's",
                        points.len()
                    );
                    player
                        .new_game(config.size, config.komi, config.ruleset)
                        .and_then(|()| match config.clock {
                            TimeControl::None => Ok(()),
                            control => player.time_settings(control),
                        })
                        .and_then(|()| player.set_free_handicap(&expected))
                        .map(|()| expected.clone())
                }
                other => other,
            };
            if let Some(result) = handicap_fault(&mut rec, color, player.name(), &expected, placed)
            {
                rec.result = result;
                return rec;
            }
        }
        rec.handicap = expected;
    }

    let mut clocks = [Clock::new(config.clock); 2];
    let ended = loop {
        if game.is_over() || config.max_moves.is_some_and(|most| rec.moves.len() >= most) {
            break None;
        }
        let color = game.to_move();
        let mover = &mut players[color.index()];
        let clock = &mut clocks[color.index()];
        let before = *clock;
        let told = match config.clock {
            TimeControl::None => Ok(()),
            _ => mover.time_left(color, clock.left, clock.count),
        };
        let start = Instant::now();
        let reply = told.and_then(|()| mover.genmove(color));
        let used = start.elapsed() + config.network_delay;
        rec.times.push((color, used));
        if reply.is_ok() && !clock.charge(used) {
            let e = PlayerError::TimeLoss(format!(
                "{:.2} s for a move with {:.2} s left ({} periods or stones)",
                used.as_secs_f64(),
                before.left.as_secs_f64(),
                before.count
            ));
            let name = mover.name();
            rec.fault(color.into(), name, "genmove", &e);
            break Some(GameResult::Time(color.opponent()));
        }
        rec.periods_lost[color.index()] += clock.periods_lost_since(&before);
        let mv = match reply {
            Ok(Reply::Move(mv)) => mv,
            Ok(Reply::Resign) => break Some(GameResult::Resignation(color.opponent())),
            Err(e) => {
                let name = mover.name();
                rec.fault(color.into(), name, "genmove", &e);
                break Some(GameResult::Forfeit {
                    winner: color.opponent(),
                    reason: format!("{color}: {}", e.kind()),
                });
            }
        };
        if let Err(illegal) = game.play(color, mv) {
            let e = PlayerError::IllegalMove(format!("{} ({illegal})", move_name(config.size, mv)));
            let name = mover.name();
            rec.fault(color.into(), name, "genmove", &e);
            break Some(GameResult::Forfeit {
                winner: color.opponent(),
                reason: format!("{color} played {e}"),
            });
        }
        rec.moves.push((color, mv));
        let other = &mut players[color.opponent().index()];
        if let Err(e) = other.play(color, mv) {
            let name = other.name();
            let context = format!("play {color} {}", move_name(config.size, mv));
            rec.fault(color.opponent().into(), name, &context, &e);
            break Some(match e {
                PlayerError::Rejected(_) | PlayerError::IllegalMove(_) => {
                    GameResult::NoResult(format!("{} refused {context}", color.opponent()))
                }
                _ => GameResult::Forfeit {
                    winner: color,
                    reason: format!("{}: {}", color.opponent(), e.kind()),
                },
            });
        }
    };

    rec.result = match ended {
        Some(result) => result,
        None => {
            let a = if a_is_black { 0 } else { 1 };
            score_game(&mut rec, &game, &mut *players[a], referee)
        }
    };
    rec
}

/// Whether two lists hold the same points in any order.
fn same_points(a: &[Point], b: &[Point]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Checks what `color`'s player answered to `fixed_handicap` against GTP's points: on a
/// fault (noted), how the game ends before it starts. An error forfeits the game; other
/// points than GTP's leave it without a result (the players disagree about the game).
fn handicap_fault(
    rec: &mut GameRecord,
    color: Color,
    name: String,
    expected: &[Point],
    placed: Result<Vec<Point>, PlayerError>,
) -> Option<GameResult> {
    let context = format!("fixed_handicap {}", expected.len());
    match placed {
        Err(e) => {
            rec.fault(color.into(), name, &context, &e);
            Some(GameResult::Forfeit {
                winner: color.opponent(),
                reason: format!("{color} could not place the handicap"),
            })
        }
        Ok(points) => {
            if same_points(&points, expected) {
                return None;
            }
            let want = expected.to_vec();
            let names =
                |ps: &[Point]| -> Vec<String> { ps.iter().map(|&p| rec.size.name(p)).collect() };
            let e = PlayerError::Protocol(format!(
                "placed {:?}, GTP's points are {:?}",
                names(&points),
                names(&want)
            ));
            rec.fault(color.into(), name, &context, &e);
            Some(GameResult::NoResult(format!(
                "{color} placed the handicap elsewhere"
            )))
        }
    }
}

/// Counts a finished game: the referee, else `a`, else the rules core.
fn score_game(
    rec: &mut GameRecord,
    game: &Game,
    a: &mut dyn Player,
    referee: Option<&mut (dyn Player + '_)>,
) -> GameResult {
    if let Some(referee) = referee {
        let name = referee.name();
        match referee_score(referee, rec) {
            Ok(Some(text)) => match parse_score(&text) {
                Some((winner, margin)) => {
                    rec.scorer = Some(format!("referee {name}"));
                    return GameResult::Score {
                        winner,
                        margin,
                        text: score_text(margin),
                    };
                }
                None => {
                    let e = PlayerError::Protocol(format!("unreadable score {text:?}"));
                    rec.fault(Role::Referee, name, "final_score", &e);
                }
            },
            Ok(None) => rec.note(format!("referee {name} cannot score")),
            Err((context, e)) => rec.fault(Role::Referee, name, &context, &e),
        }
    }

    let name = a.name();
    let role = Role::from(rec.a_color());
    match a.final_score() {
        Ok(Some(text)) => match parse_score(&text) {
            Some((winner, margin)) => {
                rec.scorer = Some(name);
                return GameResult::Score {
                    winner,
                    margin,
                    text: score_text(margin),
                };
            }
            None => {
                let e = PlayerError::Protocol(format!("unreadable score {text:?}"));
                rec.fault(role, name, "final_score", &e);
            }
        },
        Ok(None) => {}
        Err(e) => rec.fault(role, name, "final_score", &e),
    }

    let score = game.score(&Bitboard::EMPTY, &Bitboard::EMPTY);
    rec.scorer = Some("rules core (all stones alive)".to_string());
    GameResult::Score {
        winner: score.winner(),
        margin: score.margin(),
        text: score_text(score.margin()),
    }
}

/// Replays the game into the referee and asks it for the count.
fn referee_score(
    referee: &mut dyn Player,
    rec: &GameRecord,
) -> Result<Option<String>, (String, PlayerError)> {
    referee
        .new_game(rec.size, rec.komi, rec.ruleset)
        .map_err(|e| ("new game".to_string(), e))?;
    if rec.handicap.len() >= 2 {
        referee
            .set_free_handicap(&rec.handicap)
            .map_err(|e| ("set_free_handicap".to_string(), e))?;
    }
    for &(color, mv) in &rec.moves {
        referee
            .play(color, mv)
            .map_err(|e| (format!("play {color} {}", move_name(rec.size, mv)), e))?;
    }
    referee
        .final_score()
        .map_err(|e| ("final_score".to_string(), e))
}
