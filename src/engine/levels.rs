//! The levels: one table of what each plays with, and their names.

use crate::rules::BoardSize;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A level: a rank on the scale (18 kyu up), or `max`. `easy`, `normal` and `hard`
/// are the names of 14k, 8k and 2k (RULES.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Rank(Rank),
    /// Full strength: the policy network on, every move seen, the level's or the clock's
    /// time.
    Max,
}

impl Default for Level {
    fn default() -> Level {
        Level::NORMAL
    }
}

/// A rank as a kyu number, KaTrain's k: 18 is 18 kyu, 1 is 1 kyu, 0 would be 1 dan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(i8);

impl Rank {
    /// The kyu number (KaTrain's k: 1 dan is 0, 3 dan -2).
    pub fn kyu(self) -> i32 {
        i32::from(self.0)
    }

    /// `14k`, `1d`.
    pub fn name(self) -> String {
        if self.0 >= 1 {
            format!("{}k", self.0)
        } else {
            format!("{}d", 1 - self.0)
        }
    }

    /// The rank `name` stands for (`14k`, `1d`; any case), if it is on the scale.
    fn parse(name: &str) -> Option<Rank> {
        let lower = name.to_ascii_lowercase();
        let (digits, kyu) = match lower.strip_suffix('k') {
            Some(d) => (d, true),
            None => (lower.strip_suffix('d')?, false),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return None;
        }
        let n: i8 = digits.parse().ok()?;
        let rank = Rank(if kyu { n } else { 1 - n });
        (n >= 1 && TABLE.iter().any(|row| row.rank == rank)).then_some(rank)
    }
}

/// What a level is: all of it in one struct, so levels are values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSettings {
    /// Thinking time per move when no clock is set: the most a move may take.
    pub time: Duration,
    /// How far the level reads: a playout cap per move on 9x9, 13x13 and 19x19 (other
    /// sizes take the nearest), so that strength depends little on the machine.
    pub playouts: [u64; 3],
    /// How the level picks among the search's candidates.
    pub choice: Choice,
    /// The moves it considers.
    pub sees: Sight,
    /// Small endgame fights are read out exactly (`referee::endgame`): a weak player
    /// does not count the last points.
    pub reads_endgame: bool,
    /// Resign when the win rate stays below this on two moves in a row (`None`: never).
    pub resign_below: Option<f32>,
    /// Pass first when far ahead (only when the pass is safe).
    pub pass_when_won: bool,
    /// The policy network's priors (when the engine has a network for the board size).
    pub network: bool,
}

/// A level's move choice: the best move, or one drawn among the moves the search found
/// nearly as good, as a weaker player picks a plausible move rather than the best one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// 0: the search's best move. Above 0: a candidate drawn with weight
    /// visits^(1/temperature) (1: in proportion to the visits).
    pub temperature: f64,
    /// A drawn candidate loses at most this much win rate against the best.
    pub max_loss: f32,
    /// ... and has at least this share of the best's visits.
    pub min_visits_share: f64,
}

impl Choice {
    pub const BEST: Choice = Choice {
        temperature: 0.0,
        max_loss: 0.0,
        min_visits_share: 1.0,
    };
}

impl Level {
    pub const EASY: Level = Level::Rank(Rank(14));
    pub const NORMAL: Level = Level::Rank(Rank(8));
    pub const HARD: Level = Level::Rank(Rank(2));
    pub const MAX: Level = Level::Max;

    /// The named levels, weakest first.
    pub const NAMED: [(&'static str, Level); 4] = [
        ("easy", Level::EASY),
        ("normal", Level::NORMAL),
        ("hard", Level::HARD),
        ("max", Level::MAX),
    ];

    /// Every level, weakest first: the ranks of the table, then `max`.
    pub fn all() -> impl Iterator<Item = Level> {
        TABLE
            .iter()
            .map(|row| Level::Rank(row.rank))
            .chain([Level::Max])
    }

    /// What `--level` and `yeoul-difficulty` take, for help and error texts.
    pub fn valid_values() -> String {
        let ranks: Vec<Rank> = Level::all().filter_map(Level::rank).collect();
        let (weakest, strongest) = (ranks.first(), ranks.last());
        let range = match (weakest, strongest) {
            (Some(w), Some(s)) => format!(", or a rank from {} to {}", w.name(), s.name()),
            _ => String::new(),
        };
        format!("easy (14k), normal (8k), hard (2k), max{range}")
    }

    /// The level's rank (`None` for `max`).
    pub fn rank(self) -> Option<Rank> {
        match self {
            Level::Rank(rank) => Some(rank),
            Level::Max => None,
        }
    }

    /// Its name: `easy`, `normal`, `hard`, `max`, or the rank (`10k`).
    pub fn name(self) -> String {
        match Level::NAMED.iter().find(|(_, level)| *level == self) {
            Some((name, _)) => name.to_string(),
            None => self.rank().map_or_else(|| "max".into(), Rank::name),
        }
    }

    /// The name with the rank it stands for: `easy (14k)`, `10k`, `max`.
    pub fn label(self) -> String {
        match (Level::NAMED.iter().any(|(_, l)| *l == self), self.rank()) {
            (true, Some(rank)) => format!("{} ({})", self.name(), rank.name()),
            _ => self.name(),
        }
    }

    /// What the level plays with (the table below; ranks are measured in BENCHMARKS.md).
    pub fn settings(self) -> LevelSettings {
        match self {
            Level::Rank(rank) => {
                let row = TABLE
                    .iter()
                    .find(|row| row.rank == rank)
                    .expect("a rank is made only from the table");
                row.settings()
            }
            // No playout cap: the time (2.8 s, --time, or the clock's share) decides.
            Level::Max => LevelSettings {
                time: Duration::from_millis(2800),
                playouts: [u64::MAX; 3],
                choice: Choice::BEST,
                sees: Sight::Everything,
                reads_endgame: true,
                resign_below: Some(RESIGN_BELOW),
                pass_when_won: true,
                network: true,
            },
        }
    }

    /// The playout cap on a board of `size`: the table's entry for the nearest of 9x9,
    /// 13x13 and 19x19.
    pub fn playout_cap(self, size: BoardSize) -> u64 {
        let caps = self.settings().playouts;
        match size.get() {
            0..=10 => caps[0],
            11..=15 => caps[1],
            _ => caps[2],
        }
    }
}

/// Which moves a level considers at the root of its search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sight {
    /// Every legal move (`max`).
    Everything,
    /// The moves a player of this kyu rank sees (`seen::seen_moves`: KaTrain's count,
    /// drawn at random, and the obvious moves).
    AsRank(i32),
}

