//! The command table: dispatch, `list_commands` and `known_command` all read it.

use super::analysis::{self, Dialect};
use super::parse::{CommandLine, format_move, parse_color, parse_count, parse_move, parse_number};
use super::{GtpError, Session};
use crate::engine::{BenchmarkLimit, Level, Reply, TimeControl};
use crate::rules::{
    Bitboard, BoardSize, Cell, Color, HandicapError, Move, Point, Ruleset, max_fixed_handicap,
};
use crate::sgf::{Until, game_text, read_game};
use std::time::Duration;

type Handler = fn(&mut Session, &[String]) -> Result<String, GtpError>;
/// A command that writes its own response (streaming analysis).
type Streamer = fn(&mut Session, Option<u64>, &[String]) -> Result<(), GtpError>;

/// Streaming commands, listed after the others.
const STREAMING: &[(&str, Streamer)] = &[
    ("lz-analyze", |s, id, a| {
        analysis::analyze(s, id, a, Dialect::Lz)
    }),
    ("analyze", |s, id, a| {
        analysis::analyze(s, id, a, Dialect::Lz)
    }),
    ("kata-analyze", |s, id, a| {
        analysis::analyze(s, id, a, Dialect::Kata)
    }),
    ("lz-genmove_analyze", |s, id, a| {
        analysis::genmove_analyze(s, id, a, Dialect::Lz)
    }),
    ("genmove_analyze", |s, id, a| {
        analysis::genmove_analyze(s, id, a, Dialect::Lz)
    }),
    ("kata-genmove_analyze", |s, id, a| {
        analysis::genmove_analyze(s, id, a, Dialect::Kata)
    }),
];

fn all_names() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .map(|c| c.0)
        .chain(STREAMING.iter().map(|c| c.0))
}

/// Every command, in the order `list_commands` prints them.
const COMMANDS: &[(&str, Handler)] = &[
    ("protocol_version", |_, _| Ok("2".into())),
    ("name", |_, _| Ok("yeoul".into())),
    ("version", |session, _| {
        let level = session.engine.config().level.label();
        Ok(format!("{} level {level}", env!("CARGO_PKG_VERSION")))
    }),
    ("known_command", known_command),
    ("list_commands", |_, _| {
        Ok(all_names().collect::<Vec<_>>().join("\n"))
    }),
    ("quit", quit),
    ("boardsize", boardsize),
    ("clear_board", clear_board),
    ("komi", komi),
    ("play", play),
    ("genmove", genmove),
    ("reg_genmove", reg_genmove),
    ("kgs-genmove_cleanup", genmove_cleanup),
    ("undo", undo),
    ("is_legal", is_legal),
    ("showboard", showboard),
    ("fixed_handicap", fixed_handicap),
    ("place_free_handicap", place_free_handicap),
    ("set_free_handicap", set_free_handicap),
    ("final_score", final_score),
    ("final_status_list", final_status_list),
    ("time_settings", time_settings),
    ("kgs-time_settings", kgs_time_settings),
    ("time_left", time_left),
    ("kgs-rules", kgs_rules),
    ("kgs-game_over", |_, _| Ok(String::new())),
    ("cputime", cputime),
    ("loadsgf", loadsgf),
    ("printsgf", printsgf),
    ("yeoul-difficulty", difficulty),
    ("yeoul-difficulty_param", difficulty_param),
    ("yeoul-level_set", level_set),
    ("yeoul-rules", rules),
    ("yeoul-seed", seed),
    ("yeoul-benchmark", benchmark),
    ("yeoul-stats", stats),
    ("yeoul-ownership", ownership),
    ("yeoul-policy", policy),
    ("yeoul-gfx_policy", gfx_policy),
    ("yeoul-gfx_best", gfx_best),
    ("yeoul-gfx_pv", gfx_pv),
    ("yeoul-gfx_final_status", gfx_final_status),
    (
        "gogui-analyze_commands",
        |_, _| Ok(GOGUI_ANALYZE.join("\n")),
    ),
    ("gogui-interrupt", |_, _| Ok(String::new())),
    ("gg-undo", gg_undo),
    ("gogui-play_sequence", play_sequence),
    ("gogui-setup", setup),
    ("gogui-setup_player", setup_player),
];

