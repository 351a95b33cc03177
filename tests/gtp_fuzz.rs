//! Seeded random GTP: thousands of commands (known commands with random arguments, real
//! moves, mangled commands, garbage bytes, huge lines) through the GTP loop in-process.
//! Every command gets exactly one well-framed answer with its id, every JSON answer
//! parses, and every command answered with `?` leaves the game as it was (`showboard`
//! and `printsgf` before and after).
//!
//! A longer run: `YEOUL_FUZZ_COMMANDS=200000 YEOUL_FUZZ_SEED=7 cargo test --release --test gtp_fuzz`.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::io::Cursor;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::rules::{BoardSize, Ruleset};

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Commands whose arguments are drawn at random. `quit` is left out (it would end the
/// run), `printsgf` takes no file (it would write one), `yeoul-benchmark` and the
/// streaming commands get small budgets of their own below.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "is_legal",
    "showboard",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "final_score",
    "final_status_list",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "kgs-rules",
    "kgs-game_over",
    "cputime",
    "loadsgf",
    "yeoul-difficulty",
    "yeoul-rules",
    "yeoul-seed",
    "yeoul-stats",
    "yeoul-ownership",
    "yeoul-policy",
    "yeoul-gfx_policy",
    "yeoul-gfx_best",
    "yeoul-gfx_pv",
    "yeoul-gfx_final_status",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "gg-undo",
    "gogui-play_sequence",
    "gogui-setup",
    "gogui-setup_player",
    "frobnicate",
    "PLAY",
];

/// Arguments, right and wrong.
const WORDS: &[&str] = &[
    "b",
    "w",
    "black",
    "WHITE",
    "x",
    "pass",
    "PASS",
    "resign",
    "A1",
    "a1",
    "D4",
    "e5",
    "T19",
    "t19",
    "J9",
    "I5",
    "Z9",
    "A0",
    "A20",
    "A",
    "4",
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "9",
    "13",
    "19",
    "20",
    "25",
    "-1",
    "-7.5",
    "0.5",
    "6.5",
    "7.5",
    "1e9",
    "1e400",
    "nan",
    "inf",
    "-0",
    "18446744073709551616",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "chinese",
    "japanese",
    "aga",
    "nz",
    "tromp-taylor",
    "korean",
    "easy",
    "normal",
    "hard",
    "alive",
    "dead",
    "seki",
    "black_territory",
    "white_territory",
    "dame",
    "/nonexistent.sgf",
    "/etc/passwd",
    "\u{e9}",
    "\u{fffd}",
];

/// A vertex on a board of up to 19 lines (sometimes off the board).
fn vertex(rng: &mut Pcg64) -> String {
    let letters = "ABCDEFGHJKLMNOPQRST";
    let column = letters.as_bytes()[rng.random_range(0..letters.len())] as char;
    format!("{column}{}", rng.random_range(1..=19))
}

fn random_args(rng: &mut Pcg64) -> Vec<String> {
    (0..rng.random_range(0..=4))
        .map(|_| match rng.random_range(0..3) {
            0 => vertex(rng),
            _ => WORDS.choose(rng).unwrap().to_string(),
        })
        .collect()
}

