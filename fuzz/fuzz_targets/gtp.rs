//! GTP: the input is a session, one command a line, played through the engine's GTP loop
//! with a tiny fixed playout budget. After every command the target reads the game back
//! (`showboard`, `printsgf`) and checks what a GUI relies on: exactly one well-framed
//! answer per command (`=` or `?`, the id echoed, one empty line after), and a command
//! answered with `?` leaves the game as it was.
//!
//! Left out, because they reach outside the engine: `printsgf FILE` (writes a file), and
//! `yeoul-benchmark` (a budget of up to a minute by design). `loadsgf` stays: the target
//! runs in a folder of its own holding two real games, `a.sgf` and `b.sgf`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::Cursor;
use std::sync::Once;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::rules::{BoardSize, Ruleset};

/// Ids of the read-back commands, far above anything the checks below let through.
const READ_BACK: u64 = 1 << 62;
/// Commands a session: enough for games with captures and ko, few enough to stay fast.
const MAX_COMMANDS: usize = 48;

/// What GTP says a line is (the spec's hygiene, written here again rather than taken from
/// the engine, so that the two are checked against each other): `None` when it gets no
/// answer, else the id it must echo.
fn expected(line: &str) -> Option<Option<u64>> {
    let cleaned: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let text = cleaned.split('#').next().unwrap_or("");
    let first = text.split_whitespace().next()?;
    let id = (first.bytes().all(|b| b.is_ascii_digit()))
        .then(|| first.parse::<u64>().ok())
        .flatten();
    Some(id)
}

fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let dir = std::env::temp_dir().join(format!("yeoul-fuzz-gtp-{}", std::process::id()));
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
        std::env::set_current_dir(&dir).expect("into the scratch folder");
    });
}

fn skipped(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let mut name = words.next().unwrap_or("");
    if name.bytes().all(|b| b.is_ascii_digit()) {
        name = words.next().unwrap_or("");
    }
    let name = name.to_ascii_lowercase();
    name.contains("benchmark") || (name.contains("printsgf") && words.next().is_some())
}

fn framed(answer: &str, id: Option<u64>) -> Option<&str> {
    let rest = answer.strip_prefix(['=', '?'])?;
    let rest = match id {
        Some(id) => rest.strip_prefix(id.to_string().as_str())?,
        None => rest,
    };
    // After the id: a space and the body, or a newline (a body that starts on its own
    // line), or nothing.
    if rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\n') {
        Some(rest)
    } else {
        None
    }
}

fuzz_target!(|data: &[u8]| {
    setup();
    let mut input = b"1 showboard\n2 printsgf\n".to_vec();
    let mut sent: Vec<(String, Option<u64>)> = Vec::new();
    let mut quit = false;
    for raw in data.split(|&b| b == b'\n').take(MAX_COMMANDS) {
        let line = String::from_utf8_lossy(raw).into_owned();
        if skipped(&line) {
            continue;
        }
        input.extend_from_slice(raw);
        input.push(b'\n');
        let Some(id) = expected(&line) else {
            continue;
        };
        if id.is_some_and(|i| i >= READ_BACK) {
            // An id in the read-back range: still one answer, but no read-back after it.
            sent.push((line, id));
            continue;
        }
        sent.push((line.clone(), id));
        if line.to_ascii_lowercase().contains("quit") {
            quit = true;
            break;
        }
        let k = READ_BACK + 2 * sent.len() as u64;
        input.extend_from_slice(format!("{k} showboard\n{} printsgf\n", k + 1).as_bytes());
    }
    let config = EngineConfig {
        level: Level::Easy,
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
