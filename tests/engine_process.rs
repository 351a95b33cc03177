//! The engine binary as a process: quitting promptly, a 10,000-character line, bad
//! command-line options, pondering between commands, and the ends of life (stdin closed
//! while it thinks, stdout closed, SIGTERM), and `--max-memory` for the whole process: a
//! limit too small to search is refused at start, and a search that fills its tree, then
//! reuses part of it, stays under the limit (the kernel's peak resident size, from Linux's
//! /proc).

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
        &["--lag", "nan"],
        &["--lag", "100"],
        &["--level", "max", "--deterministic"],
        &["--level-set", "sees-as=-8"],
        &["--level-set", "reads=0"],
        &["--level-set", "reads=8", "--level-set", "notices"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_yeoul"))
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: stdout belongs to GTP");
        assert!(!out.stderr.is_empty(), "{args:?}");
        if args[0] == "--level-set" {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("share-of-kyu"), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn a_missing_truncated_or_foreign_network_file_is_refused_at_start_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("yeoul-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tiny-net.safetensors"
    ))
    .unwrap();
    let truncated = dir.join("truncated.safetensors");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let corrupt = dir.join("corrupt.safetensors");
    std::fs::write(&corrupt, &flipped).unwrap();
    let foreign = concat!(env!("CARGO_MANIFEST_DIR"), "/models/yeoul.model");
    let missing = dir.join("missing.safetensors");
    for (path, reason) in [
        (missing.to_str().unwrap(), "No such file"),
        (truncated.to_str().unwrap(), "truncated"),
        (corrupt.to_str().unwrap(), "corrupt"),
        (foreign, "not a yeoul policy network"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_yeoul"))
            .args(["--net", path])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path}: {stderr}");
        assert!(out.stdout.is_empty(), "{path}: stdout belongs to GTP");
        assert!(
            stderr.contains(reason) && stderr.contains(path),
            "{path}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{path}: {stderr}");
    }
    // A good file starts, and so does the engine without any network.
    let tiny = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tiny-net.safetensors"
    );
    for args in [&["--net", tiny][..], &["--no-net"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_yeoul"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The learned model's favourite reply to Black's `first` move on 9x9 (from another
/// process, so that the engine under test sees no command while it ponders).
fn favourite_reply(first: &str) -> String {
    let mut child = spawn(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "boardsize 9\nplay b {first}\nyeoul-policy 1\nquit").unwrap();
    for _ in 0..2 {
        assert_eq!(response(&mut stdout), "= \n");
    }
    let policy = response(&mut stdout);
    child.wait().unwrap();
    let reply = policy.trim_start_matches("= ").split_whitespace().next();
    reply.expect("a reply").to_string()
}

/// The playouts of the tree reused by the second `genmove b` beyond those it ran itself,
/// when White answers the engine's first move with the model's favourite reply after a
/// second's thought.
fn reused_after_a_second(ponder: bool) -> u64 {
    // A level that sees every move: a rank's candidates are only the moves it reads.
    // Without the network, whose priors arrive from a thread of their own and vary the
    // tree from run to run, and whose favourite reply is not the learned model's.
    let mut args = vec![
        "--level",
        "max",
        "--playouts",
        "3000",
        "--threads",
        "1",
        "--no-net",
    ];
    if ponder {
        args.push("--ponder");
    }
    let mut child = spawn(&args);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "boardsize 9\ngenmove b").unwrap();
    assert_eq!(response(&mut stdout), "= \n");
    let first = response(&mut stdout);
    let reply = favourite_reply(first.trim_start_matches("= ").trim());
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
    child.wait().unwrap();
    number("visits") - number("playouts")
}

#[test]
fn pondering_grows_the_tree_while_the_opponent_thinks() {
    let (pondered, plain) = (reused_after_a_second(true), reused_after_a_second(false));
    assert!(
        pondered > plain,
        "pondering added to the reused tree: {pondered} against {plain} without"
    );
}

/// Waits for the child to end, at most `limit`; its stderr, which must hold no panic.
fn ends_within(mut child: std::process::Child, limit: Duration, what: &str) -> String {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    stderr
}

/// An engine started with `args`, streaming `kata-analyze` on an empty board of `size`:
/// the `boardsize` answer and the analysis header are read.
fn analysing(
    args: &[&str],
    size: usize,
    interval: u32,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    BufReader<std::process::ChildStdout>,
) {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "boardsize {size}\nkata-analyze {interval}").unwrap();
    assert_eq!(response(&mut stdout), "= \n");
    let mut header = String::new();
    stdout.read_line(&mut header).unwrap();
    assert_eq!(header, "= \n");
    (child, stdin, stdout)
}