/// What GoGui shows in its analysis menu: `type/label/command`.
const GOGUI_ANALYZE: &[&str] = &[
    "dboard/Ownership/yeoul-ownership",
    "gfx/Best moves/yeoul-gfx_best",
    "gfx/Policy/yeoul-gfx_policy",
    "gfx/Principal variation/yeoul-gfx_pv",
    "gfx/Final status/yeoul-gfx_final_status",
    "plist/Dead stones/final_status_list dead",
    "plist/Seki stones/final_status_list seki",
    "plist/Black territory/final_status_list black_territory",
    "plist/White territory/final_status_list white_territory",
    "plist/Dame/final_status_list dame",
    "string/Final score/final_score",
    "hstring/Search statistics/yeoul-stats",
    "string/Benchmark (9x9, 2 s)/yeoul-benchmark 9 2",
    "param/Difficulty/yeoul-difficulty_param",
];

/// Runs one command.
pub fn dispatch(session: &mut Session, command: &CommandLine) -> Option<Result<String, GtpError>> {
    if let Some(&(_, streamer)) = STREAMING.iter().find(|c| c.0 == command.name) {
        return streamer(session, command.id, &command.args).err().map(Err);
    }
    match COMMANDS.iter().find(|c| c.0 == command.name) {
        Some(&(_, handler)) => Some(handler(session, &command.args)),
        None => Some(Err(GtpError::Unknown)),
    }
}

fn expect_args(args: &[String], n: usize) -> Result<(), GtpError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(GtpError::Syntax)
    }
}

fn known_command(_: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    Ok(all_names().any(|c| c == args[0]).to_string())
}

fn quit(session: &mut Session, _: &[String]) -> Result<String, GtpError> {
    session.quit = true;
    Ok(String::new())
}

fn boardsize(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let n: usize = args[0].parse().map_err(|_| GtpError::Syntax)?;
    let size = BoardSize::new(n).map_err(|_| GtpError::UnacceptableSize)?;
    session.engine.new_game(size);
    Ok(String::new())
}

fn clear_board(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let size = session.engine.game().size();
    session.engine.new_game(size);
    Ok(String::new())
}

fn komi(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let komi = parse_number(&args[0])?;
    session.engine.game_mut().set_komi(komi);
    Ok(String::new())
}

fn color_and_move(session: &Session, args: &[String]) -> Result<(Color, Move), GtpError> {
    expect_args(args, 2)?;
    Ok((
        parse_color(&args[0])?,
        parse_move(session.engine.game().size(), &args[1])?,
    ))
}

fn play(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let (color, mv) = color_and_move(session, args)?;
    session
        .engine
        .game_mut()
        .play(color, mv)
        .map_err(|_| GtpError::IllegalMove)?;
    Ok(String::new())
}

fn is_legal(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let (color, mv) = color_and_move(session, args)?;
    Ok(if session.engine.game().is_legal(color, mv) {
        "1"
    } else {
        "0"
    }
    .into())
}

/// A generated move as GNU Go and Fuego write it: upper-case vertices and `PASS` (the
/// regression suites of both match case-sensitively; every controller reads any case).
fn format_reply(session: &Session, reply: Reply) -> String {
    match reply {
        Reply::Resign => "resign".into(),
        Reply::Move(Move::Pass) => "PASS".into(),
        Reply::Move(mv) => format_move(session.engine.game().size(), mv),
    }
}

fn genmove(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let color = parse_color(&args[0])?;
    let reply = session
        .engine
        .genmove(color, session.input.interrupt_flag())?;
    Ok(format_reply(session, reply))
}

fn reg_genmove(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let color = parse_color(&args[0])?;
    let reply = session
        .engine
        .choose(color, session.input.interrupt_flag())?;
    Ok(format_reply(session, reply))
}

/// Like `genmove`, but never passes while opposing stones the arbiter judges dead are
/// still on the board (KGS's cleanup phase).
fn genmove_cleanup(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let color = parse_color(&args[0])?;
    let reply = session
        .engine
        .genmove_cleanup(color, session.input.interrupt_flag())?;
    Ok(format_reply(session, reply))
}

