//! SGF (FF[4]) files: a game written as SGF text, and SGF text read into a game (GTP's
//! `loadsgf` and `printsgf`, and the match runner's records). Reading goes through the
//! sgf-parse crate; writing is a few lines of text.

use crate::rules::{BoardSize, Color, Game, Move, Point, Ruleset, Setup};
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

/// A game's start: handicap stones, or a set-up position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Start<'a> {
    pub handicap: &'a [Point],
    pub setup: Option<&'a Setup>,
}

impl<'a> Start<'a> {
    pub fn of(game: &'a Game) -> Start<'a> {
        Start {
            handicap: game.handicap_points(),
            setup: game.setup(),
        }
    }
}

/// A game as SGF text: root (FF GM CA AP SZ KM RU, handicap stones as HA and AB, or a
/// set-up position as AB AW PL, the header's PB PW RE GN GC), then one node per move, a
/// pass as `B[]`.
pub fn write_game(
    size: BoardSize,
    komi: f64,
    ruleset: Ruleset,
    start: Start<'_>,
    moves: &[(Color, Move)],
    header: &Header,
) -> String {
    let handicap = start.handicap;
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
    if let Some(setup) = start.setup {
        for (key, points) in [("AB", &setup.black), ("AW", &setup.white)] {
            if !points.is_empty() {
                sgf.push_str(key);
                for &p in points.iter() {
                    let _ = write!(sgf, "[{}]", point_name(size, p));
                }
            }
        }
        let _ = write!(
            sgf,
            "PL[{}]",
            if setup.to_move == Color::Black {
                'B'
            } else {
                'W'
            }
        );
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

/// A game as `printsgf` writes it: its start, its moves, no header.
pub fn game_text(game: &Game) -> String {
    write_game(
        game.size(),
        game.komi(),
        game.ruleset(),
        Start::of(game),
        game.record(),
        &Header::default(),
    )
}

/// The largest SGF file read (a collection of tens of thousands of games is tens of MB):
/// a bigger one, or a device that never ends, is refused instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = 128 << 20;

/// The most nodes a game's main line may hold. Real games hold a few hundred; the parser
/// nests every node in the one before, and freeing a much deeper tree overflows a
/// thread's stack.
pub const MAX_MAIN_LINE_NODES: usize = 10_000;

/// An SGF file's bytes, at most [`MAX_FILE_BYTES`] of them.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, SgfError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| SgfError(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| SgfError(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(SgfError(format!(
            "larger than {} MiB",
            MAX_FILE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// The first game tree of `text` cut to its main line (the first variation at every
/// branch): other games and side variations cost nothing to parse, and a main line of
/// more than [`MAX_MAIN_LINE_NODES`] nodes is refused.
pub fn main_line(text: &str) -> Result<String, SgfError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // For each open tree of the main line: whether it has had its first variation.
    let mut open: Vec<bool> = Vec::new();
    let mut nodes = 0;
    let mut k = 0;
    while k < bytes.len() {
        let b = bytes[k];
        if open.is_empty() && b != b'(' {
            k += 1;
            continue;
        }
        match b {
            b'[' => {
                let end = value_end(bytes, k);
                out.extend_from_slice(&bytes[k..end]);
                k = end;
                continue;
            }
            b'(' if open.last() == Some(&true) => {
                k = tree_end(bytes, k).unwrap_or(bytes.len());
                continue;
            }
            b'(' => {
                if let Some(first) = open.last_mut() {
                    *first = true;
                }
                open.push(false);
            }
            b')' => {
                open.pop();
            }
            b if is_name_start(b) => {
                let end = name_end(bytes, k);
                out.extend_from_slice(&bytes[k..end]);
                k = end;
                continue;
            }
            b';' => {
                nodes += 1;
                if nodes > MAX_MAIN_LINE_NODES {
                    return Err(SgfError(format!(
                        "the main line holds more than {MAX_MAIN_LINE_NODES} nodes"
                    )));
                }
            }
            _ => {}
        }
        out.push(b);
        if open.is_empty() {
            break;
        }
        k += 1;
    }
    // Cut only next to ASCII bytes: still UTF-8.
    String::from_utf8(out).map_err(|_| SgfError("not UTF-8".into()))
}

/// Whether `b`, where a token may start, starts a property's name: sgf-parse reads
/// anything but `(`, `)`, `;`, `[` and white space there as a name, up to the next `[`.
fn is_name_start(b: u8) -> bool {
    !matches!(b, b'(' | b')' | b';' | b'[') && !b.is_ascii_whitespace()
}

/// Where the property name starting at `k` ends (at the next `[`).
fn name_end(bytes: &[u8], k: usize) -> usize {
    bytes[k..]
        .iter()
        .position(|&b| b == b'[')
        .map_or(bytes.len(), |i| k + i)
}

/// Where the property value opening at `k` ends (after its `]`, `\` escaping).
fn value_end(bytes: &[u8], mut k: usize) -> usize {
    k += 1;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 2,
            b']' => return k + 1,
            _ => k += 1,
        }
    }
    bytes.len()
}

