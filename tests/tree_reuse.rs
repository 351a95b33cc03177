//! A search tree is reused only for the position it was built for (issue 58): the engine
//! binary driven as a GUI drives it, each command waiting for its answer. Live analysis
//! of one position, then a command that changes the board, the side to move or the rules
//! without a move, then analysis or `genmove` again: the second search starts from a
//! fresh tree (`yeoul-stats`' `reused_visits` is 0) and its principal variation is legal
//! on the new board. Where the position is the one the tree was built for, or one its
//! moves lead to, the tree is reused.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// An engine process and its pipes.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_yeoul"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends `command` and reads its whole answer (up to its empty line).
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").unwrap();
        self.answer()
    }

    /// Sends `command`, which must succeed; its answer's text after `= `.
    fn ok(&mut self, command: &str) -> String {
        let answer = self.ask(command);
        assert!(answer.starts_with('='), "{command}: {answer:?}");
        answer[1..].trim().to_string()
    }

    fn answer(&mut self) -> String {
        let mut out = String::new();
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("readable");
            assert!(read > 0, "the engine ended; its answer so far: {out:?}");
            if line == "\n" {
                return out;
            }
            out += &line;
        }
    }

    /// One step of live analysis for `color`, stopped by the next command after `wait`:
    /// `kata-analyze` with an interval far longer than the wait, so that the command
    /// stops its first step and the stream ends after it.
    fn analyse(&mut self, color: &str, wait: Duration) {
        writeln!(self.stdin, "kata-analyze {color} 1000").unwrap();
        let mut header = String::new();
        self.stdout.read_line(&mut header).unwrap();
        assert_eq!(header, "= \n", "kata-analyze {color}");
        std::thread::sleep(wait);
        writeln!(self.stdin, "name").unwrap();
        let stream = self.answer();
        assert!(stream.lines().all(|l| l.starts_with("info ")), "{stream:?}");
        assert_eq!(self.answer(), "= yeoul\n");
    }

    /// A number of the last search's `yeoul-stats`.
    fn stat(&mut self, key: &str) -> u64 {
        let stats = self.ok("yeoul-stats");
        let at = stats.find(&format!("\"{key}\":")).expect(key) + key.len() + 3;
        stats[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect::<String>()
            .parse()
            .unwrap_or_else(|_| panic!("{key} in {stats}"))
    }

    /// The last search's principal variation.
    fn pv(&mut self) -> Vec<String> {
        let stats = self.ok("yeoul-stats");
        let at = stats.find("\"pv\":[").expect("a pv") + 6;
        let end = at + stats[at..].find(']').unwrap();
        stats[at..end]
            .split(',')
            .filter(|m| !m.is_empty())
            .map(|m| m.trim_matches('"').to_string())
            .collect()
    }

    /// Plays the last search's principal variation from `color` on, each move legal
    /// (`play` says so), then takes it back; the number of moves.
    fn pv_is_legal(&mut self, color: &str, what: &str) -> usize {
        let pv = self.pv();
        let mut mover = color;
        for mv in &pv {
            let answer = self.ask(&format!("play {mover} {mv}"));
            assert!(
                answer.starts_with('='),
                "{what}: {mover} {mv} of the pv {pv:?}: {answer:?}\n{}",
                self.ok("showboard")
            );
            mover = if mover == "b" { "w" } else { "b" };
        }
        for _ in &pv {
            self.ok("undo");
        }
        pv.len()
    }

    /// What `showboard` shows at `vertex`: `X`, `O` or `.`.
    fn stone_at(&mut self, vertex: &str) -> char {
        let board = self.ok("showboard");
        let column = "ABCDEFGHJKLMNOPQRST"
            .find(vertex.chars().next().unwrap().to_ascii_uppercase())
            .unwrap();
        let row = &vertex[1..];
        let line = board
            .lines()
            .find(|l| l.split_whitespace().next() == Some(row))
            .unwrap_or_else(|| panic!("row {row} in {board}"));
        line.split_whitespace()
            .nth(1 + column)
            .unwrap()
            .chars()
            .next()
            .unwrap()
    }

    fn quit(mut self) {
        self.ok("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

const SEARCH: Duration = Duration::from_millis(300);

#[test]
fn genmove_after_analysis_and_handicap_stones_plays_a_legal_move() {
    // The five lines of the report, with the engine as a new user starts it.
    let mut engine = Engine::start(&[]);
    engine.ok("komi 7.5");
    engine.analyse("", Duration::from_millis(200));
    engine.ok("set_free_handicap R19 D3");
    let mv = engine.ok("genmove B");
    assert!(mv.len() >= 2 && mv != "pass" && mv != "resign", "{mv}");
    for (vertex, stone) in [("R19", 'X'), ("D3", 'X'), (mv.as_str(), 'X')] {
        assert_eq!(engine.stone_at(vertex), stone, "{vertex}");
    }
    assert_ne!(mv, "R19");
    assert_ne!(mv, "D3");
    engine.quit();
}

/// An engine on 9x9 with a quick, fixed budget for `genmove`, where every root move is
/// read (`max`, without the network whose priors arrive from a thread of their own).
fn quick_engine() -> Engine {
    let mut engine = Engine::start(&[
        "--level",
        "max",
        "--no-net",
        "--threads",
        "1",
        "--playouts",
        "400",
    ]);
    engine.ok("boardsize 9");
    // Set, so that handicap stones leave it as it is (a default komi changes with them).
    engine.ok("komi 7.5");
    engine
}

/// The commands that change the board, the side to move or the rules without a move,
/// each with what comes before it: the position analysed first is Black's to move.
const CHANGES: &[(&str, &[&str], &str)] = &[
    ("set_free_handicap", &[], "set_free_handicap C3 G7"),
    ("fixed_handicap", &[], "fixed_handicap 2"),
    ("place_free_handicap", &[], "place_free_handicap 3"),
    ("gogui-setup", &[], "gogui-setup b C3 b G7 w E5"),
    ("gogui-setup_player", &[], "gogui-setup_player w"),
    ("loadsgf", &[], "loadsgf SETUP 1"),
    ("undo", &["play b E5", "play w C3"], "undo"),
    ("gg-undo", &["play b E5", "play w C3"], "gg-undo 2"),
    ("clear_board", &["play b E5", "play w C3"], "clear_board"),
    ("boardsize", &["play b E5", "play w C3"], "boardsize 7"),
    ("komi", &[], "komi 0.5"),
    ("kgs-rules", &[], "kgs-rules japanese"),
    ("yeoul-rules", &[], "yeoul-rules tromp-taylor"),
];

#[test]
fn analysis_after_each_command_that_changes_the_board_starts_a_fresh_tree() {
    let dir = std::env::temp_dir().join(format!("yeoul-tree-reuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sgf = dir.join("setup.sgf");
    // Set-up stones, Black to move: the tree of the empty board fits none of it.
    std::fs::write(&sgf, "(;SZ[9]KM[7.5]AB[cc][gg]AW[ee]PL[B];B[cg])").unwrap();
    for &(name, before, change) in CHANGES {
        let mut engine = quick_engine();
        for command in before {
            engine.ok(command);
        }
        engine.analyse("b", SEARCH);
        assert!(
            engine.stat("visits") > 0,
            "{name}: the first analysis searched"
        );
        engine.ok(&change.replace("SETUP", &sgf.display().to_string()));
        engine.analyse("b", SEARCH);
        assert_eq!(engine.stat("reused_visits"), 0, "{name}: a fresh tree");
        assert!(
            engine.stat("visits") > 0,
            "{name}: the second analysis searched"
        );
        assert!(engine.pv_is_legal("b", name) > 0, "{name}: a pv");
        engine.quit();
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_same_position_or_a_move_the_tree_expected_reuses_the_tree() {
    // The test of the commands above could pass with no reuse at all: here it must be.
    let mut engine = quick_engine();
    engine.analyse("b", SEARCH);
    let first = engine.stat("visits");
    // A command that changes nothing, and `time_settings`, which the tree does not
    // depend on: the same position, the same tree.
    engine.ok("time_settings 600 30 5");
    engine.analyse("b", SEARCH);
    assert!(
        engine.stat("reused_visits") >= first,
        "the tree of the same position goes on"
    );
    engine.pv_is_legal("b", "the same position");

    // genmove, then the reply the tree expected, then genmove: the subtree.
    let mv = engine.ok("genmove b");
    let pv = engine.pv();
    assert_eq!(pv.first(), Some(&mv));
    let reply = pv.get(1).expect("a reply in the pv").clone();
    engine.ok(&format!("play w {reply}"));
    engine.ok("genmove b");
    assert!(
        engine.stat("reused_visits") > 0,
        "genmove after the expected reply {reply} reuses its subtree"
    );
    engine.quit();
}
