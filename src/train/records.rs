//! Game records for training: SGF files and collections (many games in one file), or
//! folders of them. A record that cannot be a clean 19x19 even game (broken SGF, another
//! size, handicap or set-up stones, an illegal move, moves out of turn) is skipped and
//! counted, with its file named on stderr; reading never panics.

use crate::rules::{Board, BoardSize, Color, Point, Suicide};
use rayon::prelude::*;
use sgf_parse::go::{self, Prop};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// One game: its moves (`None` a pass), its date (`YYYY-MM-DD` when the record has one),
/// its result when the record gives one, and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub moves: Vec<Option<Point>>,
    pub date: Option<String>,
    pub result: Option<Outcome>,
    pub source: String,
}

/// Who won a game and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub winner: Color,
    pub ending: Ending,
}

/// How a game ended: only a resignation or a count says who stood better on the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ending {
    Resignation,
    /// Counted, by this many points (komi included).
    Counted(f32),
    /// On time, by forfeit, or the opponent left: the board did not decide it.
    Time,
    Forfeit,
    /// The winner is given but not how (`B+`).
    Unknown,
}

impl Outcome {
    /// SGF's `RE` (and Tygem's results, which use the same words): `B+R`, `W+Resign`,
    /// `B+12.5`, `W+T`, `W+Time`, `B+F`, `B+Offline`, `B+`. `None` for a draw, a void
    /// game, `?` or anything else.
    pub fn parse(text: &str) -> Option<Outcome> {
        let text = text.trim();
        let (winner, how) = match text.split_once('+')? {
            (w, how) if w.eq_ignore_ascii_case("b") => (Color::Black, how),
            (w, how) if w.eq_ignore_ascii_case("w") => (Color::White, how),
            _ => return None,
        };
        let how = how.trim();
        let ending = match how.to_ascii_lowercase().as_str() {
            "r" | "resign" => Ending::Resignation,
            "t" | "time" => Ending::Time,
            "f" | "forfeit" | "offline" => Ending::Forfeit,
            "" => Ending::Unknown,
            number => match number.parse::<f32>() {
                Ok(points) if points.is_finite() && points > 0.0 => Ending::Counted(points),
                _ => return None,
            },
        };
        Some(Outcome { winner, ending })
    }

    /// Whether the board decided the game (a resignation or a count), so that a position
    /// of it can be labelled with the winner.
    pub fn on_the_board(&self) -> bool {
        matches!(self.ending, Ending::Resignation | Ending::Counted(_))
    }
}

impl Record {
    /// The colour that plays move `i` (Black first: even games only).
    pub fn color(i: usize) -> Color {
        if i.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// Why a record was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    Unreadable,
    NotSgf,
    NotNineteen,
    Handicap,
    OutOfTurn,
    IllegalMove,
    NoMoves,
    TooLong,
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Skip::Unreadable => "unreadable file",
            Skip::NotSgf => "broken SGF",
            Skip::NotNineteen => "not 19x19",
            Skip::Handicap => "handicap or set-up stones",
            Skip::OutOfTurn => "moves out of turn",
            Skip::IllegalMove => "illegal move",
            Skip::NoMoves => "no moves",
            Skip::TooLong => "main line too long",
        })
    }
}

/// What reading found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadReport {
    pub files: usize,
    pub games: usize,
    pub skipped: BTreeMap<Skip, usize>,
}

impl ReadReport {
    pub fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }
}

impl fmt::Display for ReadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} files, {} games read, {} skipped",
            self.files,
            self.games,
            self.skipped_total()
        )?;
        for (why, n) in &self.skipped {
            write!(f, "; {n} {why}")?;
        }
        Ok(())
    }
}

/// SGF files under `paths` (folders searched recursively for `*.sgf`), in a fixed order.
pub fn sgf_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            collect(path, &mut files);
        } else {
            files.push(path.clone());
        }
    }
    files
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        log::warn!("cannot read the folder {}", dir.display());
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            out.push(p);
        }
    }
}