/// Where the game tree opening at `k` ends (after its `)`); `None` when the text ends
/// first.
pub fn tree_end(bytes: &[u8], mut k: usize) -> Option<usize> {
    let mut depth = 0usize;
    while k < bytes.len() {
        match bytes[k] {
            b'[' => {
                k = value_end(bytes, k);
                continue;
            }
            b if is_name_start(b) => {
                k = name_end(bytes, k);
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
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
    let trees = go::parse(&main_line(text)?).map_err(|e| SgfError(e.to_string()))?;
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
            Start::default(),
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

    // Found by the SGF fuzz target: printsgf dropped the set-up stones of a loaded record.
    #[test]
    fn a_set_up_position_survives_printsgf() {
        let text = "(;SZ[5]AB[aa][bb]AW[cc]PL[W];W[dd](;B[ee])(;B[ed]))";
        let game = read_game(text, Ruleset::Chinese, Until::End).unwrap();
        let written = game_text(&game);
        assert!(
            written.contains("AW[cc]PL[W]") && written.contains("[aa]"),
            "{written}"
        );
        let back = read_game(&written, Ruleset::Chinese, Until::End).unwrap();
        assert_eq!(back.board().hash(), game.board().hash());
        assert_eq!(back.to_move(), game.to_move());
        assert_eq!(back.record(), game.record());
    }

    // GoGui's `gogui-setup_player` before any move hands the set-up's turn over.
    #[test]
    fn a_set_up_positions_turn_handed_over_survives_printsgf() {
        let text = "(;SZ[5]AB[aa][bb]AW[cc]PL[B])";
        let mut game = read_game(text, Ruleset::Chinese, Until::End).unwrap();
        game.set_to_move(Color::White);
        let written = game_text(&game);
        assert!(written.contains("PL[W]"), "{written}");
        let back = read_game(&written, Ruleset::Chinese, Until::End).unwrap();
        assert_eq!(back.to_move(), Color::White);
    }

    /// A game of `nodes` nodes: the root, then passes.
    fn long_game(nodes: usize) -> String {
        let moves: String = (1..nodes)
            .map(|k| if k % 2 == 1 { ";B[]" } else { ";W[]" })
            .collect();
        format!("(;SZ[19]{moves})")
    }

    // Found by the huge-file probes made with the SGF fuzz target: the parser nests every node in the one before, and freeing a
    // main line of 500,000 nodes (or as many nested variations) overflowed the stack.
    #[test]
    fn main_lines_are_bounded_and_side_variations_cost_nothing() {
        // Loaded and freed on a thread with a small stack (rayon's and the test's: 2 MiB).
        let on_small_stack = |text: String| {
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || {
                    read_game(&text, Ruleset::Chinese, Until::End)
                        .map(|g| g.record().len())
                        .map_err(|e| e.0)
                })
                .unwrap()
                .join()
                .expect("no stack overflow")
        };
        assert_eq!(
            on_small_stack(long_game(MAX_MAIN_LINE_NODES)),
            Ok(MAX_MAIN_LINE_NODES - 1)
        );
        let refused = on_small_stack(long_game(MAX_MAIN_LINE_NODES + 1)).unwrap_err();
        assert!(refused.contains("more than 10000 nodes"), "{refused}");
        let nested = format!(
            "(;SZ[19]{}{})",
            "(;C[a]".repeat(200_000),
            ")".repeat(200_000)
        );
        assert!(on_small_stack(nested).is_err());
        // Half a million side variations: only the main line is parsed.
        let wide = format!("(;SZ[19](;B[pd];W[dd]){})", "(;B[aa])".repeat(500_000));
        assert_eq!(on_small_stack(wide), Ok(2));
        // Brackets and parentheses inside values and escapes do not cut the main line.
        let text = "(;SZ[9]C[a ( b \\] c ) ];B[ee](;W[cc]C[(])(;W[dd]))(;SZ[9];B[aa])";
        assert_eq!(
            main_line(text).unwrap(),
            "(;SZ[9]C[a ( b \\] c ) ];B[ee](;W[cc]C[(]))"
        );
        // A property's name runs to its `[` whatever it holds, as the parser reads it.
        let text = "(;SZ[9];B[aa](;W[bb]x)(;B[cc]))";
        assert_eq!(main_line(text).unwrap(), text);
        assert_eq!(
            read_game(text, Ruleset::Chinese, Until::End)
                .unwrap()
                .record()
                .len(),
            3
        );
    }

    #[test]
    fn a_file_larger_than_the_limit_is_refused_without_reading_it_all() {
        let refused = read_file(std::path::Path::new("/dev/zero")).unwrap_err();
        assert!(refused.0.contains("larger than 128 MiB"), "{}", refused.0);
    }
}
