//! The Tygem games between 9-dan players of `yenw/computer-go-dataset` (`TYGEM/`), read
//! where they lie once unzipped (`scripts/tygem.sh`): month files named `YYYY-MM`, one
//! game a line (`id<TAB>;B[pd];W[dd]...`), and index files named `*.index`, one game a
//! line of eleven tab-separated fields (id, date, White's two names and nation, Black's,
//! result, move count, time control). The two are joined by id.
//!
//! Read in Rust, beside the SGF reader, rather than converted by a script: each game is
//! replayed by the same reader as the SGF games (`records::read_record`: moves out of
//! turn, illegal moves and handicap stones skipped), and its positions are exported with
//! the network's input planes from the one code that computes them in play.
//!
//! Kept: games whose result the board decided (a resignation or a count). Dropped and
//! counted: games lost on time or by leaving (`Time`, `Offline`), draws and unknown
//! results, games without an index line, broken lines; nothing panics.

use super::records::{self, Ending, Outcome, Record, Skip};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

/// What reading the Tygem files found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TygemReport {
    pub index_files: usize,
    pub month_files: usize,
    /// Index lines read, and those that were not eleven fields with a numeric id.
    pub index_lines: usize,
    pub broken_index_lines: usize,
    /// Game lines read, and those without an id and a tab, or whose moves are not SGF.
    pub game_lines: usize,
    pub broken_game_lines: usize,
    /// Games with no index line.
    pub without_index: usize,
    /// Games whose result is a draw, unknown, or not decided on the board, by kind.
    pub dropped: BTreeMap<&'static str, usize>,
    /// Games the record reader refused (handicap, moves out of turn, illegal moves...).
    pub skipped: BTreeMap<Skip, usize>,
    /// Games kept.
    pub games: usize,
}

impl fmt::Display for TygemReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} index files ({} lines, {} broken), {} month files ({} lines, {} broken); \
             {} games kept; {} without an index line",
            self.index_files,
            self.index_lines,
            self.broken_index_lines,
            self.month_files,
            self.game_lines,
            self.broken_game_lines,
            self.games,
            self.without_index
        )?;
        for (why, n) in &self.dropped {
            write!(f, "; {n} {why}")?;
        }
        for (why, n) in &self.skipped {
            write!(f, "; {n} {why}")?;
        }
        Ok(())
    }
}

/// One index line's date (`YYYY-MM-DD`) and result.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexEntry {
    pub date: Option<String>,
    pub result: Option<Outcome>,
}

/// An index line: its id and entry, or `None` when it is not eleven fields with a
/// numeric id.
pub fn parse_index_line(line: &str) -> Option<(u64, IndexEntry)> {
    let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split('\t').collect();
    if fields.len() != 11 {
        return None;
    }
    let id = fields[0].trim().parse().ok()?;
    let date = records::normalise_date(fields[1].trim().trim_start_matches('C'));
    let result = Outcome::parse(fields[8]);
    Some((id, IndexEntry { date, result }))
}

/// Why a game with an index line is not kept, for the report.
fn dropped_as(result: Option<Outcome>) -> Option<&'static str> {
    match result.map(|r| r.ending) {
        Some(Ending::Resignation | Ending::Counted(_)) => None,
        Some(Ending::Time) => Some("lost on time"),
        Some(Ending::Forfeit) => Some("left (Offline)"),
        Some(Ending::Unknown) => Some("winner without how"),
        None => Some("draw or no result"),
    }
}

/// The index and month files under `paths` (folders searched recursively), each list in
/// a fixed order.
pub fn tygem_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut all = Vec::new();
    for path in paths {
        collect(path, &mut all);
    }
    all.sort();
    let is_month = |p: &Path| {
        p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            n.len() == 7
                && n.bytes().enumerate().all(|(i, b)| {
                    if i == 4 {
                        b == b'-'
                    } else {
                        b.is_ascii_digit()
                    }
                })
        })
    };
    let is_index = |p: &Path| p.extension().is_some_and(|e| e == "index");
    let index = all.iter().filter(|p| is_index(p)).cloned().collect();
    let months = all.iter().filter(|p| is_month(p)).cloned().collect();
    (index, months)
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        log::warn!("cannot read the folder {}", path.display());
        return;
    };
    for entry in entries.flatten() {
        collect(&entry.path(), out);
    }
}