fn undo(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    session
        .engine
        .game_mut()
        .undo()
        .map_err(|_| GtpError::CannotUndo)?;
    Ok(String::new())
}

fn showboard(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let game = session.engine.game();
    let size = game.size();
    let n = size.get();
    let letters: String = (0..n)
        .map(|c| {
            size.name(size.point(c, 0).expect("on board"))
                .chars()
                .next()
                .unwrap_or('?')
        })
        .map(|c| format!(" {c}"))
        .collect();
    let mut out = format!("\n  {letters}\n");
    for row in (0..n).rev() {
        out += &format!("{:>2}", row + 1);
        for col in 0..n {
            let p = size.point(col, row).expect("on board");
            out += match game.board().cell(p) {
                Cell::Stone(Color::Black) => " X",
                Cell::Stone(Color::White) => " O",
                _ => " .",
            };
        }
        out += &format!(" {}\n", row + 1);
    }
    out += &format!("  {letters}\n");
    out += &format!(
        "captures black {} white {}; {} to move; komi {}; rules {}",
        game.prisoners(Color::Black),
        game.prisoners(Color::White),
        game.to_move(),
        game.komi(),
        game.ruleset()
    );
    Ok(out)
}

fn handicap_error(e: HandicapError) -> GtpError {
    match e {
        HandicapError::BoardNotEmpty => GtpError::BoardNotEmpty,
        HandicapError::InvalidNumberOfStones => GtpError::InvalidNumberOfStones,
        HandicapError::BadVertexList => GtpError::BadVertexList,
    }
}

