//! GTP: the input is a session, one command a line, played through the engine's GTP loop
//! with a tiny fixed playout budget. After every command the target reads the game back
//! (`showboard`, `printsgf`) and checks what a GUI relies on: exactly one well-framed
//! answer per command (`=` or `?`, the id echoed, one empty line after), none an internal
//! error, and a command answered with `?` leaves the game as it was.
//!
//! A line `#wait N` is not sent: the next line arrives N ms later (at most 300, and 2 s
//! in all), as a GUI's lines do, so that live analysis (`kata-analyze`, `lz-analyze`,
//! `analyze`) and pondering search until it comes. An input with waits is timed: its
//! searches run free (not `--deterministic`), so that trees are kept between commands
//! and analysis, set-up commands and `genmove` for either colour meet as they do in a GUI.
//!
//! Lines are sent as GTP's hygiene leaves them. Left out, because they reach outside the
//! engine: `printsgf FILE` (writes a file), and `yeoul-benchmark` (a budget of up to a
//! minute by design). `loadsgf` stays, its file taken from a scratch folder that holds
//! two real games, `a.sgf` and `b.sgf`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::rules::{BoardSize, Ruleset};

/// Ids of the read-back commands, far above anything the checks below let through.
const READ_BACK: u64 = 1 << 62;
/// Commands a session: enough for games with captures and ko, few enough to stay fast.
const MAX_COMMANDS: usize = 48;
/// The longest wait a `#wait` line asks for, and all of an input's waits together.
const MAX_WAIT_MS: u64 = 300;
const MAX_WAITS_MS: u64 = 2_000;

/// The wait a `#wait N` line asks for, in ms.
fn wait_line(raw: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(raw).ok()?.trim();
    let ms = text.strip_prefix("#wait")?.trim().parse::<u64>().ok()?;
    Some(ms.min(MAX_WAIT_MS))
}

/// Input delivered as a GUI sends it: each chunk of lines after its own wait.
struct Paced {
    chunks: VecDeque<(Duration, Vec<u8>)>,
    current: Vec<u8>,
    at: usize,
}

impl Read for Paced {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Paced {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at == self.current.len()
            && let Some((wait, chunk)) = self.chunks.pop_front()
        {
            std::thread::sleep(wait);
            self.current = chunk;
            self.at = 0;
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// A line after GTP's hygiene (control characters but tab dropped, tabs to spaces,
/// the comment cut), written here again rather than taken from the engine, so that the
/// two are checked against each other.
fn cleaned(line: &str) -> String {
    let text: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    text.split('#').next().unwrap_or("").to_string()
}

/// A command line's id (digits only, as GTP's grammar has it) and words after it.
fn id_and_words(clean: &str) -> (Option<u64>, Vec<&str>) {
    let mut words: Vec<&str> = clean.split_whitespace().collect();
    let id = words
        .first()
        .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|w| w.parse::<u64>().ok());
    if id.is_some() {
        words.remove(0);
    }
    (id, words)
}

/// The scratch folder with the games `loadsgf` may load: `a.sgf` and `b.sgf`.
fn scratch() -> &'static std::path::Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join("yeoul-fuzz-gtp");
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        std::fs::write(
            dir.join("a.sgf"),
            "(;GM[1]FF[4]SZ[9]KM[7]RU[Japanese];B[ee];W[gc];B[cg];W[eg];B[dc];W[gg];B[ge];W[fh];B[cd])",
        )
        .expect("a.sgf");
        std::fs::write(
            dir.join("b.sgf"),
            "(;SZ[5]AB[aa][bb]AW[cc]PL[W];W[dd](;B[ee])(;B[ed]))",
        )
        .expect("b.sgf");
        dir
    })
}

/// What to send for a command line: the line as it came, a line rewritten, or nothing.
enum Send {
    AsItCame,
    Rewritten(String),
    Nothing,
}

/// `yeoul-benchmark` (up to a minute by design) and `printsgf FILE` (writes a file) reach
/// outside the engine: left out. `loadsgf` loads from the scratch folder only (a path
/// could name a device that never ends, which `loadsgf` would wait on as any reader does).
fn to_send(id: Option<u64>, words: &[&str]) -> Send {
    let name = words
        .first()
        .map_or(String::new(), |w| w.to_ascii_lowercase());
    if name == "yeoul-benchmark" || (name == "printsgf" && words.len() > 1) {
        return Send::Nothing;
    }
    if name != "loadsgf" || words.len() < 2 {
        return Send::AsItCame;
    }
    if words[1].contains('/') {
        return Send::Nothing;
    }
    let mut words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    words[1] = scratch().join(&words[1]).display().to_string();
    let id = id.map(|i| format!("{i} ")).unwrap_or_default();
    Send::Rewritten(format!("{id}{}", words.join(" ")))
}

