//! An external engine over GTP version 2: a child process, a reader thread per output
//! stream, and a deadline on every command.

use super::{Player, PlayerError, Reply, TimeControl};
use crate::gtp::for_each_line;
use crate::rules::{BoardSize, Color, Move, Point, Ruleset};
use std::collections::{HashMap, VecDeque};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Commands other than `genmove` get at least this long.
const MIN_COMMAND_TIMEOUT: Duration = Duration::from_secs(10);
/// `final_score` gets at least this long (a referee reading a big board).
const FINAL_SCORE_TIMEOUT: Duration = Duration::from_secs(60);
/// The first answer after a start may take a while (an engine loading its data).
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a closing engine gets to exit after `quit`.
const QUIT_WAIT: Duration = Duration::from_secs(1);
/// Lines of the engine's stderr kept for error messages.
const STDERR_LINES: usize = 20;

/// Splits an engine command line on whitespace; double quotes group words
/// (`"my engine" --flag`). No other escapes.
pub fn split_command_line(line: &str) -> Result<Vec<String>, PlayerError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(PlayerError::Start(format!(
            "unbalanced double quote in {line:?}"
        )));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(PlayerError::Start("empty engine command".to_string()));
    }
    Ok(words)
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    /// Output lines without their line end; `None` once stdout is closed.
    lines: Receiver<Option<String>>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Set when the engine's stderr reaches its end (all its last words are in the tail).
    stderr_closed: Arc<std::sync::atomic::AtomicBool>,
    /// Killed already: no `quit` on drop.
    killed: bool,
}