fn vertex_list(session: &Session, points: &[Point]) -> String {
    let size = session.engine.game().size();
    points
        .iter()
        .map(|&p| size.name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

fn fixed_handicap(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let stones = parse_count(&args[0])?;
    let points = session
        .engine
        .game_mut()
        .place_fixed_handicap(stones)
        .map_err(handicap_error)?;
    Ok(vertex_list(session, &points))
}

/// The engine's choice is the fixed placement, with at most as many stones as that table
/// has (the specification allows placing fewer).
fn place_free_handicap(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let stones = parse_count(&args[0])?;
    let size = session.engine.game().size();
    let most = max_fixed_handicap(size);
    if stones < 2 || most < 2 {
        return Err(GtpError::InvalidNumberOfStones);
    }
    let points = session
        .engine
        .game_mut()
        .place_fixed_handicap(stones.min(most))
        .map_err(handicap_error)?;
    Ok(vertex_list(session, &points))
}

fn set_free_handicap(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let size = session.engine.game().size();
    let mut points = Vec::with_capacity(args.len());
    for a in args {
        match parse_move(size, a) {
            Ok(Move::Play(p)) => points.push(p),
            _ => return Err(GtpError::BadVertexList),
        }
    }
    session
        .engine
        .game_mut()
        .set_free_handicap(&points)
        .map_err(handicap_error)?;
    Ok(String::new())
}

fn final_score(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    Ok(session.engine.final_score()?.to_string())
}

/// `alive`, `dead`, `seki`: the arbiter's chains of that status, one chain per line;
/// GNU Go's `black_territory`, `white_territory` and `dame`: those points on one line.
/// Vertices are sorted by column, then row.
fn final_status_list(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    use crate::referee::Status;
    expect_args(args, 1)?;
    let wanted = args[0].to_ascii_lowercase();
    let status = match wanted.as_str() {
        "alive" => Some(Status::Alive),
        "dead" => Some(Status::Dead),
        "seki" => Some(Status::Seki),
        "black_territory" | "white_territory" | "dame" => None,
        _ => return Err(GtpError::Syntax),
    };
    let judgement = session.engine.judgement()?;
    let game = session.engine.game();
    let board = game.board();
    let size = game.size();
    let Some(status) = status else {
        let territory = judgement.territory(game);
        let points = match wanted.as_str() {
            "black_territory" => territory.black,
            "white_territory" => territory.white,
            _ => judgement.dame(game),
        };
        return Ok(points.vertex_names(size));
    };
    // Chains in the order of their first vertex.
    let mut chains: Vec<((usize, usize), String)> = board
        .chains()
        .into_iter()
        .filter(|chain| {
            chain.iter().next().and_then(|p| judgement.status(board, p)) == Some(status)
        })
        .map(|chain| {
            let first = chain.iter().map(|p| size.col_row(p)).min();
            (first.unwrap_or_default(), chain.vertex_names(size))
        })
        .collect();
    chains.sort();
    Ok(chains
        .into_iter()
        .map(|(_, names)| names)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn seconds(s: &str) -> Result<Duration, GtpError> {
    let x = parse_number(s)?;
    if x < 0.0 {
        return Err(GtpError::Syntax);
    }
    Ok(Duration::from_secs_f64(x))
}

/// `time_settings main byo_yomi stones`: byo-yomi time with no stones means no limit;
/// no byo-yomi time means absolute time; otherwise canadian overtime.
fn time_settings(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 3)?;
    let (main, period, stones) = (
        seconds(&args[0])?,
        seconds(&args[1])?,
        parse_count(&args[2])?,
    );
    let control = if period > Duration::ZERO && stones == 0 {
        TimeControl::None
    } else if period == Duration::ZERO {
        if main == Duration::ZERO {
            TimeControl::None
        } else {
            TimeControl::Absolute { main }
        }
    } else {
        TimeControl::Canadian {
            main,
            period,
            stones,
        }
    };
    session.engine.set_time_control(control);
    Ok(String::new())
}

fn kgs_time_settings(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let kind = args.first().ok_or(GtpError::Syntax)?.to_ascii_lowercase();
    let control = match (kind.as_str(), args.len()) {
        ("none", 1) => TimeControl::None,
        ("absolute", 2) => TimeControl::Absolute {
            main: seconds(&args[1])?,
        },
        ("byoyomi", 4) => TimeControl::ByoYomi {
            main: seconds(&args[1])?,
            period: seconds(&args[2])?,
            periods: parse_count(&args[3])?,
        },
        ("canadian", 4) => TimeControl::Canadian {
            main: seconds(&args[1])?,
            period: seconds(&args[2])?,
            stones: parse_count(&args[3])?,
        },
        _ => return Err(GtpError::Syntax),
    };
    session.engine.set_time_control(control);
    Ok(String::new())
}

fn time_left(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 3)?;
    let color = parse_color(&args[0])?;
    let (left, count) = (seconds(&args[1])?, parse_count(&args[2])?);
    session.engine.clock_mut(color).set_left(left, count);
    Ok(String::new())
}

/// `kgs-rules chinese|aga|japanese|new_zealand [more...]` (extra words are tolerated).
fn kgs_rules(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let name = args.first().ok_or(GtpError::Syntax)?;
    let ruleset: Ruleset = name
        .parse()
        .map_err(|_| GtpError::Other("unknown rules".into()))?;
    session.engine.game_mut().set_ruleset(ruleset);
    Ok(String::new())
}

fn rules(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    match args {
        [] => Ok(session.engine.game().ruleset().to_string()),
        [name] => kgs_rules(session, std::slice::from_ref(name)),
        _ => Err(GtpError::Syntax),
    }
}

/// `yeoul-difficulty`: the level, or a new one (a name or a rank; anything else is
/// refused with the valid values, the level unchanged).
fn difficulty(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    match args {
        [] => Ok(session.engine.config().level.to_string()),
        [name] => {
            let level: Level = name.parse().map_err(GtpError::Other)?;
            session.engine.set_level(level);
            Ok(String::new())
        }
        _ => Err(GtpError::Syntax),
    }
}

/// GoGui's parameter dialog for the level: with no arguments the level as a list of
/// every value, with `level VALUE` a new one.
fn difficulty_param(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    match args {
        [] => {
            let values: Vec<String> = Level::all().map(Level::name).collect();
            let level = session.engine.config().level;
            Ok(format!("[list/{}] level {level}", values.join("/")))
        }
        [key, value] if key == "level" => difficulty(session, std::slice::from_ref(value)),
        _ => Err(GtpError::Syntax),
    }
}

/// Changes to the level's row for calibration (`--level-set`): with no arguments those
/// made, as `KEY=VALUE` words; with `KEY=VALUE` words, those changes too, or none if one is
/// refused.
fn level_set(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let mut changes = session.engine.config().level_changes;
    for setting in args {
        changes.set(setting).map_err(GtpError::Other)?;
    }
    if !args.is_empty() {
        session.engine.set_level_changes(changes);
    }
    Ok(changes.listed().join(" "))
}

/// Process CPU seconds over all threads (user + system), from /proc where there is one.
fn cputime(_: &mut Session, _: &[String]) -> Result<String, GtpError> {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            let after = stat.rsplit_once(')')?.1;
            let fields: Vec<&str> = after.split_whitespace().collect();
            let user: u64 = fields.get(11)?.parse().ok()?;
            let system: u64 = fields.get(12)?.parse().ok()?;
            Some(user + system)
        });
    Ok(format!("{:.3}", ticks.unwrap_or(0) as f64 / 100.0))
}

