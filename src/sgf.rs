//! SGF (FF[4]) files: a game written as SGF text, and SGF text read into a game (GTP's
//! `loadsgf` and `printsgf`, and the match runner's records). Reading goes through the
//! sgf-parse crate; writing is a few lines of text.

use crate::rules::{BoardSize, Color, Game, Move, Point, Ruleset};
use sgf_parse::go::{self, Prop};
use std::fmt::{self, Write as _};

/// Why an SGF text could not become a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError(pub String);

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SgfError {}

/// SGF's name for a rule set (`RU`).
pub fn rules_name(ruleset: Ruleset) -> &'static str {
    match ruleset {
        Ruleset::Chinese => "Chinese",
        Ruleset::Aga => "AGA",
        Ruleset::NewZealand => "NZ",
        Ruleset::TrompTaylor => "Tromp-Taylor",
        Ruleset::Japanese => "Japanese",
        Ruleset::Korean => "Korean",
    }
}

fn ruleset_from_name(name: &str) -> Option<Ruleset> {
    match name.trim().to_ascii_lowercase().as_str() {
        "chinese" => Some(Ruleset::Chinese),
        "aga" => Some(Ruleset::Aga),
        "nz" | "new zealand" | "new_zealand" => Some(Ruleset::NewZealand),
        "tromp-taylor" | "tromp_taylor" => Some(Ruleset::TrompTaylor),
        "japanese" | "jp" => Some(Ruleset::Japanese),
        "korean" => Some(Ruleset::Korean),
        _ => None,
    }
}

/// A property value with `\` and `]` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// SGF coordinates: column letter then row letter, rows counted from the top.
pub fn point_name(size: BoardSize, p: Point) -> String {
    let (col, row) = size.col_row(p);
    let letter = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", letter(col), letter(size.get() - 1 - row))
}

/// Root properties beyond the game's own.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: Option<String>,
    pub game_name: Option<String>,
    pub comment: Option<String>,
}

/// A game as SGF text: root (FF GM CA AP SZ KM RU, handicap stones as HA and AB, the
/// header's PB PW RE GN GC), then one node per move, a pass as `B[]`.
pub fn write_game(
    size: BoardSize,
    komi: f64,
    ruleset: Ruleset,
    handicap: &[Point],
    moves: &[(Color, Move)],
    header: &Header,
) -> String {
    let mut sgf = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[yeoul:{}]SZ[{size}]KM[{komi}]RU[{}]",
        env!("CARGO_PKG_VERSION"),
        rules_name(ruleset)
    );
    if !handicap.is_empty() {
        let _ = write!(sgf, "HA[{}]AB", handicap.len());
        for &p in handicap {
            let _ = write!(sgf, "[{}]", point_name(size, p));
        }
    }
    for (key, value) in [
        ("PB", &header.black),
        ("PW", &header.white),
        ("RE", &header.result),
        ("GN", &header.game_name),
        ("GC", &header.comment),
    ] {
        if let Some(v) = value {
            let _ = write!(sgf, "{key}[{}]", escape(v));
        }
    }
    for (i, &(color, mv)) in moves.iter().enumerate() {
        if i % 10 == 0 {
            sgf.push('\n');
        }
        let letter = if color == Color::Black { 'B' } else { 'W' };
        let point = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => point_name(size, p),
        };
        let _ = write!(sgf, ";{letter}[{point}]");
    }
    sgf.push_str(")\n");
    sgf
}

/// Where `loadsgf` stops: before the move with this number (1 = the first move), or
/// before the first move at this point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    End,
    MoveNumber(usize),
    Vertex(Point),
}

fn to_point(size: BoardSize, p: &go::Point) -> Result<Point, SgfError> {
    let n = size.get();
    let (x, y) = (p.x as usize, p.y as usize);
    if x >= n || y >= n {
        return Err(SgfError(format!("point {x},{y} is off the board")));
    }
    size.point(x, n - 1 - y)
        .map_err(|_| SgfError("point off the board".into()))
}

/// Reads the main line of the first game of an SGF text into a game: size, komi, rule set
/// (else `default_rules`), handicap or set-up stones, then the moves up to `until`.
/// A record is a fact: when its moves break the rule set's superko rule (game records of
/// other rules do), they are replayed under simple ko, and the rule set applies from the
/// loaded position on.
pub fn read_game(text: &str, default_rules: Ruleset, until: Until) -> Result<Game, SgfError> {
    read_game_replaying(text, default_rules, until, None).or_else(|first| {
        read_game_replaying(text, default_rules, until, Some(Ruleset::Japanese)).map_err(|_| first)
    })
}