/// A level's resignation threshold: the win rate below which, two moves in a row, it
/// resigns.
const RESIGN_BELOW: f32 = 0.08;

/// The weak levels' draw among the nearly best of what they see ("sometimes the
/// second-best move").
const DRAWS: Choice = Choice {
    temperature: 1.0,
    max_loss: 0.05,
    min_visits_share: 0.2,
};

/// One rank of the level table.
struct Row {
    rank: Rank,
    /// The most a move may think without a clock: the next stronger named level's time
    /// or less.
    time_ms: u64,
    /// Playout caps on 9x9, 13x13, 19x19.
    playouts: [u64; 3],
    /// The kyu rank whose share of the board it sees (KaTrain's k; its own rank unless
    /// a measurement moved it).
    sees_as: i8,
    choice: Choice,
    /// Reads the endgame's small fights exactly, resigns hopeless games and passes first
    /// when won: the levels from `normal` up. Weaker ones never resign (RULES.md §8).
    plays_it_out: bool,
}

impl Row {
    fn settings(&self) -> LevelSettings {
        LevelSettings {
            time: Duration::from_millis(self.time_ms),
            playouts: self.playouts,
            choice: self.choice,
            sees: Sight::AsRank(i32::from(self.sees_as)),
            reads_endgame: self.plays_it_out,
            resign_below: self.plays_it_out.then_some(RESIGN_BELOW),
            pass_when_won: self.plays_it_out,
            network: false,
        }
    }
}

const fn row(
    rank: i8,
    time_ms: u64,
    playouts: [u64; 3],
    choice: Choice,
    plays_it_out: bool,
) -> Row {
    Row {
        rank: Rank(rank),
        time_ms,
        playouts,
        sees_as: rank,
        choice,
        plays_it_out,
    }
}

/// The level table, weakest first. Times: the next stronger named level's (`easy`
/// 0.3 s, `normal` 1.2 s, `hard` and `max` 2.8 s). Playout caps between the named
/// levels' by geometric steps. BENCHMARKS.md "Levels" has the measurements.
#[rustfmt::skip]
const TABLE: [Row; 18] = [
    //  rank  ms     9x9     13x13   19x19    choice        plays it out
    row(18,  300, [   250,    300,    350], DRAWS,       false),
    row(17,  300, [   350,    420,    500], DRAWS,       false),
    row(16,  300, [   500,    600,    700], DRAWS,       false),
    row(15,  300, [   700,    850,  1_000], DRAWS,       false),
    row(14,  300, [ 1_000,  1_200,  1_400], DRAWS,       false), // easy
    row(13, 1200, [ 1_200,  1_450,  1_500], Choice::BEST, false),
    row(12, 1200, [ 1_450,  1_700,  1_600], Choice::BEST, false),
    row(11, 1200, [ 1_750,  2_050,  1_700], Choice::BEST, false),
    row(10, 1200, [ 2_100,  2_450,  1_800], Choice::BEST, false),
    row( 9, 1200, [ 2_500,  2_900,  1_900], Choice::BEST, false),
    row( 8, 1200, [ 3_000,  3_500,  2_000], Choice::BEST, true),  // normal
    row( 7, 2800, [ 4_300,  4_300,  3_500], Choice::BEST, true),
    row( 6, 2800, [ 6_100,  5_300,  6_000], Choice::BEST, true),
    row( 5, 2800, [ 8_600,  6_500, 10_500], Choice::BEST, true),
    row( 4, 2800, [12_000,  8_000, 18_500], Choice::BEST, true),
    row( 3, 2800, [17_500,  9_800, 32_000], Choice::BEST, true),
    row( 2, 2800, [25_000, 12_000, 56_000], Choice::BEST, true),  // hard
    row( 1, 2800, [35_000, 15_000, 80_000], Choice::BEST, true),
];

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        let named = Level::NAMED
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(s))
            .map(|&(_, level)| level);
        named
            .or_else(|| Rank::parse(s).map(Level::Rank))
            .ok_or_else(|| format!("unknown level {s:?}: {}", Level::valid_values()))
    }
}