/// The answer's body when it is `=` or `?`, then `id`, then a space, a newline (a body
/// that starts on its own line) or nothing.
fn framed(answer: &str, id: Option<u64>) -> Option<&str> {
    let rest = answer.strip_prefix(['=', '?'])?;
    let rest = match id {
        Some(id) => rest.strip_prefix(id.to_string().as_str())?,
        None => rest,
    };
    (rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\n')).then_some(rest)
}

fuzz_target!(|data: &[u8]| {
    // Chunks of input, each sent after its wait: a command, then (after the wait of the
    // `#wait` lines that follow it) its read-back.
    let mut chunks: VecDeque<(Duration, Vec<u8>)> = VecDeque::new();
    let mut input = b"1 showboard\n2 printsgf\n".to_vec();
    let (mut pause, mut waited) = (0u64, 0u64);
    let mut timed = false;
    let mut sent: Vec<(String, Option<u64>)> = Vec::new();
    let mut quit = false;
    // An empty chunk would read as the end of input: nothing is sent, the pause waits on.
    let mut send = |input: &mut Vec<u8>, pause: &mut u64| {
        if !input.is_empty() {
            chunks.push_back((Duration::from_millis(*pause), std::mem::take(input)));
            *pause = 0;
        }
    };
    for raw in data.split(|&b| b == b'\n').take(MAX_COMMANDS) {
        if let Some(ms) = wait_line(raw) {
            let ms = ms.min(MAX_WAITS_MS - waited);
            timed = true;
            waited += ms;
            pause += ms;
            continue;
        }
        let clean = cleaned(&String::from_utf8_lossy(raw));
        let (id, words) = id_and_words(&clean);
        if words.is_empty() && id.is_none() {
            // Blank, a comment or `# interrupt`: sent as it came, and not answered.
            input.extend_from_slice(raw);
            input.push(b'\n');
            continue;
        }
        let to_send = to_send(id, &words);
        if matches!(to_send, Send::Nothing) {
            continue;
        }
        send(&mut input, &mut pause);
        let line = match to_send {
            Send::Nothing => unreachable!("skipped above"),
            Send::AsItCame => {
                input.extend_from_slice(raw);
                String::from_utf8_lossy(raw).into_owned()
            }
            Send::Rewritten(line) => {
                input.extend_from_slice(line.as_bytes());
                line
            }
        };
        input.push(b'\n');
        sent.push((line, id));
        if words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("quit"))
        {
            quit = true;
            break;
        }
        if id.is_some_and(|i| i >= READ_BACK) {
            // An id in the read-back range: still one answer, but no read-back after it.
            continue;
        }
        // The command goes now; its read-back after the waits that follow it.
        send(&mut input, &mut pause);
        let k = READ_BACK + 2 * sent.len() as u64;
        input.extend_from_slice(format!("{k} showboard\n{} printsgf\n", k + 1).as_bytes());
    }
    send(&mut input, &mut pause);
    let config = EngineConfig {
        level: Level::EASY,
        threads: 1,
        playouts: Some(30),
        deterministic: !timed,
        max_memory_mb: 256,
        arbiter_playouts: Some(40),
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::new(9).expect("9x9"), Ruleset::Chinese, config);
    let mut out = Vec::new();
    let input = Paced {
        chunks,
        current: Vec::new(),
        at: 0,
    };
    yeoul::gtp::run(engine, input, &mut out);
    let out = String::from_utf8(out).expect("GTP output is UTF-8");

    assert!(out.ends_with("\n\n"), "the last answer is framed: {out:?}");
    let answers: Vec<&str> = out[..out.len() - 2].split("\n\n").collect();
    let mut answers = answers.into_iter();
    let mut read_back = |what: &str| -> String {
        let answer = answers
            .next()
            .unwrap_or_else(|| panic!("no answer to the read-back {what}"));
        assert!(answer.starts_with('='), "{what} failed: {answer:?}");
        answer
            .trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
            .to_string()
    };
    let mut state = (read_back("showboard"), read_back("printsgf"));
    let mut answers_left = answers;
    for (k, (line, id)) in sent.iter().enumerate() {
        let answer = answers_left
            .next()
            .unwrap_or_else(|| panic!("no answer to {line:?}"));
        framed(answer, *id)
            .unwrap_or_else(|| panic!("answer to {line:?} (id {id:?}) badly framed: {answer:?}"));
        // What the guard against a tree kept for another position answers: never due.
        assert!(
            !answer.contains("internal error"),
            "{line:?} answered {answer:?}"
        );
        let is_last = k + 1 == sent.len();
        if quit && is_last || id.is_some_and(|i| i >= READ_BACK) {
            continue;
        }
        let mut next = |what: &str| -> String {
            let a = answers_left
                .next()
                .unwrap_or_else(|| panic!("no answer to the read-back {what} after {line:?}"));
            assert!(a.starts_with('='), "{what} after {line:?} failed: {a:?}");
            a.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                .to_string()
        };
        let now = (next("showboard"), next("printsgf"));
        if answer.starts_with('?') {
            assert_eq!(
                now, state,
                "the failed command {line:?} ({answer:?}) changed the game"
            );
        }
        state = now;
    }
    assert!(answers_left.next().is_none(), "more answers than commands");
});