fn seed(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let seed: u64 = args[0].parse().map_err(|_| GtpError::Syntax)?;
    session.engine.set_seed(seed);
    Ok(String::new())
}

/// JSON of the last search: numbers, best move, win rate, score estimate, PV, and why the
/// engine played what it played.
fn stats(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let size = session.engine.game().size();
    let Some((result, decision)) = session.engine.last_search() else {
        return Ok("{}".into());
    };
    let pv: Vec<String> = result.pv().iter().map(|&m| format_move(size, m)).collect();
    let s = &result.stats;
    let visits: u64 = result.candidates.iter().map(|c| c.visits as u64).sum();
    Ok(serde_json::json!({
        "playouts": s.playouts,
        "visits": visits,
        "pps": s.playouts_per_second().round() as u64,
        "time_ms": s.elapsed.as_millis() as u64,
        "nodes": s.nodes,
        "memory_bytes": s.memory_bytes,
        "tree_full": s.tree_full,
        "threads": s.threads,
        "network_evaluations": s.network_evaluations,
        "network_dropped": s.network_dropped,
        "reused_visits": s.reused_visits,
        "best": format_move(size, result.best),
        "winrate": rounded(result.win_rate, 4),
        "score_lead": rounded(result.score_lead, 2),
        "pv": pv,
        "decision": format!("{decision:?}"),
    })
    .to_string())
}

/// `x` to `digits` decimals, for JSON that people read (a NaN becomes `null`).
fn rounded(x: f32, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x as f64 * scale).round() / scale
}

/// The ownership board (+1 Black, -1 White), top row first, as GoGui's `dboard` wants.
fn ownership(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let color = session.engine.game().to_move();
    let result = session
        .engine
        .current_analysis(color, session.input.interrupt_flag())?;
    let n = session.engine.game().size().get();
    let mut out = String::from("\n");
    for row in (0..n).rev() {
        let line: Vec<String> = (0..n)
            .map(|col| format!("{:.2}", result.ownership[row * n + col]))
            .collect();
        out += &line.join(" ");
        out.push('\n');
    }
    Ok(out)
}

/// The learned probabilities of the side to move's legal moves, best first.
fn learned_policy(session: &Session) -> Result<Vec<(Point, f32)>, GtpError> {
    let color = session.engine.game().to_move();
    session
        .engine
        .policy(color)
        .ok_or_else(|| GtpError::Other("no learned model or network loaded".into()))
}

