//! GTP text in: line hygiene, ids, colours, vertices, numbers.

use super::GtpError;
use crate::rules::{BoardSize, Color, Move};

/// One command line after hygiene: optional id, name, arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

/// What a raw input line is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Nothing to answer (empty, or a comment).
    Blank,
    /// GoGui's `# interrupt`.
    Interrupt,
    Command(CommandLine),
}

/// Applies GTP's input hygiene (control characters dropped, tabs to spaces, comments cut)
/// and splits off the id. A line whose first word is a number only is a syntax error
/// reported with that id.
pub fn parse_line(raw: &str) -> Line {
    if raw.trim() == "# interrupt" {
        return Line::Interrupt;
    }
    let cleaned: String = raw
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let text = cleaned.split('#').next().unwrap_or("");
    let mut words = text.split_whitespace();
    let Some(first) = words.next() else {
        return Line::Blank;
    };
    // An id is digits only (Rust's parser would take `+7` too, and answer `=7`).
    let id = first
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| first.parse::<u64>().ok())
        .flatten();
    let (id, name) = match id {
        Some(id) => (Some(id), words.next().unwrap_or("").to_string()),
        None => (None, first.to_string()),
    };
    Line::Command(CommandLine {
        id,
        name,
        args: words.map(str::to_string).collect(),
    })
}

pub fn parse_color(s: &str) -> Result<Color, GtpError> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(GtpError::Syntax),
    }
}

/// A vertex or `pass` (any case).
pub fn parse_move(size: BoardSize, s: &str) -> Result<Move, GtpError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    size.parse_point(s)
        .map(Move::Play)
        .map_err(|_| GtpError::Syntax)
}

pub fn format_move(size: BoardSize, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => size.name(p),
    }
}

/// A finite number that is not absurd (komi, seconds).
pub fn parse_number(s: &str) -> Result<f64, GtpError> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x.abs() <= 1e9 => Ok(x),
        _ => Err(GtpError::Syntax),
    }
}

pub fn parse_count(s: &str) -> Result<u32, GtpError> {
    s.parse::<u32>().map_err(|_| GtpError::Syntax)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> CommandLine {
        match parse_line(line) {
            Line::Command(c) => c,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ids_tabs_carriage_returns_and_comments_are_handled() {
        let c = command("12\tplay  b D4 # a comment\r");
        assert_eq!(c.id, Some(12));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["b", "D4"]);
        assert_eq!(parse_line("   # only a comment"), Line::Blank);
        assert_eq!(parse_line(""), Line::Blank);
        assert_eq!(parse_line("# interrupt"), Line::Interrupt);
        assert_eq!(command("7").name, "");
        // Found by the GTP fuzz target: `+0 final_score` was answered `=0`.
        let signed = command("+0 final_score");
        assert_eq!((signed.id, signed.name.as_str()), (None, "+0"));
    }

    #[test]
    fn colours_and_vertices_are_case_insensitive() {
        assert_eq!(parse_color("WHITE"), Ok(Color::White));
        assert_eq!(parse_color("b"), Ok(Color::Black));
        assert_eq!(parse_color("red"), Err(GtpError::Syntax));
        let nine = BoardSize::NINE;
        assert_eq!(parse_move(nine, "PASS"), Ok(Move::Pass));
        assert_eq!(
            parse_move(nine, "d4"),
            Ok(Move::Play(nine.parse_point("D4").unwrap()))
        );
        assert_eq!(parse_move(nine, "I4"), Err(GtpError::Syntax));
        assert_eq!(parse_move(nine, "K1"), Err(GtpError::Syntax));
        assert_eq!(parse_number("nan"), Err(GtpError::Syntax));
    }
}
