//! README.md against the code: its list of engine options against `yeoul --help`, and its
//! level table's time, playout caps, sight and reads against the level table (issue 60).

use std::collections::BTreeSet;
use std::process::Command;
use yeoul::engine::{Level, Sight};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// The `--long` options in `text`.
fn long_options(text: &str) -> BTreeSet<String> {
    let mut options = BTreeSet::new();
    for (at, _) in text.match_indices("--") {
        let name: String = text[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        if !name.is_empty() {
            options.insert(format!("--{name}"));
        }
    }
    options
}

#[test]
fn the_readme_lists_every_engine_option_of_the_help() {
    let help = Command::new(env!("CARGO_BIN_EXE_yeoul"))
        .arg("--help")
        .output()
        .expect("yeoul --help");
    let help = String::from_utf8_lossy(&help.stdout);
    // The options, not the text of their help: each option line's first words.
    let lines = help.lines().map(str::trim_start);
    let option_lines = lines.filter(|line| line.starts_with('-'));
    let firsts = option_lines.map(|line| {
        line.split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    });
    let mut from_help = long_options(&firsts.collect::<Vec<_>>().join("\n"));
    for general in ["--help", "--version", "--verbose"] {
        assert!(from_help.remove(general), "{general} in the help");
    }
    let text = readme();
    let start = text
        .find("Engine options\n(")
        .expect("README: \"Engine options (\"");
    let end = start
        + text[start..]
            .find(") come before or")
            .expect("the list's end");
    let from_readme = long_options(&text[start..end]);
    assert_eq!(
        from_readme, from_help,
        "README's engine options against --help"
    );
}

/// 1,500.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One value, or the lowest and highest: `8`, `4-7`.
fn span<T: Ord + Copy>(values: impl Iterator<Item = T>, show: impl Fn(T) -> String) -> String {
    let values: Vec<T> = values.collect();
    let (low, high) = (values.iter().min(), values.iter().max());
    match (low, high) {
        (Some(&low), Some(&high)) if low == high => show(low),
        (Some(&low), Some(&high)) => format!("{}-{}", show(low), show(high)),
        _ => String::new(),
    }
}

/// The levels a README row names: `` `18k` ... `15k` ``, `` `easy` (14k) ``, `` `max` ``.
fn levels_of(cell: &str) -> Vec<Level> {
    let names: Vec<&str> = cell.split('`').skip(1).step_by(2).collect();
    let parse = |name: &str| name.parse::<Level>().expect("a level in README's table");
    match names.as_slice() {
        [one] => vec![parse(one)],
        [first, last] if cell.contains("...") => {
            let all: Vec<Level> = Level::all().collect();
            let (a, b) = (parse(first), parse(last));
            let at = |l: Level| all.iter().position(|&x| x == l).expect("a level");
            all[at(a)..=at(b)].to_vec()
        }
        _ => panic!("README's level cell {cell:?}"),
    }
}

/// What README's time, playout cap and sight cells say of `levels`, from the table.
fn cells_of(levels: &[Level]) -> [String; 3] {
    let settings: Vec<_> = levels.iter().map(|l| l.settings()).collect();
    let time = span(settings.iter().map(|s| s.time.as_millis() as u64), |ms| {
        format!("{:.1} s", ms as f64 / 1000.0)
    });
    if settings.iter().any(|s| s.sees == Sight::Everything) {
        return [time, "none: the time decides".into(), "every move".into()];
    }
    let per_size = |column: &dyn Fn(usize) -> String| (0..3).map(column).collect::<Vec<_>>();
    let playouts = per_size(&|size| span(settings.iter().map(|s| s.playouts[size]), thousands));
    let ranks: Vec<(f64, [usize; 3])> = settings
        .iter()
        .map(|s| match s.sees {
            Sight::AsRank {
                share_of_kyu,
                reads,
                ..
            } => (share_of_kyu, reads),
            Sight::Everything => unreachable!("max is answered above"),
        })
        .collect();
    let (first, last) = (ranks[0].0, ranks[ranks.len() - 1].0);
    let share = if first == last {
        format!("{first}")
    } else {
        format!("{first} ... {last}")
    };
    let reads = per_size(&|size| span(ranks.iter().map(|r| r.1[size]), |n| n.to_string()));
    let reads = if reads.iter().all(|r| *r == reads[0]) {
        reads[0].clone()
    } else {
        reads.join(" / ")
    };
    [time, playouts.join(" / "), format!("{share}, {reads}")]
}

#[test]
fn the_readmes_level_table_says_what_the_table_holds() {
    let text = readme();
    let header = "| level | time per move (no clock) | playout cap 9x9 / 13x13 / 19x19 | sees as";
    let start = text.find(header).expect("README's level table");
    let rows = text[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'));
    let mut covered = Vec::new();
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let levels = levels_of(cells[1]);
        let [time, playouts, sight] = cells_of(&levels);
        assert_eq!(cells[2], time, "{row}");
        assert_eq!(cells[3], playouts, "{row}");
        let said = cells[4].split(';').next().expect("a cell");
        assert_eq!(said, sight, "{row}");
        covered.extend(levels);
    }
    assert_eq!(
        covered,
        Level::all().collect::<Vec<_>>(),
        "every level once, in order"
    );
}