/// `yeoul-policy [N]`: the N (20) most probable moves of the side to move under the
/// level's own policy (the network's where the level sees or rates moves with it, else
/// the learned model's: `Engine::policy`), one `VERTEX PROBABILITY` line each, best first.
fn policy(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let n = match args {
        [] => 20,
        [n] => match n.parse::<usize>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(GtpError::Syntax),
        },
        _ => return Err(GtpError::Syntax),
    };
    let size = session.engine.game().size();
    Ok(learned_policy(session)?
        .into_iter()
        .take(n)
        .map(|(p, prob)| format!("{} {prob:.4}", size.name(p)))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The level's policy as GoGui draws it (its status bar names which): shading by probability (relative to the best
/// move), the ten best as percentages, the best in the status bar.
fn gfx_policy(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let rated = learned_policy(session)?;
    let size = session.engine.game().size();
    let sign = match session.engine.game().to_move() {
        Color::Black => 1.0,
        Color::White => -1.0,
    };
    let Some(&(best, top)) = rated.first() else {
        return Ok("TEXT no legal move".into());
    };
    let shades: Vec<String> = rated
        .iter()
        .filter(|r| r.1 >= top * 0.01)
        .map(|&(p, prob)| format!("{} {:.2}", size.name(p), sign * prob / top))
        .collect();
    let mut out = vec![format!("INFLUENCE {}", shades.join(" "))];
    for &(p, prob) in rated.iter().take(10) {
        out.push(format!("LABEL {} {:.0}", size.name(p), prob * 100.0));
    }
    out.push(format!(
        "TEXT {}: {} {:.1}%",
        session.engine.policy_name(),
        size.name(best),
        top * 100.0
    ));
    Ok(out.join("\n"))
}

/// The best candidates as GoGui labels (win rate in percent) and a status-bar text.
fn gfx_best(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let color = session.engine.game().to_move();
    let result = session
        .engine
        .current_analysis(color, session.input.interrupt_flag())?;
    let size = session.engine.game().size();
    let mut out = Vec::new();
    for c in result
        .candidates
        .iter()
        .filter(|c| c.mv != Move::Pass && c.visits > 0)
        .take(8)
    {
        out.push(format!(
            "LABEL {} {:.0}%",
            format_move(size, c.mv),
            c.win_rate * 100.0
        ));
    }
    out.push(format!(
        "TEXT {} playouts, best {} ({:.1}%)",
        result.stats.playouts,
        format_move(size, result.best),
        result.win_rate * 100.0
    ));
    Ok(out.join("\n"))
}

/// The arbiter's verdict as GoGui draws it: territory as small squares of its owner's
/// colour (dead stones' points included), dead stones crossed out, seki stones marked with
/// triangles, the count in the status bar.
fn gfx_final_status(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let judgement = session.engine.judgement()?;
    let game = session.engine.game();
    let size = game.size();
    let territory = judgement.territory(game);
    let line = |tag: &str, set: Bitboard| format!("{tag} {}", set.vertex_names(size));
    let mut lines: Vec<String> = [
        ("BLACK", territory.black),
        ("WHITE", territory.white),
        ("MARK", judgement.dead),
        ("TRIANGLE", judgement.seki),
    ]
    .into_iter()
    .filter(|(_, set)| !set.is_empty())
    .map(|(tag, set)| line(tag, set))
    .collect();
    lines.push(format!("TEXT {}", judgement.score(game)));
    Ok(lines.join("\n"))
}

/// The principal variation as a GoGui `VAR` line.
fn gfx_pv(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 0)?;
    let color = session.engine.game().to_move();
    let result = session
        .engine
        .current_analysis(color, session.input.interrupt_flag())?;
    let size = session.engine.game().size();
    let mut line = String::from("VAR");
    let mut mover = color;
    for &mv in result.pv() {
        line += &format!(
            " {} {}",
            if mover == Color::Black { "b" } else { "w" },
            format_move(size, mv)
        );
        mover = mover.opponent();
    }
    Ok(line)
}

fn gg_undo(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let n = match args {
        [] => 1,
        [n] => parse_count(n)? as usize,
        _ => return Err(GtpError::Syntax),
    };
    if n > session.engine.game().record().len() {
        return Err(GtpError::CannotUndo);
    }
    for _ in 0..n {
        session
            .engine
            .game_mut()
            .undo()
            .map_err(|_| GtpError::CannotUndo)?;
    }
    Ok(String::new())
}

/// Plays `colour vertex` pairs on a copy, and keeps the copy only if all are legal.
fn play_pairs(session: &mut Session, args: &[String]) -> Result<(), GtpError> {
    if !args.len().is_multiple_of(2) {
        return Err(GtpError::Syntax);
    }
    let size = session.engine.game().size();
    let mut game = session.engine.game().clone();
    for pair in args.chunks(2) {
        let color = parse_color(&pair[0])?;
        let mv = parse_move(size, &pair[1])?;
        game.play(color, mv).map_err(|_| GtpError::IllegalMove)?;
    }
    *session.engine.game_mut() = game;
    Ok(())
}