/// Every game of every file, in file order, and what was skipped.
pub fn read_records(
    files: &[PathBuf],
    mut progress: impl FnMut(usize),
) -> (Vec<Record>, ReadReport) {
    let mut report = ReadReport {
        files: files.len(),
        ..ReadReport::default()
    };
    let mut records = Vec::new();
    for file in files {
        let bytes = match crate::sgf::read_file(file) {
            Ok(b) => b,
            Err(e) => {
                log::warn!("skipped {}: {e}", file.display());
                *report.skipped.entry(Skip::Unreadable).or_default() += 1;
                continue;
            }
        };
        let name = file.display().to_string();
        let results = read_collection(&String::from_utf8_lossy(&bytes), &name);
        if results.is_empty() {
            log::warn!("skipped {}: no game in the file", file.display());
            *report.skipped.entry(Skip::NotSgf).or_default() += 1;
            continue;
        }
        let games = results.len();
        for (k, result) in results.into_iter().enumerate() {
            match result {
                Ok(record) => {
                    report.games += 1;
                    records.push(record);
                }
                Err(why) => {
                    log::warn!("skipped {name} game {}: {why}", k + 1);
                    *report.skipped.entry(why).or_default() += 1;
                }
            }
        }
        progress(games);
    }
    (records, report)
}

/// Every game of one file's text (a collection, or one game), each read or the reason it
/// was skipped; none when the text holds no game tree. `name` names the file.
pub fn read_collection(text: &str, name: &str) -> Vec<Result<Record, Skip>> {
    split_collection(text)
        .par_iter()
        .enumerate()
        .map(|(k, tree)| read_record(tree, &format!("{name}#{}", k + 1)))
        .collect()
}

/// The game trees of a collection, as texts: each top-level `( ... )`, its end found by
/// the SGF reader's own scan (values, with their brackets and parentheses, escaped or
/// not, and property names skipped over); an unterminated last tree is left out.
pub fn split_collection(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut trees = Vec::new();
    let mut k = 0;
    while let Some(start) = bytes[k..].iter().position(|&b| b == b'(').map(|i| k + i) {
        let Some(end) = crate::sgf::tree_end(bytes, start) else {
            break;
        };
        trees.push(&text[start..end]);
        k = end;
    }
    trees
}

/// One game tree's main line as a record.
pub fn read_record(text: &str, source: &str) -> Result<Record, Skip> {
    let main_line = crate::sgf::main_line(text).map_err(|_| Skip::TooLong)?;
    let trees = go::parse(&main_line).map_err(|_| Skip::NotSgf)?;
    let root = trees.first().ok_or(Skip::NotSgf)?;
    let mut date = None;
    let mut result = None;
    for prop in root.properties() {
        match prop {
            Prop::SZ((19, 19)) => {}
            Prop::SZ(_) => return Err(Skip::NotNineteen),
            Prop::HA(h) if *h >= 2 => return Err(Skip::Handicap),
            Prop::DT(text) => date = normalise_date(&text.text),
            Prop::RE(text) => result = Outcome::parse(&text.text),
            _ => {}
        }
    }
    let size = BoardSize::NINETEEN;
    let mut board = Board::new(size);
    let mut moves = Vec::new();
    for node in root.main_variation() {
        for prop in node.properties() {
            let (color, m) = match prop {
                Prop::AB(_) | Prop::AW(_) | Prop::AE(_) => return Err(Skip::Handicap),
                Prop::B(m) => (Color::Black, m),
                Prop::W(m) => (Color::White, m),
                Prop::Invalid(id, _) if id == "B" || id == "W" => return Err(Skip::NotSgf),
                _ => continue,
            };
            if color != Record::color(moves.len()) {
                return Err(Skip::OutOfTurn);
            }
            let point = match m {
                go::Move::Pass => None,
                go::Move::Move(p) if (p.x, p.y) == (19, 19) => None,
                go::Move::Move(p) => {
                    let (x, y) = (p.x as usize, p.y as usize);
                    let point = size
                        .point(x, 18usize.checked_sub(y).ok_or(Skip::IllegalMove)?)
                        .map_err(|_| Skip::IllegalMove)?;
                    board
                        .play(point, color, Suicide::Forbidden)
                        .map_err(|_| Skip::IllegalMove)?;
                    Some(point)
                }
            };
            if point.is_none() {
                board.clear_ko();
            }
            moves.push(point);
        }
    }
    if moves.iter().all(Option::is_none) {
        return Err(Skip::NoMoves);
    }
    Ok(Record {
        moves,
        date,
        result,
        source: source.to_string(),
    })
}