/// Changes, inserts or deletes a few characters.
fn mangle(rng: &mut Pcg64, line: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..rng.random_range(1..=3) {
        let at = rng.random_range(0..=chars.len());
        let c = [
            'x', ' ', '\t', '\r', '\u{0}', '\u{7}', '\u{1b}', '9', '-', '\u{e9}',
        ]
        .choose(rng)
        .copied()
        .unwrap();
        match rng.random_range(0..3) {
            0 if at < chars.len() => chars[at] = c,
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}

/// The text of one command, without its id; never empty, never a comment. `size` is the
/// board size the generator last asked for (a random `boardsize` may change the real one:
/// it only steers where the random moves go).
fn command(rng: &mut Pcg64, size: &mut usize) -> Vec<u8> {
    let text = match rng.random_range(0..100) {
        // Real moves, so that games grow and captures, ko and undo get exercised.
        0..=34 => {
            let color = ["b", "w"].choose(rng).unwrap();
            let letters = "ABCDEFGHJKLMNOPQRST";
            let column = letters.as_bytes()[rng.random_range(0..*size)] as char;
            format!("play {color} {column}{}", rng.random_range(1..=*size))
        }
        35..=39 => format!("genmove {}", ["b", "w"].choose(rng).unwrap()),
        40..=43 => {
            // Mostly small boards: the referee's commands stay quick.
            *size = *[2, 3, 5, 7, 9, 9, 9, 13, 19].choose(rng).unwrap();
            format!("boardsize {size}")
        }
        44..=46 => "undo".to_string(),
        47..=74 => {
            let name = COMMANDS.choose(rng).unwrap();
            format!("{name} {}", random_args(rng).join(" "))
        }
        75..=77 => {
            let name = ["kata-analyze", "lz-analyze", "analyze"]
                .choose(rng)
                .unwrap();
            format!("{name} {}", random_args(rng).join(" "))
        }
        78 => format!("yeoul-benchmark {} 61 1", [2, 5, 9].choose(rng).unwrap()),
        79..=89 => {
            let base = format!("{} {}", COMMANDS.choose(rng).unwrap(), vertex(rng));
            mangle(rng, &base)
        }
        90..=97 => {
            let bytes: Vec<u8> = (0..rng.random_range(1..40))
                .map(|_| rng.random::<u8>())
                .filter(|&b| b != b'\n')
                .collect();
            // A leading letter: the line is never blank or a comment, so it is answered.
            return [b"z".as_slice(), &bytes].concat();
        }
        _ => {
            let word = WORDS.choose(rng).unwrap();
            format!("play b {}", word.repeat(rng.random_range(1_000..20_000)))
        }
    };
    text.into_bytes()
}

/// An answer without its marker and id, to compare states read at different ids.
fn body(answer: &str) -> &str {
    answer
        .trim_start_matches(['=', '?'])
        .trim_start_matches(|c: char| c.is_ascii_digit())
}

fn run_session(input: Vec<u8>) -> String {
    let config = EngineConfig {
        level: Level::EASY,
        threads: 1,
        playouts: Some(60),
        ..EngineConfig::default()
    };
    let engine = Engine::new(BoardSize::new(9).unwrap(), Ruleset::Chinese, config);
    let mut out = Vec::new();
    yeoul::gtp::run(engine, Cursor::new(input), &mut out);
    String::from_utf8(out).expect("GTP output is UTF-8")
}

#[test]
fn random_commands_get_one_framed_answer_and_failures_change_nothing() {
    let seed = env_number("YEOUL_FUZZ_SEED", 1);
    let commands = env_number("YEOUL_FUZZ_COMMANDS", 3_000) as usize;
    let mut rng = Pcg64::seed_from_u64(seed);
    // The state is read back by `showboard` and `printsgf` after every command; the first
    // three ids read it before the first.
    let mut input = b"1 showboard\n2 printsgf\n".to_vec();
    let mut sent = Vec::new();
    let mut size = 9;
    for k in 0..commands {
        let id = 3 * k as u64 + 3;
        let text = command(&mut rng, &mut size);
        input.extend_from_slice(format!("{id} ").as_bytes());
        input.extend_from_slice(&text);
        input
            .extend_from_slice(format!("\n{} showboard\n{} printsgf\n", id + 1, id + 2).as_bytes());
        sent.push(String::from_utf8_lossy(&text).into_owned());
    }
    let out = run_session(input);
    assert!(out.ends_with("\n\n"), "the last answer is framed");
    let answers: Vec<&str> = out[..out.len() - 2].split("\n\n").collect();
    assert_eq!(answers.len(), 3 * commands + 2, "one answer per command");
    let framed = regex_lite::Regex::new(r"^([=?])(\d+)( |\n|$)").unwrap();
    let mut before = (body(answers[0]), body(answers[1]));
    let mut failures = 0;
    for (k, text) in sent.iter().enumerate() {
        let at = 3 * k + 2;
        let mut ids = Vec::new();
        for answer in &answers[at..at + 3] {
            let caps = framed
                .captures(answer)
                .unwrap_or_else(|| panic!("badly framed answer to {text:?}: {answer:?}"));
            ids.push(caps[2].parse::<usize>().unwrap());
        }
        assert_eq!(
            ids,
            [3 * k + 3, 3 * k + 4, 3 * k + 5],
            "answer ids to {text:?}"
        );
        let (answer, board, sgf) = (answers[at], body(answers[at + 1]), body(answers[at + 2]));
        assert!(
            answers[at + 1].starts_with('='),
            "showboard after {text:?}: {board:?}"
        );
        assert!(
            answers[at + 2].starts_with('='),
            "printsgf after {text:?}: {sgf:?}"
        );
        if answer.starts_with('?') {
            failures += 1;
            assert_eq!(
                (board, sgf),
                before,
                "the failed command {text:?} ({answer:?}) changed the game"
            );
        } else if text.starts_with("yeoul-stats") || text.starts_with("yeoul-benchmark") {
            let json = answer.split_once(' ').map_or("", |(_, j)| j);
            serde_json::from_str::<serde_json::Value>(json)
                .unwrap_or_else(|e| panic!("{text:?} answered {answer:?}, not JSON: {e}"));
        }
        before = (board, sgf);
    }
    // The generator must reach both outcomes, or the test checks little.
    assert!(failures > commands / 10, "only {failures} failures");
    assert!(
        failures < commands * 9 / 10,
        "{failures} failures of {commands}"
    );
}

/// Input that arrives as a GUI sends it: each line after its own wait, so that live
/// analysis and pondering search until the next line comes.
struct Paced {
    lines: std::collections::VecDeque<(std::time::Duration, Vec<u8>)>,
    current: Vec<u8>,
    at: usize,
}

impl std::io::Read for Paced {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = std::io::BufRead::fill_buf(self)?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl std::io::BufRead for Paced {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at == self.current.len()
            && let Some((wait, line)) = self.lines.pop_front()
        {
            std::thread::sleep(wait);
            self.current = line;
            self.at = 0;
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// Two games `loadsgf` may load: one with set-up stones (AB, AW, PL) and one of moves.
fn scratch_games() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("yeoul-gtp-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("setup.sgf"),
        "(;SZ[9]AB[cc][gc][cg]AW[gg][ee]PL[B];B[ec];W[ce])",
    )
    .unwrap();
    std::fs::write(
        dir.join("moves.sgf"),
        "(;SZ[9]KM[6.5];B[ee];W[gc];B[cg];W[eg];B[dc];W[gg])",
    )
    .unwrap();
    dir
}

/// A scene of the timed sessions, as a GUI plays one: perhaps a new board, a few moves,
/// live analysis, then a command that changes the board or the rules without a move (or
/// a move), then a move or analysis asked for either colour, and perhaps a stray command.
fn timed_scene(rng: &mut Pcg64, size: &mut usize, games: &std::path::Path) -> Vec<String> {
    let mut scene = Vec::new();
    if rng.random_bool(0.5) {
        scene.push(match rng.random_range(0..5) {
            0..=2 => "clear_board".to_string(),
            3 => {
                *size = *[5, 7, 9, 9, 13].choose(rng).unwrap();
                format!("boardsize {size}")
            }
            _ => loadsgf(rng, games),
        });
    }
    // GUIs send the komi with every new game (handicap changes only a default komi).
    if rng.random_bool(0.5) {
        scene.push(format!(
            "komi {}",
            ["0.5", "6.5", "7.5"].choose(rng).unwrap()
        ));
    }
    for _ in 0..rng.random_range(0..=3) {
        scene.push(format!("play {} {}", colour(rng), vertex_on(rng, *size)));
    }
    if rng.random_bool(0.8) {
        scene.push(analysis(rng));
    }
    scene.push(board_change(rng, size, games));
    scene.push(match rng.random_range(0..10) {
        0..=3 => format!("genmove {}", colour(rng)),
        4..=6 => analysis(rng),
        7 => format!(
            "{} {} 5",
            ["kata-genmove_analyze", "lz-genmove_analyze"]
                .choose(rng)
                .unwrap(),
            colour(rng)
        ),
        _ => ["yeoul-gfx_best", "yeoul-gfx_pv", "yeoul-ownership"]
            .choose(rng)
            .unwrap()
            .to_string(),
    });
    if rng.random_bool(0.3) {
        let stray = ["yeoul-stats", "showboard", "yeoul-policy 3", "undo", "name"];
        scene.push(stray.choose(rng).unwrap().to_string());
    }
    scene
}

fn colour(rng: &mut Pcg64) -> &'static str {
    ["b", "w"].choose(rng).unwrap()
}

fn vertex_on(rng: &mut Pcg64, size: usize) -> String {
    let letters = "ABCDEFGHJKLMNOPQRST";
    let column = letters.as_bytes()[rng.random_range(0..size)] as char;
    format!("{column}{}", rng.random_range(1..=size))
}

/// Live analysis for the side to move or a colour named, at 50 to 300 ms a line.
fn analysis(rng: &mut Pcg64) -> String {
    let name = ["kata-analyze", "lz-analyze", "analyze"]
        .choose(rng)
        .unwrap();
    let who = if rng.random_bool(0.5) {
        colour(rng)
    } else {
        ""
    };
    let own = if rng.random_bool(0.3) {
        " ownership true"
    } else {
        ""
    };
    format!("{name} {who} {}{own}", rng.random_range(5..=30))
}

fn loadsgf(rng: &mut Pcg64, games: &std::path::Path) -> String {
    let file = ["setup.sgf", "moves.sgf"].choose(rng).unwrap();
    let until = [String::new(), format!(" {}", rng.random_range(1..=4))];
    let until = until.choose(rng).unwrap();
    format!("loadsgf {}{until}", games.join(file).display())
}

/// A command that changes the board, the side to move or the rules without a move (or,
/// now and then, a move).
fn board_change(rng: &mut Pcg64, size: &mut usize, games: &std::path::Path) -> String {
    let n = *size;
    match rng.random_range(0..16) {
        0 | 1 => {
            let points: Vec<String> = (0..rng.random_range(2..=5))
                .map(|_| vertex_on(rng, n))
                .collect();
            format!("set_free_handicap {}", points.join(" "))
        }
        2 => format!("fixed_handicap {}", rng.random_range(2..=9)),
        3 => format!("place_free_handicap {}", rng.random_range(2..=9)),
        4 => {
            let stones: Vec<String> = (0..rng.random_range(1..=4))
                .map(|_| format!("{} {}", colour(rng), vertex_on(rng, n)))
                .collect();
            format!("gogui-setup {}", stones.join(" "))
        }
        5 => format!("gogui-setup_player {}", colour(rng)),
        6 => loadsgf(rng, games),
        7 => "undo".to_string(),
        8 => format!("gg-undo {}", rng.random_range(1..=3)),
        9 => "clear_board".to_string(),
        10 => {
            *size = *[5, 7, 9, 9, 13].choose(rng).unwrap();
            format!("boardsize {size}")
        }
        11 => format!("komi {}", ["0.5", "6.5", "7.5", "-3"].choose(rng).unwrap()),
        12 => {
            let name = ["kgs-rules", "yeoul-rules"].choose(rng).unwrap();
            let rules = ["chinese", "japanese", "aga", "new_zealand", "tromp-taylor"];
            format!("{name} {}", rules.choose(rng).unwrap())
        }
        13 => format!("time_settings {} 5 1", rng.random_range(0..=60)),
        _ => format!("play {} {}", colour(rng), vertex_on(rng, n)),
    }
}

/// Sessions of commands sent with short waits between them, as a GUI sends them: live
/// analysis and pondering then search the position while set-up commands, moves and
/// `genmove` for either colour follow. Every command gets one framed answer, a failed one
/// changes nothing, and the session ends only at the end of its input (no panic).
///
/// A longer run: `YEOUL_FUZZ_TIMED_SESSIONS=400 YEOUL_FUZZ_SEED=7 cargo test --release --test gtp_fuzz timed`.
#[test]
fn timed_sessions_of_analysis_setup_and_genmove_get_one_answer_each() {
    let seed = env_number("YEOUL_FUZZ_SEED", 1);
    let sessions = env_number("YEOUL_FUZZ_TIMED_SESSIONS", TIMED_SESSIONS);
    let games = scratch_games();
    let started = std::time::Instant::now();
    for session in 0..sessions {
        let mut rng = Pcg64::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(session));
        let mut size = 9;
        let mut lines = std::collections::VecDeque::new();
        let wait = |ms: u64| std::time::Duration::from_millis(ms);
        lines.push_back((wait(0), b"1 showboard\n2 printsgf\n".to_vec()));
        let mut sent = Vec::new();
        let mut commands = Vec::new();
        while commands.len() < TIMED_COMMANDS {
            commands.extend(timed_scene(&mut rng, &mut size, &games));
        }
        for (k, text) in commands.into_iter().enumerate() {
            let id = 3 * k as u64 + 3;
            lines.push_back((wait(0), format!("{id} {text}\n").into_bytes()));
            // The wait the command (or its analysis) has before the read-back stops it.
            let pause = if rng.random_bool(0.3) {
                0
            } else {
                rng.random_range(1..=250)
            };
            lines.push_back((
                wait(pause),
                format!("{} showboard\n{} printsgf\n", id + 1, id + 2).into_bytes(),
            ));
            sent.push(text);
        }
        let config = EngineConfig {
            level: Level::EASY,
            threads: 1 + (session % 2) as usize,
            playouts: Some(60),
            seed: session,
            ponder: session % 3 == 0,
            arbiter_playouts: Some(40),
            ..EngineConfig::default()
        };
        let engine = Engine::new(BoardSize::new(9).unwrap(), Ruleset::Chinese, config);
        let input = Paced {
            lines,
            current: Vec::new(),
            at: 0,
        };
        let mut out = Vec::new();
        yeoul::gtp::run(engine, input, &mut out);
        let out = String::from_utf8(out).expect("GTP output is UTF-8");
        check_answers(&out, &sent, &format!("seed {seed} session {session}"));
    }
    eprintln!(
        "{sessions} timed sessions of {TIMED_COMMANDS} commands in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    std::fs::remove_dir_all(&games).ok();
}

/// Timed sessions a test run plays, and commands a session (see BENCHMARKS.md "Fuzzing": how long the bug of a tree kept for another position took
/// to find).
const TIMED_SESSIONS: u64 = 40;
const TIMED_COMMANDS: usize = 24;

/// Checks the answers of a session whose commands `sent` were each followed by a
/// `showboard` and a `printsgf`, ids 3k+3, 3k+4, 3k+5 (the first two ids read the state
/// before the first command): one framed answer each, none an internal error, and a
/// failure changes nothing.
fn check_answers(out: &str, sent: &[String], what: &str) {
    assert!(out.ends_with("\n\n"), "{what}: the last answer is framed");
    let answers: Vec<&str> = out[..out.len() - 2].split("\n\n").collect();
    assert_eq!(
        answers.len(),
        3 * sent.len() + 2,
        "{what}: one answer per command"
    );
    let framed = regex_lite::Regex::new(r"^([=?])(\d+)( |\n|$)").unwrap();
    let mut before = (body(answers[0]), body(answers[1]));
    for (k, text) in sent.iter().enumerate() {
        let at = 3 * k + 2;
        for (j, answer) in answers[at..at + 3].iter().enumerate() {
            let caps = framed
                .captures(answer)
                .unwrap_or_else(|| panic!("{what}: badly framed answer to {text:?}: {answer:?}"));
            assert_eq!(
                caps[2].parse::<usize>().unwrap(),
                3 * k + 3 + j,
                "{what}: {text:?}"
            );
        }
        let (answer, board, sgf) = (answers[at], body(answers[at + 1]), body(answers[at + 2]));
        assert!(answers[at + 1].starts_with('=') && answers[at + 2].starts_with('='));
        // The guard against a tree kept for another position answers so: it must never
        // have to.
        assert!(
            !answer.contains("internal error"),
            "{what}: {text:?} answered {answer:?}"
        );
        if answer.starts_with('?') {
            assert_eq!(
                (board, sgf),
                before,
                "{what}: the failed command {text:?} ({answer:?}) changed the game"
            );
        }
        before = (board, sgf);
    }
}