fn read_game_replaying(
    text: &str,
    default_rules: Ruleset,
    until: Until,
    replay_rules: Option<Ruleset>,
) -> Result<Game, SgfError> {
    let trees = go::parse(text).map_err(|e| SgfError(e.to_string()))?;
    let root = trees
        .first()
        .ok_or_else(|| SgfError("no game in the file".into()))?;
    let mut n = 19;
    let mut komi = None;
    let mut ruleset = default_rules;
    for prop in root.properties() {
        match prop {
            Prop::SZ((w, h)) if w == h => n = *w as usize,
            Prop::SZ(_) => return Err(SgfError("the board is not square".into())),
            Prop::KM(k) if k.is_finite() => komi = Some(*k),
            Prop::RU(name) => ruleset = ruleset_from_name(&name.text).unwrap_or(default_rules),
            _ => {}
        }
    }
    let size = BoardSize::new(n).map_err(|e| SgfError(e.to_string()))?;
    let mut game = Game::new(size, replay_rules.unwrap_or(ruleset));
    let mut played = 0;
    for (depth, node) in root.main_variation().enumerate() {
        let mut black_setup = Vec::new();
        let mut white_setup = Vec::new();
        let mut moves = Vec::new();
        let mut to_play = None;
        for prop in node.properties() {
            match prop {
                Prop::PL(sgf_parse::Color::Black) => to_play = Some(Color::Black),
                Prop::PL(sgf_parse::Color::White) => to_play = Some(Color::White),
                Prop::AB(points) => black_setup.extend(points.iter().map(|p| to_point(size, p))),
                Prop::AW(points) => white_setup.extend(points.iter().map(|p| to_point(size, p))),
                Prop::B(m) => moves.push((Color::Black, m)),
                Prop::W(m) => moves.push((Color::White, m)),
                _ => {}
            }
        }
        let mut black_setup: Vec<Point> = black_setup.into_iter().collect::<Result<_, _>>()?;
        let mut white_setup: Vec<Point> = white_setup.into_iter().collect::<Result<_, _>>()?;
        // The parser keeps point lists in hash sets, whose order changes from run to run;
        // the order of placement shapes the board's chain lists and so the playouts.
        black_setup.sort();
        white_setup.sort();
        if depth == 0
            && white_setup.is_empty()
            && black_setup.len() >= 2
            && to_play != Some(Color::Black)
        {
            game.set_free_handicap(&black_setup)
                .map_err(|e| SgfError(e.to_string()))?;
        } else if depth == 0 && !(black_setup.is_empty() && white_setup.is_empty()) {
            let first = moves.first().map(|&(c, _)| c);
            let to_move = to_play.or(first).unwrap_or(Color::Black);
            game.set_up(&black_setup, &white_setup, to_move)
                .map_err(|e| SgfError(format!("set-up: {e}")))?;
        } else {
            for (color, points) in [(Color::Black, &black_setup), (Color::White, &white_setup)] {
                for &p in points.iter() {
                    game.play(color, Move::Play(p))
                        .map_err(|e| SgfError(format!("set-up stone: {e}")))?;
                }
            }
        }
        for (color, m) in moves {
            let mv = match m {
                go::Move::Pass => Move::Pass,
                // FF[3]'s pass: `tt` on boards up to 19x19.
                go::Move::Move(p) if (p.x, p.y) == (19, 19) => Move::Pass,
                go::Move::Move(p) => Move::Play(to_point(size, p)?),
            };
            let stop = match until {
                Until::End => false,
                Until::MoveNumber(k) => played + 1 >= k,
                Until::Vertex(v) => mv == Move::Play(v),
            };
            if stop {
                return Ok(finish(game, komi, ruleset));
            }
            game.play(color, mv)
                .map_err(|e| SgfError(format!("move {}: {e}", played + 1)))?;
            played += 1;
        }
    }
    Ok(finish(game, komi, ruleset))
}