#[test]
fn closing_stdin_while_it_thinks_ends_the_process_after_the_answer() {
    // genmove finishes its move (a piped transcript must get a real move), then exits.
    let mut child = spawn(&["--level", "easy", "--threads", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "boardsize 9\ngenmove b").unwrap();
    drop(stdin);
    assert_eq!(response(&mut stdout), "= \n");
    let mv = response(&mut stdout);
    assert!(mv.starts_with("= ") && mv.len() >= 4, "{mv:?}");
    ends_within(child, Duration::from_secs(2), "stdin closed during genmove");

    // Analysis stops at the end of input, closes its response, and the process exits.
    let (child, stdin, mut stdout) = analysing(&["--level", "easy", "--threads", "1"], 9, 10);
    let mut info = String::new();
    stdout.read_line(&mut info).unwrap();
    assert!(info.starts_with("info move "), "{info:?}");
    drop(stdin);
    assert!(
        response(&mut stdout)
            .lines()
            .all(|l| l.starts_with("info "))
    );
    ends_within(
        child,
        Duration::from_secs(2),
        "stdin closed during kata-analyze",
    );
}

#[test]
fn a_closed_stdout_ends_the_session() {
    let (child, stdin, stdout) = analysing(&["--level", "easy", "--threads", "1"], 9, 10);
    drop(stdout);
    // The engine notices at its next write; stdin stays open, so only that ends it.
    let stderr = ends_within(child, Duration::from_secs(3), "stdout closed");
    assert!(stderr.contains("stopped reading"), "{stderr}");
    drop(stdin);
}

#[test]
fn sigterm_ends_the_process_at_once() {
    let (child, stdin, _stdout) = analysing(&["--level", "hard", "--threads", "2"], 19, 50);
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    ends_within(child, Duration::from_secs(1), "SIGTERM during kata-analyze");
    drop(stdin);
}

/// A `VmRSS:` or `VmHWM:` (peak) figure of a process, in MiB.
#[cfg(target_os = "linux")]
fn status_mib(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc");
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .expect("the field");
    let kib: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib / 1024.0
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

#[cfg(target_os = "linux")]
#[test]
fn a_search_that_fills_its_tree_keeps_the_process_under_the_limit() {
    let start = |limit: Option<f64>| {
        let limit = limit.map(|l| format!("{}", l.ceil()));
        let mut args = vec!["--threads", "2", "--level", "hard", "--time", "5"];
        if let Some(l) = &limit {
            args.extend(["--max-memory", l.as_str()]);
        }
        let mut child = spawn(&args);
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        (child, stdin, stdout)
    };
    // What the engine holds before it searches (code, the network and the model's tables:
    // the learned model's policy, which `hard` sees with on 9x9, waits for the shape
    // table, built on a thread of its own from the start; on 19x19 it sees with the
    // network).
    let (mut child, mut stdin, mut stdout) = start(None);
    writeln!(
        stdin,
        "boardsize 9\nyeoul-policy 1\nboardsize 19\nyeoul-policy 1"
    )
    .unwrap();
    for _ in 0..4 {
        response(&mut stdout);
    }
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
    // A reply (the tree knows a star point well), then another move: tree reuse copies
    // a subtree. The reply must be empty: the engine's own first move may be Q16.
    let reply = if first.trim() == "= Q16" { "D4" } else { "Q16" };
    writeln!(stdin, "play w {reply}\ngenmove b").unwrap();
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
