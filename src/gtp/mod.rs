//! The GTP front end: a reader thread that drains stdin into a queue at all times, one
//! command table, and one writer for `=id result` / `?id message` responses.

mod analysis;
mod commands;
pub mod parse;

use crate::engine::Engine;
use parse::{Line, parse_line};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

/// A failed command, with GTP's texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    Unknown,
    Syntax,
    IllegalMove,
    UnacceptableSize,
    CannotUndo,
    BoardNotEmpty,
    InvalidNumberOfStones,
    BadVertexList,
    CannotScore,
    CannotLoad,
    Other(String),
}

impl std::fmt::Display for GtpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GtpError::Unknown => "unknown command",
            GtpError::Syntax => "syntax error",
            GtpError::IllegalMove => "illegal move",
            GtpError::UnacceptableSize => "unacceptable size",
            GtpError::CannotUndo => "cannot undo",
            GtpError::BoardNotEmpty => "board not empty",
            GtpError::InvalidNumberOfStones => "invalid number of stones",
            GtpError::BadVertexList => "bad vertex list",
            GtpError::CannotScore => "cannot score",
            GtpError::CannotLoad => "cannot load file",
            GtpError::Other(message) => message,
        })
    }
}

impl From<crate::engine::SearchError> for GtpError {
    fn from(e: crate::engine::SearchError) -> GtpError {
        GtpError::Other(e.to_string())
    }
}

/// Calls `f` with every line of `reader` (bytes that are not UTF-8 replaced, the line end
/// kept) until the input ends, fails, or `f` returns false. Engines and controllers alike
/// read GTP this way.
pub fn for_each_line<R: BufRead>(reader: &mut R, mut f: impl FnMut(String) -> bool) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !f(String::from_utf8_lossy(&buffer).into_owned()) {
                    return;
                }
            }
        }
    }
}

/// Input lines as the reader thread delivers them.
pub struct Input {
    lines: Receiver<String>,
    /// Set by the reader when `# interrupt` arrives while a command runs.
    interrupt: Arc<AtomicBool>,
    /// Set by the reader when any line arrives: stops analysis.
    any_line: Arc<AtomicBool>,
    /// Lines read while a command was running, to handle next.
    pending: std::collections::VecDeque<String>,
}

impl Input {
    /// Starts the reader thread over `reader`.
    pub fn spawn<R: BufRead + Send + 'static>(mut reader: R) -> Input {
        let (tx, rx): (Sender<String>, Receiver<String>) = channel();
        let interrupt = Arc::new(AtomicBool::new(false));
        let any_line = Arc::new(AtomicBool::new(false));
        let flag = interrupt.clone();
        let arrived = any_line.clone();
        std::thread::spawn(move || {
            for_each_line(&mut reader, |line| {
                if line.trim() == "# interrupt" {
                    flag.store(true, Ordering::Relaxed);
                }
                arrived.store(true, Ordering::Relaxed);
                tx.send(line).is_ok()
            })
        });
        Input {
            lines: rx,
            interrupt,
            any_line,
            pending: Default::default(),
        }
    }

    /// The next line, waiting as long as it takes (`None` at the end of input).
    fn next(&mut self) -> Option<String> {
        self.pending.pop_front().or_else(|| self.lines.recv().ok())
    }

    /// Whether a line arrived (kept for later), waiting at most `wait`.
    pub fn line_arrived(&mut self, wait: Duration) -> bool {
        if !self.pending.is_empty() {
            return true;
        }
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.pending.push_back(line);
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
            // End of input: treat as a line so that analysis stops.
            Err(RecvTimeoutError::Disconnected) => true,
        }
    }

    /// The interrupt flag a running search watches.
    pub fn interrupt_flag(&self) -> &AtomicBool {
        &self.interrupt
    }

    /// Clears the arrival flag, unless a line is already waiting.
    pub fn reset_arrival(&mut self) {
        self.any_line.store(false, Ordering::Relaxed);
        if self.line_arrived(Duration::ZERO) {
            self.any_line.store(true, Ordering::Relaxed);
        }
    }

    /// Set when a line arrives after [`Input::reset_arrival`]: stops analysis.
    pub fn arrival_flag(&self) -> &AtomicBool {
        &self.any_line
    }
}

/// What a command handler may touch.
pub struct Session<'a> {
    pub engine: Engine,
    pub input: &'a mut Input,
    pub out: &'a mut dyn Write,
    /// Set by `quit`, or when the controller stops reading.
    pub quit: bool,
}

/// Runs the GTP loop until `quit` or the end of input.
pub fn run<R: BufRead + Send + 'static, W: Write>(engine: Engine, reader: R, mut out: W) {
    let mut input = Input::spawn(reader);
    let mut session = Session {
        engine,
        input: &mut input,
        out: &mut out,
        quit: false,
    };
    while let Some(raw) = session.input.next() {
        let command = match parse_line(&raw) {
            Line::Blank | Line::Interrupt => continue,
            Line::Command(c) => c,
        };
        session.input.interrupt.store(false, Ordering::Relaxed);
        if let Some(response) = commands::dispatch(&mut session, &command) {
            let text = response_text(command.id, response);
            session.send(&text);
        }
        if session.quit {
            break;
        }
        if session.engine.config().ponder && command.name.contains("genmove") {
            ponder(&mut session);
        }
    }
}

/// Ponders (the engine thinks on the opponent's time) until any line arrives.
fn ponder(session: &mut Session) {
    session.input.reset_arrival();
    session.engine.ponder(session.input.arrival_flag());
}

impl Session<'_> {
    /// Writes `text` to the controller at once. A failed write means the controller is
    /// gone (a closed pipe): the session ends, as after `quit`.
    pub fn send(&mut self, text: &str) {
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
        if written.is_err() {
            log::warn!("the controller stopped reading: stopping");
            self.quit = true;
        }
    }
}

/// The one shape of a response: `=id result` or `?id message`, a space after the marker,
/// no empty line inside, one empty line after.
fn response_text(id: Option<u64>, response: Result<String, GtpError>) -> String {
    let (marker, body) = match response {
        Ok(text) => ('=', text),
        Err(e) => ('?', e.to_string()),
    };
    let id = id.map(|i| i.to_string()).unwrap_or_default();
    // No empty line inside a response (it would end it early); a leading newline stays.
    let body: String = body
        .split('\n')
        .enumerate()
        .filter(|(k, l)| *k == 0 || !l.trim().is_empty())
        .map(|(_, l)| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    format!("{marker}{id} {body}\n\n")
}