impl Process {
    fn spawn(argv: &[String]) -> Result<Process, PlayerError> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| PlayerError::Start("empty engine command".to_string()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| PlayerError::Start(format!("cannot start {program}: {e}")))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(PlayerError::Start(format!("no pipes to {program}")));
        };

        let (tx, lines) = mpsc::channel();
        let label = program.clone();
        thread::Builder::new()
            .name("gtp-stdout".to_string())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                for_each_line(&mut reader, |line| {
                    let text = line.trim_end_matches(['\n', '\r']).to_string();
                    log::trace!("{label} < {text}");
                    tx.send(Some(text)).is_ok()
                });
                let _ = tx.send(None);
            })
            .map_err(|e| PlayerError::Start(format!("cannot start a reader thread: {e}")))?;

        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_closed = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let closed = Arc::clone(&stderr_closed);
        let label = program.clone();
        thread::Builder::new()
            .name("gtp-stderr".to_string())
            .spawn(move || {
                let mut reader = BufReader::new(stderr);
                for_each_line(&mut reader, |line| {
                    let text = line.trim_end().to_string();
                    log::debug!("{label} [stderr] {text}");
                    let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(text);
                    true
                });
                closed.store(true, std::sync::atomic::Ordering::Release);
            })
            .map_err(|e| PlayerError::Start(format!("cannot start a reader thread: {e}")))?;

        Ok(Process {
            child,
            stdin,
            lines,
            stderr_tail,
            stderr_closed,
            killed: false,
        })
    }

    fn kill(&mut self) {
        self.killed = true;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Why the engine stopped answering: its exit status and the end of its stderr.
    fn death_message(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        // An exited engine's last stderr lines may still be in the pipe: read them first.
        while status.is_some()
            && !self
                .stderr_closed
                .load(std::sync::atomic::Ordering::Acquire)
            && Instant::now() < deadline
        {
            thread::sleep(Duration::from_millis(5));
        }
        let mut text = match status {
            Some(status) => format!("the engine exited ({status})"),
            None => "the engine closed its output".to_string(),
        };
        let tail = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        let last: Vec<&str> = tail
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(String::as_str)
            .collect();
        if !last.is_empty() {
            let joined = last.join(" | ");
            let cut: String = joined.chars().take(300).collect();
            text.push_str(&format!("; stderr: {cut}"));
        }
        text
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !self.killed {
            let _ = self
                .stdin
                .write_all(b"quit\n")
                .and_then(|()| self.stdin.flush());
            let deadline = Instant::now() + QUIT_WAIT;
            while Instant::now() < deadline {
                match self.child.try_wait() {
                    Ok(Some(_)) => return,
                    Ok(None) => thread::sleep(Duration::from_millis(10)),
                    Err(_) => break,
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Why reading a response failed.
enum ReadFailure {
    Timeout,
    Closed,
    Framing(String),
}

/// An external engine over GTP, started from a command line such as
/// `gnugo --mode gtp --level 10`. Every command carries an id; a response with an older
/// id (left over from an earlier command) is skipped. An engine that crashes or does not
/// answer in time is killed; the next `new_game` (or [`GtpPlayer::restart`]) starts it
/// again. The engine is sent `quit` (and then killed) on drop.
pub struct GtpPlayer {
    command_line: String,
    argv: Vec<String>,
    move_timeout: Duration,
    name: String,
    process: Option<Process>,
    size: BoardSize,
    next_id: u32,
    known: HashMap<String, bool>,
    /// A byo-yomi clock told as GTP's canadian `time_settings` (one stone a period),
    /// for an engine without `kgs-time_settings`: `time_left` then says one stone.
    byo_yomi_as_canadian: bool,
}

impl GtpPlayer {
    /// Starts the engine and asks its name and version.
    pub fn start(command_line: &str, move_timeout: Duration) -> Result<GtpPlayer, PlayerError> {
        let argv = split_command_line(command_line)?;
        let mut player = GtpPlayer {
            command_line: command_line.to_string(),
            name: program_name(&argv[0]),
            argv,
            move_timeout,
            process: None,
            size: BoardSize::NINETEEN,
            next_id: 0,
            known: HashMap::new(),
            byo_yomi_as_canadian: false,
        };
        player.restart()?;
        // The first answer also reports an engine that died at once (a bad option).
        let timeout = player.command_timeout().max(STARTUP_TIMEOUT);
        if let Ok(name) = player.exchange("name", timeout)?
            && !name.is_empty()
        {
            player.name = name;
            if let Ok(version) = player.exchange("version", timeout)?
                && !version.is_empty()
            {
                player.name = format!("{} {version}", player.name);
            }
        }
        Ok(player)
    }

    /// Stops the engine if it runs and starts it again (board, komi and the list of known
    /// commands are forgotten).
    pub fn restart(&mut self) -> Result<(), PlayerError> {
        self.process = None;
        self.known.clear();
        self.process = Some(Process::spawn(&self.argv)?);
        log::debug!("started {}", self.command_line);
        Ok(())
    }

    /// Whether the engine process is running (as far as we know).
    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    pub fn command_line(&self) -> &str {
        &self.command_line
    }

    /// The last lines the engine wrote on stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.process
            .as_ref()
            .map(|p| {
                let tail = p.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
                tail.iter().cloned().collect()
            })
            .unwrap_or_default()
    }

    fn command_timeout(&self) -> Duration {
        self.move_timeout.max(MIN_COMMAND_TIMEOUT)
    }

    /// Sends any command; a `?` answer becomes [`PlayerError::Rejected`].
    pub fn send(&mut self, command: &str) -> Result<String, PlayerError> {
        let timeout = self.command_timeout();
        self.exchange(command, timeout)?
            .map_err(|msg| PlayerError::Rejected(format!("{command}: {msg}")))
    }

    /// Whether the engine knows a command (asked once per engine process).
    pub fn known_command(&mut self, name: &str) -> Result<bool, PlayerError> {
        if let Some(&known) = self.known.get(name) {
            return Ok(known);
        }
        let timeout = self.command_timeout();
        let known = match self.exchange(&format!("known_command {name}"), timeout)? {
            Ok(answer) => answer.trim().eq_ignore_ascii_case("true"),
            Err(_) => false,
        };
        self.known.insert(name.to_string(), known);
        Ok(known)
    }

    /// Sends one command and reads its response: `Ok(Ok(text))` for `=`, `Ok(Err(text))`
    /// for `?`, `Err` when the engine is dead, silent or unreadable (then it is killed).
    fn exchange(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Result<Result<String, String>, PlayerError> {
        let Some(process) = self.process.as_mut() else {
            return Err(PlayerError::Crashed(format!(
                "{} is not running",
                self.name
            )));
        };
        self.next_id += 1;
        let id = self.next_id;
        log::trace!("{} > {id} {command}", self.name);
        let written =
            writeln!(process.stdin, "{id} {command}").and_then(|()| process.stdin.flush());
        if let Err(e) = written {
            let why = process.death_message();
            self.process = None;
            return Err(PlayerError::Crashed(format!(
                "{command}: cannot write ({e}); {why}"
            )));
        }
        let deadline = Instant::now() + timeout;
        match read_response(&process.lines, id, deadline) {
            Ok(answer) => Ok(answer),
            Err(failure) => {
                let error = match failure {
                    ReadFailure::Timeout => {
                        process.kill();
                        PlayerError::Timeout(format!(
                            "{command}: no answer within {:.1} s",
                            timeout.as_secs_f64()
                        ))
                    }
                    ReadFailure::Closed => {
                        PlayerError::Crashed(format!("{command}: {}", process.death_message()))
                    }
                    ReadFailure::Framing(why) => {
                        process.kill();
                        PlayerError::Protocol(format!("{command}: {why}"))
                    }
                };
                self.process = None;
                Err(error)
            }
        }
    }

    fn set_rules(&mut self, ruleset: Ruleset) -> Result<(), PlayerError> {
        let command = if self.known_command("yeoul-rules")? {
            format!("yeoul-rules {}", ruleset.name())
        } else if self.known_command("kgs-rules")? {
            let kgs = match ruleset {
                Ruleset::Chinese => "chinese",
                Ruleset::Aga => "aga",
                Ruleset::Japanese | Ruleset::Korean => "japanese",
                Ruleset::NewZealand | Ruleset::TrompTaylor => "new_zealand",
            };
            format!("kgs-rules {kgs}")
        } else {
            log::debug!("{} knows no rules command; rules left as set", self.name);
            return Ok(());
        };
        match self.send(&command) {
            Ok(_) => Ok(()),
            Err(PlayerError::Rejected(msg)) => {
                log::warn!("{}: {msg}", self.name);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

/// The program's file name, the name of an engine that does not say its own.
fn program_name(program: &str) -> String {
    std::path::Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| program.to_string())
}

fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// Reads one response to command `id`: lines before the `=`/`?` line are skipped, the
/// response runs to the first empty line. Responses to older ids are skipped whole.
fn read_response(
    lines: &Receiver<Option<String>>,
    id: u32,
    deadline: Instant,
) -> Result<Result<String, String>, ReadFailure> {
    let next = || {
        let wait = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(wait) {
            Ok(Some(line)) => Ok(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(ReadFailure::Closed),
            Err(RecvTimeoutError::Timeout) => Err(ReadFailure::Timeout),
        }
    };
    loop {
        let header = loop {
            let line = next()?;
            if line.starts_with('=') || line.starts_with('?') {
                break line;
            }
            if !line.trim().is_empty() {
                log::debug!("skipping a stray output line {line:?}");
            }
        };
        let ok = header.starts_with('=');
        let rest = &header[1..];
        let digits_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (digits, first) = rest.split_at(digits_end);
        let mut text = first.trim().to_string();
        loop {
            let line = next()?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim_end());
        }
        if !digits.is_empty() {
            let got: u32 = digits
                .parse()
                .map_err(|_| ReadFailure::Framing(format!("bad response id {digits:?}")))?;
            if got < id {
                log::debug!("skipping a late response to command {got}");
                continue;
            }
            if got > id {
                return Err(ReadFailure::Framing(format!(
                    "response id {got} to command {id}"
                )));
            }
        }
        return Ok(if ok { Ok(text) } else { Err(text) });
    }
}

impl Player for GtpPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(
        &mut self,
        size: BoardSize,
        komi: f64,
        ruleset: Ruleset,
    ) -> Result<(), PlayerError> {
        if self.process.is_none() {
            log::info!("restarting {}", self.command_line);
            self.restart()?;
        }
        self.size = size;
        self.send(&format!("boardsize {size}"))?;
        self.send("clear_board")?;
        self.send(&format!("komi {komi}"))?;
        self.set_rules(ruleset)
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
        let vertex = match mv {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => self.size.name(p),
        };
        self.send(&format!("play {} {vertex}", gtp_color(color)))
            .map(drop)
    }

    fn fixed_handicap(&mut self, stones: u32) -> Result<Vec<Point>, PlayerError> {
        let command = format!("fixed_handicap {stones}");
        let answer = self.send(&command)?;
        answer
            .split_whitespace()
            .map(|word| {
                self.size.parse_point(word).map_err(|_| {
                    PlayerError::Protocol(format!("{command}: not a vertex: {word:?}"))
                })
            })
            .collect()
    }

    fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), PlayerError> {
        let vertices: Vec<String> = points.iter().map(|&p| self.size.name(p)).collect();
        self.send(&format!("set_free_handicap {}", vertices.join(" ")))
            .map(drop)
    }

    fn genmove(&mut self, color: Color) -> Result<Reply, PlayerError> {
        let command = format!("genmove {}", gtp_color(color));
        let answer = self
            .exchange(&command, self.move_timeout)?
            .map_err(|msg| PlayerError::Rejected(format!("{command}: {msg}")))?;
        let word = answer.trim();
        if word.eq_ignore_ascii_case("resign") {
            Ok(Reply::Resign)
        } else if word.eq_ignore_ascii_case("pass") {
            Ok(Reply::Move(Move::Pass))
        } else {
            self.size
                .parse_point(word)
                .map(|p| Reply::Move(Move::Play(p)))
                .map_err(|_| {
                    PlayerError::Protocol(format!(
                        "{command}: not a move on {}x{}: {word:?}",
                        self.size, self.size
                    ))
                })
        }
    }

    fn time_settings(&mut self, control: TimeControl) -> Result<(), PlayerError> {
        // GTP counts whole seconds.
        let secs = |d: Duration| d.as_secs_f64().round() as u64;
        self.byo_yomi_as_canadian = false;
        if self.known_command("kgs-time_settings")? {
            let command = match control {
                TimeControl::None => "kgs-time_settings none".to_string(),
                TimeControl::Absolute { main } => {
                    format!("kgs-time_settings absolute {}", secs(main))
                }
                TimeControl::ByoYomi {
                    main,
                    period,
                    periods,
                } => format!(
                    "kgs-time_settings byoyomi {} {} {periods}",
                    secs(main),
                    secs(period)
                ),
                TimeControl::Canadian {
                    main,
                    period,
                    stones,
                } => format!(
                    "kgs-time_settings canadian {} {} {stones}",
                    secs(main),
                    secs(period)
                ),
            };
            return self.send(&command).map(drop);
        }
        let (main, period, stones) = match control {
            TimeControl::None => (0, 1, 0),
            TimeControl::Absolute { main } => (secs(main), 0, 0),
            TimeControl::ByoYomi { main, period, .. } => {
                self.byo_yomi_as_canadian = true;
                (secs(main), secs(period), 1)
            }
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => (secs(main), secs(period), stones),
        };
        self.send(&format!("time_settings {main} {period} {stones}"))
            .map(drop)
    }

    fn time_left(&mut self, color: Color, left: Duration, count: u32) -> Result<(), PlayerError> {
        if !self.known_command("time_left")? {
            return Ok(());
        }
        let count = if self.byo_yomi_as_canadian {
            count.min(1)
        } else {
            count
        };
        // Whole seconds, rounded down: the engine never believes it has more than it has.
        let command = format!("time_left {} {} {count}", gtp_color(color), left.as_secs());
        self.send(&command).map(drop)
    }

    fn final_score(&mut self) -> Result<Option<String>, PlayerError> {
        if !self.known_command("final_score")? {
            return Ok(None);
        }
        let timeout = self.move_timeout.max(FINAL_SCORE_TIMEOUT);
        match self.exchange("final_score", timeout)? {
            Ok(score) => Ok(Some(score)),
            Err(msg) => {
                log::debug!("{}: final_score: {msg}", self.name);
                Ok(None)
            }
        }
    }
}