fn play_sequence(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    play_pairs(session, args).map(|_| String::new())
}

/// `gogui-setup B A1 W B2 ...` on an empty board: the stones, as moves of their colours.
fn setup(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let game = session.engine.game();
    if game.board().empty_count() != game.size().points() {
        return Err(GtpError::BoardNotEmpty);
    }
    if args
        .chunks(2)
        .any(|pair| pair.get(1).is_some_and(|v| v.eq_ignore_ascii_case("pass")))
    {
        return Err(GtpError::Syntax);
    }
    play_pairs(session, args).map(|_| String::new())
}

fn setup_player(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    expect_args(args, 1)?;
    let color = parse_color(&args[0])?;
    session.engine.game_mut().set_to_move(color);
    Ok(String::new())
}

/// `loadsgf file [move_number | vertex]`: the position before that move.
fn loadsgf(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let (file, limit) = match args {
        [file] => (file, None),
        [file, limit] => (file, Some(limit)),
        _ => return Err(GtpError::Syntax),
    };
    // Old records are often Latin-1 (player names): only the moves matter here.
    let cannot_load = |e: crate::sgf::SgfError| {
        log::warn!("loadsgf {file}: {}", e.0);
        GtpError::CannotLoad
    };
    let bytes = crate::sgf::read_file(file.as_ref()).map_err(cannot_load)?;
    let text = String::from_utf8_lossy(&bytes);
    let until = match limit {
        None => Until::End,
        Some(l) => match l.parse::<usize>() {
            Ok(k) => Until::MoveNumber(k),
            Err(_) => {
                // The size is the file's: read it once to know how to parse the vertex.
                let size = read_game(&text, session.engine.game().ruleset(), Until::MoveNumber(0))
                    .map_err(cannot_load)?
                    .size();
                match parse_move(size, l)? {
                    Move::Play(p) => Until::Vertex(p),
                    Move::Pass => return Err(GtpError::Syntax),
                }
            }
        },
    };
    let game = read_game(&text, session.engine.game().ruleset(), until).map_err(cannot_load)?;
    session.engine.set_game(game);
    Ok(String::new())
}

/// `printsgf [file]`: the game as SGF, in the response or into the file.
fn printsgf(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    let text = game_text(session.engine.game());
    match args {
        [] => Ok(text),
        [file] => std::fs::write(file, text)
            .map(|_| String::new())
            .map_err(|e| GtpError::Other(format!("cannot write {file}: {e}"))),
        _ => Err(GtpError::Syntax),
    }
}

/// `yeoul-benchmark [size] [seconds|playouts] [threads]`: a search from the empty board
/// (a budget up to 60 is seconds, above it playouts), as one JSON line.
fn benchmark(session: &mut Session, args: &[String]) -> Result<String, GtpError> {
    if args.len() > 3 {
        return Err(GtpError::Syntax);
    }
    let n: usize = args
        .first()
        .map_or(Ok(9), |a| a.parse())
        .map_err(|_| GtpError::Syntax)?;
    let size = BoardSize::new(n).map_err(|_| GtpError::UnacceptableSize)?;
    let budget = args.get(1).map_or(Ok(2.0), |a| parse_number(a))?;
    let threads = args
        .get(2)
        .map_or(Ok(session.engine.config().threads), |a| a.parse())
        .map_err(|_| GtpError::Syntax)?;
    if budget <= 0.0 || !(1..=1024).contains(&threads) {
        return Err(GtpError::Syntax);
    }
    let limit = if budget <= 60.0 {
        BenchmarkLimit::Time(Duration::from_secs_f64(budget))
    } else {
        BenchmarkLimit::Playouts(budget as u64)
    };
    let s = session
        .engine
        .benchmark(size, limit, threads, session.input.interrupt_flag())?;
    Ok(serde_json::json!({
        "board": n,
        "threads": threads,
        "playouts": s.playouts,
        "playouts_per_second": s.playouts_per_second().round() as u64,
        "nodes": s.nodes,
        "ms": s.elapsed.as_millis() as u64,
    })
    .to_string())
}