/// `2003.09.25`, `2003-09-25` or `2003/09/25,...` as `2003-09-25`.
pub fn normalise_date(text: &str) -> Option<String> {
    let t: String = text.trim().chars().take(10).collect();
    let t = t.replace(['.', '/'], "-");
    let ok = t.len() == 10
        && t.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    ok.then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_splits_into_its_games_whatever_the_values_hold() {
        let text = "(;GM[1]C[a ) and a \\] inside];B[aa])\n(;B[bb](;W[cc])(;W[dd]))junk(";
        let trees = split_collection(text);
        assert_eq!(trees.len(), 2);
        assert!(trees[1].ends_with("(;W[dd]))"));
    }

    #[test]
    fn good_records_read_and_bad_ones_say_why() {
        let good = read_record("(;SZ[19]DT[2005.03.01];B[pd];W[dp];B[];W[pp])", "t").expect("ok");
        assert_eq!(good.moves.len(), 4);
        assert_eq!(good.moves[2], None);
        assert_eq!(good.date.as_deref(), Some("2005-03-01"));
        let cases = [
            ("(;SZ[9];B[ee])", Skip::NotNineteen),
            ("(;SZ[19]HA[3];W[pd])", Skip::Handicap),
            ("(;SZ[19]AB[dd][pp];W[pd])", Skip::Handicap),
            ("(;SZ[19];B[pd];B[dd])", Skip::OutOfTurn),
            ("(;SZ[19];B[pd];W[pd])", Skip::IllegalMove),
            ("(;SZ[19]C[nothing])", Skip::NoMoves),
            ("(;SZ[19];B[pd", Skip::NotSgf),
            ("\u{0}\u{1}garbage", Skip::NotSgf),
        ];
        for (text, why) in cases {
            assert_eq!(read_record(text, "t"), Err(why), "{text}");
        }
    }

    #[test]
    fn results_read_from_sgf_and_tygem_words() {
        let game = read_record("(;SZ[19]RE[W+12.5];B[pd];W[dp])", "t").expect("ok");
        let white_by = |ending| {
            Some(Outcome {
                winner: Color::White,
                ending,
            })
        };
        assert_eq!(game.result, white_by(Ending::Counted(12.5)));
        let black = |ending| {
            Some(Outcome {
                winner: Color::Black,
                ending,
            })
        };
        let cases = [
            ("B+R", black(Ending::Resignation)),
            ("B+Resign", black(Ending::Resignation)),
            ("W+T", white_by(Ending::Time)),
            ("W+Time", white_by(Ending::Time)),
            ("b+Offline", black(Ending::Forfeit)),
            ("B+F", black(Ending::Forfeit)),
            ("W+", white_by(Ending::Unknown)),
            ("W+0.5", white_by(Ending::Counted(0.5))),
            ("0", None),
            ("Draw", None),
            ("Void", None),
            ("?", None),
            ("X+R", None),
            ("B+-3", None),
            ("B+nan", None),
            ("B+inf", None),
        ];
        for (text, outcome) in cases {
            assert_eq!(Outcome::parse(text), outcome, "{text}");
        }
        let on_board: Vec<bool> = ["B+R", "W+3.5", "W+T", "B+Offline", "B+"]
            .iter()
            .map(|t| Outcome::parse(t).unwrap().on_the_board())
            .collect();
        assert_eq!(on_board, [true, true, false, false, false]);
    }

    #[test]
    fn a_folder_with_broken_files_is_read_with_the_skips_counted() {
        let dir = std::env::temp_dir().join(format!("yeoul-records-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("temp dir");
        std::fs::write(dir.join("a.sgf"), "(;SZ[19];B[pd];W[dd])(;SZ[13];B[dd])").expect("write");
        std::fs::write(dir.join("sub/b.SGF"), [0xff, 0xfe, 0x00, b'(', b';']).expect("write");
        std::fs::write(dir.join("empty.sgf"), "").expect("write");
        std::fs::write(dir.join("notes.txt"), "(;SZ[19];B[pd])").expect("write");
        let files = sgf_files(std::slice::from_ref(&dir));
        assert_eq!(files.len(), 3);
        let (records, report) = read_records(&files, |_| {});
        assert_eq!(records.len(), 1);
        assert_eq!(report.games, 1);
        assert_eq!(report.skipped.get(&Skip::NotNineteen), Some(&1));
        assert_eq!(report.skipped_total(), 3);
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
