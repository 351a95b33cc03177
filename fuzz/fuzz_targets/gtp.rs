//! GTP: the input is a session, one command a line, played through the engine's GTP loop
//! with a tiny fixed playout budget. After every command the target reads the game back
//! (`showboard`, `printsgf`) and checks what a GUI relies on: exactly one well-framed
//! answer per command (`=` or `?`, the id echoed, one empty line after), and a command
//! answered with `?` leaves the game as it was.
//!
//! Lines are sent as GTP's hygiene leaves them. Left out, because they reach outside the
//! engine: `printsgf FILE` (writes a file), and `yeoul-benchmark` (a budget of up to a
//! minute by design). `loadsgf` stays, its file taken from a scratch folder that holds
//! two real games, `a.sgf` and `b.sgf`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::Cursor;
use std::path::PathBuf;
use std::sync::OnceLock;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::rules::{BoardSize, Ruleset};

/// Ids of the read-back commands, far above anything the checks below let through.
const READ_BACK: u64 = 1 << 62;
/// Commands a session: enough for games with captures and ko, few enough to stay fast.
const MAX_COMMANDS: usize = 48;

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
    let mut input = b"1 showboard\n2 printsgf\n".to_vec();
    let mut sent: Vec<(String, Option<u64>)> = Vec::new();
    let mut quit = false;
    for raw in data.split(|&b| b == b'\n').take(MAX_COMMANDS) {
        let clean = cleaned(&String::from_utf8_lossy(raw));
        let (id, words) = id_and_words(&clean);
        if words.is_empty() && id.is_none() {
            // Blank, a comment or `# interrupt`: sent as it came, and not answered.
            input.extend_from_slice(raw);
            input.push(b'\n');
            continue;
        }
        let line = match to_send(id, &words) {
            Send::Nothing => continue,
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
        let k = READ_BACK + 2 * sent.len() as u64;
        input.extend_from_slice(format!("{k} showboard\n{} printsgf\n", k + 1).as_bytes());
    }
    let config = EngineConfig {
        level: Level::EASY,
        threads: 1,
        playouts: Some(30),
        deterministic: true,
        max_memory_mb: 256,
        arbiter_playouts: Some(40),
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::new(9).expect("9x9"), Ruleset::Chinese, config);
    let mut out = Vec::new();
    yeoul::gtp::run(engine, Cursor::new(input), &mut out);
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
