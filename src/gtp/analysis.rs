//! Live analysis for Sabaki and Lizzie: `lz-analyze`, `kata-analyze` and the
//! `*-genmove_analyze` variants. Info lines stream at the requested interval until any
//! input line arrives; then the response ends with its empty line and that line is
//! handled next.

use super::parse::{format_move, parse_color};
use super::{GtpError, Session};
use crate::engine::{Reply, SearchResult};
use crate::rules::{BoardSize, Color, Move};
use std::time::{Duration, Instant};

/// Which dialect to print.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Integers x 10000 (Leela Zero, Sabaki's `analyze`).
    Lz,
    /// Floats that always hold a `.` (KataGo).
    Kata,
}

struct Request {
    color: Color,
    interval: Duration,
    ownership: bool,
}

/// `[colour] [interval] [interval N] [ownership true] [other key value...]`.
fn parse_request(session: &Session, args: &[String]) -> Result<Request, GtpError> {
    let mut request = Request {
        color: session.engine.game().to_move(),
        interval: Duration::from_secs(1),
        ownership: false,
    };
    let mut rest = args;
    if let Some(first) = rest.first()
        && let Ok(color) = parse_color(first)
    {
        request.color = color;
        rest = &rest[1..];
    }
    if let Some(first) = rest.first()
        && let Ok(centiseconds) = first.parse::<u32>()
    {
        request.interval = Duration::from_millis(centiseconds as u64 * 10);
        rest = &rest[1..];
    }
    while let [key, value, tail @ ..] = rest {
        match key.as_str() {
            "interval" => {
                let cs: u32 = value.parse().map_err(|_| GtpError::Syntax)?;
                request.interval = Duration::from_millis(cs as u64 * 10);
            }
            "ownership" => request.ownership = value == "true",
            _ => {}
        }
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(GtpError::Syntax);
    }
    request.interval = request
        .interval
        .clamp(Duration::from_millis(50), Duration::from_secs(60));
    Ok(request)
}

/// One `info ...` line per candidate (never a pass), plus ownership for KataGo.
pub fn info_line(
    size: BoardSize,
    result: &SearchResult,
    dialect: Dialect,
    ownership: bool,
) -> String {
    let mut out = String::new();
    let mut order = 0;
    for c in &result.candidates {
        if c.mv == Move::Pass || c.visits == 0 {
            continue;
        }
        let pv: Vec<String> =
            c.pv.iter()
                .take_while(|m| **m != Move::Pass)
                .map(|&m| format_move(size, m))
                .collect();
        if !out.is_empty() {
            out.push(' ');
        }
        let mv = format_move(size, c.mv);
        match dialect {
            Dialect::Lz => {
                out += &format!(
                    "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                    c.visits,
                    (c.win_rate * 10000.0).round() as i32,
                    (c.prior * 10000.0).round() as i32,
                    (c.lcb * 10000.0).round() as i32,
                    pv.join(" ")
                )
            }
            Dialect::Kata => {
                let lead = if result.color == Color::Black {
                    result.score_lead
                } else {
                    -result.score_lead
                };
                out += &format!(
                    "info move {mv} visits {} winrate {:.6} scoreLead {:.6} prior {:.6} lcb {:.6} order {order} pv {}",
                    c.visits,
                    c.win_rate,
                    lead,
                    c.prior,
                    c.lcb,
                    pv.join(" ")
                )
            }
        }
        order += 1;
    }
    if dialect == Dialect::Kata && ownership {
        out += " ownership";
        let n = size.get();
        let sign = if result.color == Color::Black {
            1.0
        } else {
            -1.0
        };
        for row in (0..n).rev() {
            for col in 0..n {
                let v = result.ownership.get(row * n + col).copied().unwrap_or(0.0) * sign;
                out += &format!(" {v:.6}");
            }
        }
    }
    out
}

/// Streams analysis until a line arrives. Writes its own response, so the loop writes none.
pub fn analyze(
    session: &mut Session,
    id: Option<u64>,
    args: &[String],
    dialect: Dialect,
) -> Result<(), GtpError> {
    let request = parse_request(session, args)?;
    // An error is answered before the stream's header, not in the middle of it.
    session.engine.threads_ready()?;
    write_header(session, id);
    let size = session.engine.game().size();
    session.input.reset_arrival();
    loop {
        if session
            .input
            .arrival_flag()
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            break;
        }
        let result = match session.engine.analysis_step(
            request.color,
            request.interval,
            session.input.arrival_flag(),
        ) {
            Ok(result) => result,
            Err(e) => {
                log::error!("analysis: {e}");
                break;
            }
        };
        let line = info_line(size, &result, dialect, request.ownership);
        if !line.is_empty() {
            session.send(&format!("{line}\n"));
        }
        if session.quit || session.input.line_arrived(Duration::ZERO) {
            break;
        }
    }
    session.send("\n");
    Ok(())
}

/// Thinks like `genmove`, streaming info lines, then `play <move>`; the move is played.
pub fn genmove_analyze(
    session: &mut Session,
    id: Option<u64>,
    args: &[String],
    dialect: Dialect,
) -> Result<(), GtpError> {
    let request = parse_request(session, args)?;
    session.engine.threads_ready()?;
    write_header(session, id);
    let size = session.engine.game().size();
    let (time, playouts) = session.engine.move_budget(request.color);
    let started = Instant::now();
    let total = time.unwrap_or(Duration::from_secs(3600));
    let mut spent_playouts = 0;
    // Think in steps of one interval, printing after each, then let genmove finish.
    while started.elapsed() + request.interval < total && spent_playouts < playouts {
        let Ok(result) = session.engine.genmove_step(
            request.color,
            request.interval,
            playouts - spent_playouts,
            session.input.interrupt_flag(),
        ) else {
            // The move below answers, or says nothing if it cannot search either.
            break;
        };
        spent_playouts += result.stats.playouts;
        session.send(&format!(
            "{}\n",
            info_line(size, &result, dialect, request.ownership)
        ));
    }
    let left = total
        .saturating_sub(started.elapsed())
        .max(Duration::from_millis(20));
    let reply =
        session
            .engine
            .genmove_within(request.color, session.input.interrupt_flag(), Some(left));
    let text = match reply {
        Ok(Reply::Resign) => "resign".to_string(),
        Ok(Reply::Move(mv)) => format_move(size, mv),
        Err(e) => {
            // The header is out: the stream ends without a move, the game unchanged.
            log::error!("genmove: {e}");
            session.send("\n");
            return Ok(());
        }
    };
    session.send(&format!("play {text}\n\n"));
    Ok(())
}

fn write_header(session: &mut Session, id: Option<u64>) {
    let id = id.map(|i| i.to_string()).unwrap_or_default();
    session.send(&format!("={id} \n"));
}
