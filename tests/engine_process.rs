//! The engine binary as a process: quitting promptly, a 10,000-character line, bad
//! command-line options, and pondering between commands.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_yeoul"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts")
}

/// Reads one response (up to its empty line).
fn response(reader: &mut impl BufRead) -> String {
    let mut out = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).expect("readable") == 0 || line == "\n" {
            return out;
        }
        out += &line;
    }
}

#[test]
fn quit_exits_within_a_second_and_a_huge_line_is_an_error() {
    let mut child = spawn(&["--level", "easy", "--threads", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{}", "x".repeat(10_000)).unwrap();
    assert_eq!(response(&mut stdout), "? unknown command\n");
    writeln!(stdin, "1 play b {}", "D".repeat(10_000)).unwrap();
    assert_eq!(response(&mut stdout), "?1 syntax error\n");
    let asked = Instant::now();
    writeln!(stdin, "quit").unwrap();
    assert_eq!(response(&mut stdout), "= \n");
    while child.try_wait().unwrap().is_none() {
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "still running a second after quit"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_bad_option_prints_usage_on_stderr_and_fails() {
    for args in [
        &["--level", "impossible"][..],
        &["--frobnicate"],
        &["--threads", "0"],
        &["--rules", "ing"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_yeoul"))
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: stdout belongs to GTP");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn pondering_grows_the_tree_while_the_opponent_thinks() {
    let mut child = spawn(&["--level", "normal", "--threads", "1", "--ponder"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "boardsize 9\ngenmove b").unwrap();
    assert_eq!(response(&mut stdout), "= \n");
    let mv = response(&mut stdout);
    let reply = if mv.trim() == "= E5" { "D4" } else { "E5" };
    // The opponent "thinks" for a second: the engine ponders its replies.
    std::thread::sleep(Duration::from_secs(1));
    writeln!(stdin, "play w {reply}\ngenmove b\nyeoul-stats\nquit").unwrap();
    assert_eq!(response(&mut stdout), "= \n");
    assert!(response(&mut stdout).starts_with("= "));
    let stats = response(&mut stdout);
    let number = |key: &str| -> u64 {
        let at = stats.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
        stats[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect::<String>()
            .parse()
            .unwrap()
    };
    assert!(
        number("visits") > number("playouts"),
        "the pondered tree was reused: {stats}"
    );
    child.wait().unwrap();
}
