//! `--max-memory` holds for the whole process: a limit too small to search is refused at
//! start, and a search that fills its tree, then reuses part of it, stays under the
//! limit (the kernel's peak resident size, from Linux's /proc).
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const MIB: f64 = 1024.0 * 1024.0;

/// A `VmRSS:` or `VmHWM:` (peak) figure of a process, in MiB.
fn status_mib(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc");
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .expect("the field");
    let kib: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024.0 / MIB
}

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
fn a_limit_too_small_to_search_is_an_error_at_start() {
    let out = Command::new(env!("CARGO_BIN_EXE_yeoul"))
        .args(["--max-memory", "30"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "stdout belongs to GTP");
    assert!(
        stderr.contains("--max-memory 30 MiB is too small"),
        "{stderr}"
    );
}

#[test]
fn a_search_that_fills_its_tree_keeps_the_process_under_the_limit() {
    let start = |limit: Option<f64>| {
        let mut args = vec!["--threads", "2", "--level", "hard", "--time", "5"];
        let limit = limit.map(|l| format!("{}", l.ceil()));
        if let Some(l) = &limit {
            args.extend(["--max-memory", l.as_str()]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_yeoul"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        (child, stdin, stdout)
    };
    // What the engine holds before it searches (code and the model's tables).
    let (mut child, mut stdin, mut stdout) = start(None);
    writeln!(stdin, "name").unwrap();
    response(&mut stdout);
    let before = status_mib(child.id(), "VmRSS:");
    drop(stdin);
    child.wait().unwrap();

    // Room for the referee's searches, GTP and the threads (about 26 MiB), and for a
    // tree of one or two 2.5 MiB chunks, held twice while tree reuse copies it.
    let limit = before + 36.0;
    let (mut child, mut stdin, mut stdout) = start(Some(limit));
    let stats = |stdin: &mut std::process::ChildStdin, stdout: &mut BufReader<_>| {
        writeln!(stdin, "yeoul-stats").unwrap();
        response(stdout)
    };
    writeln!(stdin, "boardsize 19\nclear_board\ngenmove b").unwrap();
    for _ in 0..2 {
        assert_eq!(response(&mut stdout), "= \n");
    }
    let first = response(&mut stdout);
    assert!(first.starts_with("= ") && first.len() > 3, "{first}");
    let first_stats = stats(&mut stdin, &mut stdout);
    assert!(
        first_stats.contains("\"tree_full\":true"),
        "the tree must fill for the test to mean anything: {first_stats}"
    );
    // The reply the tree knows best, then another move: tree reuse copies a subtree.
    writeln!(stdin, "play w Q16\ngenmove b").unwrap();
    assert_eq!(response(&mut stdout), "= \n");
    assert!(response(&mut stdout).starts_with("= "));
    let second_stats = stats(&mut stdin, &mut stdout);
    let peak = status_mib(child.id(), "VmHWM:");
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    assert!(
        peak <= limit.ceil(),
        "peak {peak:.1} MiB over --max-memory {:.0} (held {before:.1} MiB before searching; \
         {first_stats} {second_stats})",
        limit.ceil()
    );
}