/// Reads the Tygem games under `paths`: the games kept, in the order of their month
/// files and lines, each with its date and result, and what was dropped.
pub fn read_tygem(paths: &[PathBuf]) -> (Vec<Record>, TygemReport) {
    let (index_files, month_files) = tygem_files(paths);
    let mut report = TygemReport {
        index_files: index_files.len(),
        month_files: month_files.len(),
        ..TygemReport::default()
    };
    let mut index: HashMap<u64, IndexEntry> = HashMap::new();
    for file in &index_files {
        let Ok(bytes) = std::fs::read(file) else {
            log::warn!("cannot read {}", file.display());
            continue;
        };
        for line in String::from_utf8_lossy(&bytes).lines() {
            report.index_lines += 1;
            match parse_index_line(line) {
                Some((id, entry)) => {
                    index.entry(id).or_insert(entry);
                }
                None => report.broken_index_lines += 1,
            }
        }
    }
    let mut games = Vec::new();
    for file in &month_files {
        let Ok(bytes) = std::fs::read(file) else {
            log::warn!("cannot read {}", file.display());
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        report.game_lines += lines.len();
        let read: Vec<Result<Record, Refused>> = lines
            .par_iter()
            .map(|line| read_game_line(line, &index))
            .collect();
        for game in read {
            match game {
                Ok(record) => games.push(record),
                Err(Refused::Broken) => report.broken_game_lines += 1,
                Err(Refused::WithoutIndex) => report.without_index += 1,
                Err(Refused::Dropped(why)) => *report.dropped.entry(why).or_default() += 1,
                Err(Refused::Skipped(why)) => *report.skipped.entry(why).or_default() += 1,
            }
        }
    }
    report.games = games.len();
    (games, report)
}

/// Why a game line gave no record.
enum Refused {
    Broken,
    WithoutIndex,
    Dropped(&'static str),
    Skipped(Skip),
}

fn read_game_line(line: &str, index: &HashMap<u64, IndexEntry>) -> Result<Record, Refused> {
    let (id, moves) = line.split_once('\t').ok_or(Refused::Broken)?;
    let id: u64 = id.trim().parse().map_err(|_| Refused::Broken)?;
    let entry = index.get(&id).ok_or(Refused::WithoutIndex)?;
    if let Some(why) = dropped_as(entry.result) {
        return Err(Refused::Dropped(why));
    }
    let sgf = format!("(;SZ[19]{})", moves.trim());
    let mut record =
        records::read_record(&sgf, &format!("tygem {id}")).map_err(|why| match why {
            Skip::NotSgf | Skip::TooLong => Refused::Broken,
            why => Refused::Skipped(why),
        })?;
    record.date = entry.date.clone();
    record.result = entry.result;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;

    /// Index lines as the dataset writes them (names in several scripts, `\r\n`).
    const INDEX: &str = "82259393\tC2006.01.01 00:00\t\u{d55c}\tznfhfpfk\t0\t\u{9f99}\tlongsheng\t2\tW+2.5\t263\t30/3 20m\r\n\
        82259396\tC2006.01.01 00:00\tx\twriting\t0\tm\tmicrosoft\t0\tB+Resign\t288\t10/3 10m\r\n\
        82259397\tC2006.01.02 00:00\tx\ta\t0\tm\tb\t0\tB+Time\t120\t10/3 10m\r\n\
        82259398\tC2006.01.02 00:00\tx\ta\t0\tm\tb\t0\tW+Offline\t90\t10/3 10m\r\n\
        82259399\tC2006.01.03 00:00\tx\ta\t0\tm\tb\t0\tDraw\t90\t10/3 10m\r\n\
        82259400\tC2006.01.03 00:00\tx\ta\t0\tm\tb\t0\tB+Resign\t90\t10/3 10m\r\n\
        82259401\tC2006.01.03 00:00\tx\ta\t0\tm\tb\t0\tW+Resign\t90\t10/3 10m\r\n\
        not an index line\r\n\
        12x\tC2006.01.03 00:00\tx\ta\t0\tm\tb\t0\tW+Resign\t90\t10/3 10m\r\n";

    const MONTH: &str = "82259393\t;B[pd];W[dd];B[pp];W[dp];B[]\n\
        82259396\t;B[qd];W[dc];B[pq]\n\
        82259397\t;B[qd];W[dc]\n\
        82259398\t;B[qd];W[dc]\n\
        82259399\t;B[qd];W[dc]\n\
        82259400\t;B[pd];B[dd];W[pp]\n\
        82259401\t;B[pd];W[pd]\n\
        82259402\t;B[pd];W[dd]\n\
        no tab here\n\
        82259403x\t;B[pd]\n\
        82259393\t;B[pd;W[dd]\n";

    #[test]
    fn index_lines_give_the_date_and_result_and_broken_ones_none() {
        let (id, entry) = parse_index_line(INDEX.lines().next().unwrap()).expect("a line");
        assert_eq!(id, 82_259_393);
        assert_eq!(entry.date.as_deref(), Some("2006-01-01"));
        let white = Outcome {
            winner: Color::White,
            ending: Ending::Counted(2.5),
        };
        assert_eq!(entry.result, Some(white));
        for broken in [
            "",
            "not an index line",
            "1\t2\t3",
            "12x\tC2006.01.03\ta\tb\tc\td\te\tf\tW+R\t9\tx",
        ] {
            assert_eq!(parse_index_line(broken), None, "{broken:?}");
        }
    }

    #[test]
    fn games_are_joined_to_their_results_and_the_rest_dropped_and_counted() {
        let dir = std::env::temp_dir().join(format!("yeoul-tygem-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("index")).unwrap();
        std::fs::write(dir.join("index/Kifu2006.index"), INDEX).unwrap();
        std::fs::write(dir.join("2006-01"), MONTH).unwrap();
        // Neither an index nor a month file: not read.
        std::fs::write(dir.join("2006-01.zip"), [0x50, 0x4b, 3, 4]).unwrap();
        let (games, report) = read_tygem(std::slice::from_ref(&dir));
        assert_eq!((report.index_files, report.month_files), (1, 1));
        assert_eq!((report.index_lines, report.broken_index_lines), (9, 2));
        assert_eq!((report.game_lines, report.broken_game_lines), (11, 3));
        assert_eq!(report.without_index, 1, "82259402");
        assert_eq!(report.dropped.get("lost on time"), Some(&1));
        assert_eq!(report.dropped.get("left (Offline)"), Some(&1));
        assert_eq!(report.dropped.get("draw or no result"), Some(&1));
        assert_eq!(
            report.skipped.get(&Skip::OutOfTurn),
            Some(&1),
            "a handicap-like start"
        );
        assert_eq!(report.skipped.get(&Skip::IllegalMove), Some(&1));
        assert_eq!(report.games, 2);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 5);
        assert_eq!(games[0].moves[4], None, "B[] is a pass");
        assert_eq!(games[0].date.as_deref(), Some("2006-01-01"));
        assert_eq!(games[0].result.map(|r| r.winner), Some(Color::White));
        assert_eq!(
            games[1].result,
            Some(Outcome {
                winner: Color::Black,
                ending: Ending::Resignation
            })
        );
        let text = report.to_string();
        assert!(
            text.contains("2 games kept") && text.contains("1 lost on time"),
            "{text}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_files_and_unreadable_folders_read_as_nothing() {
        let missing = std::env::temp_dir().join("yeoul-tygem-missing-folder");
        let (games, report) = read_tygem(&[missing]);
        assert!(games.is_empty());
        assert_eq!(report.games, 0);
    }
}