fn finish(mut game: Game, komi: Option<f64>, ruleset: Ruleset) -> Game {
    game.set_ruleset(ruleset);
    if let Some(k) = komi {
        game.set_komi(k);
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_position_plays_out_the_same_every_time() {
        // The point lists come out of hash sets in a different order each time; the
        // board (its chain rings and empty list) must not depend on it, or a seeded
        // search of a loaded record is not repeatable.
        let text = "(;FF[4]SZ[9]AB[aa][ba][ca][da][ea][fa][ga][ha][ee][ef][fe]\
                    AW[ab][bb][cb][db][eb][fb][gb][hb][ib][ic][hc][gc][dd][de][df][cg]\
                    [gg][hh][ge][ai][bh][fh]PL[W])";
        use crate::search::playout::{PlayoutLimits, playout};
        use crate::search::policy::PlayoutPolicy;
        use rand::SeedableRng;
        let played_out = || {
            let game = read_game(text, Ruleset::Chinese, Until::End).unwrap();
            let mut board = *game.board();
            let mut rng = rand_pcg::Pcg32::seed_from_u64(7);
            let mut trace = Vec::new();
            let limits = PlayoutLimits::for_game_at(game.size(), 0);
            let policy = PlayoutPolicy::heavy();
            playout(
                &mut board,
                Color::White,
                limits,
                &policy,
                None,
                &mut rng,
                &mut trace,
            );
            trace
        };
        let first = played_out();
        for _ in 0..10 {
            assert_eq!(played_out(), first);
        }
    }

    #[test]
    fn a_written_game_reads_back_move_for_move() {
        let size = BoardSize::NINE;
        let mut game = Game::new(size, Ruleset::Japanese);
        game.set_komi(6.5);
        for (c, v) in [
            (Color::Black, "E5"),
            (Color::White, "C3"),
            (Color::Black, "pass"),
            (Color::White, "G7"),
        ] {
            let mv = if v == "pass" {
                Move::Pass
            } else {
                Move::Play(size.parse_point(v).unwrap())
            };
            game.play(c, mv).unwrap();
        }
        let text = write_game(
            size,
            6.5,
            Ruleset::Japanese,
            &[],
            game.record(),
            &Header::default(),
        );
        assert!(text.contains(";B[ee];W[cg];B[];W[gc]"), "{text}");
        let back = read_game(&text, Ruleset::Chinese, Until::End).unwrap();
        assert_eq!(back.record(), game.record());
        assert_eq!(back.komi(), 6.5);
        assert_eq!(back.ruleset(), Ruleset::Japanese);
        let partial = read_game(&text, Ruleset::Chinese, Until::MoveNumber(3)).unwrap();
        assert_eq!(partial.record().len(), 2);
        let at = read_game(
            &text,
            Ruleset::Chinese,
            Until::Vertex(size.parse_point("G7").unwrap()),
        )
        .unwrap();
        assert_eq!(at.record().len(), 3);
    }

    #[test]
    fn handicap_stones_become_a_free_handicap() {
        let text = "(;GM[1]FF[4]SZ[9]HA[2]AB[cg][gc]KM[0.5];W[ee];B[tt])";
        let game = read_game(text, Ruleset::Chinese, Until::End).unwrap();
        assert_eq!(game.handicap(), 2);
        // `tt` is the old way to write a pass.
        assert_eq!(
            game.record(),
            &[
                (
                    Color::White,
                    Move::Play(game.size().parse_point("E5").unwrap())
                ),
                (Color::Black, Move::Pass)
            ]
        );
        assert_eq!(game.komi(), 0.5);
    }

    #[test]
    fn a_record_that_repeats_a_position_loads_and_superko_applies_afterwards() {
        // Black takes a ko, White takes it back after two passes: a repetition that
        // positional superko forbids, but a game record is a fact.
        let text =
            "(;SZ[5]RU[Chinese];B[bc];B[cd];B[cb];W[dd];W[db];W[ec];W[cc];B[dc];W[];B[];W[cc])";
        let game = read_game(text, Ruleset::Chinese, Until::End).unwrap();
        assert_eq!(game.record().len(), 11);
        assert_eq!(game.ruleset(), Ruleset::Chinese);
        // Black retaking at D3 at once is refused (it is a ko, and a repetition too).
        let d3 = game.size().parse_point("D3").unwrap();
        assert!(!game.is_legal(Color::Black, Move::Play(d3)));
    }

    #[test]
    fn root_set_up_stones_are_no_moves_and_pl_says_who_plays() {
        let game = read_game("(;SZ[5]AB[aa][bb]AW[cc]PL[W])", Ruleset::Aga, Until::End).unwrap();
        assert!(game.record().is_empty());
        assert_eq!(game.handicap(), 0);
        assert_eq!(game.to_move(), Color::White);
        assert_eq!(game.board().stones(Color::Black).count(), 2);
        assert_eq!(game.board().stones(Color::White).count(), 1);
    }

    #[test]
    fn broken_files_are_errors_not_panics() {
        for text in [
            "",
            "(;SZ[9];B[zz])",
            "(;SZ[4:5])",
            "(;SZ[9];B[ee];W[ee])",
            "garbage",
            "(;SZ[99])",
        ] {
            assert!(
                read_game(text, Ruleset::Chinese, Until::End).is_err(),
                "{text:?}"
            );
        }
    }
}
