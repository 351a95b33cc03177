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
        (n >= 1 && TABLE.iter().any(|row| row.level == Level::Rank(rank))).then_some(rank)
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
    /// Where it uses the policy network.
    pub network: NetworkSizes,
    /// Small endgame fights are read out exactly (`referee::endgame`): a weak player
    /// does not count the last points.
    pub reads_endgame: bool,
    /// Resign when the win rate stays below this on two moves in a row (`None`: never).
    pub resign_below: Option<f32>,
    /// Pass first when the count wins or far ahead (`passing.rs`, cases 3 and 4); without
    /// it, only where no move changes the count.
    pub pass_when_won: bool,
}

/// The board sizes on which a level uses the policy network (bit n: n x n), where the
/// engine has it for the size (`--net-sizes`, by default 9x9, 13x13 and 19x19).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetworkSizes {
    /// Its search takes the network's priors.
    pub priors: u32,
    /// Its own policy, what a rank sees the board with and what `yeoul-policy` shows, is
    /// the network's (elsewhere the learned model's).
    pub sight: u32,
}

impl NetworkSizes {
    /// Every size the engine has the network for.
    pub const EVERY_SIZE: u32 = u32::MAX;

    /// Whether `mask` holds boards of `n` x `n`.
    pub fn on(mask: u32, n: usize) -> bool {
        u32::try_from(n)
            .ok()
            .and_then(|n| 1u32.checked_shl(n))
            .is_some_and(|bit| mask & bit != 0)
    }

    /// The mask of the board sizes `sizes` (those over 31 left out).
    pub fn mask(sizes: &[usize]) -> u32 {
        let bit = |n: usize| u32::try_from(n).ok().and_then(|n| 1u32.checked_shl(n));
        sizes
            .iter()
            .filter_map(|&n| bit(n))
            .fold(0, |all, one| all | one)
    }
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
        TABLE.iter().map(|row| row.level)
    }

    /// What `--level` and `yeoul-difficulty` take, for help and error texts.
    pub fn valid_values() -> String {
        let names: Vec<String> = Level::NAMED.iter().map(|(_, l)| l.label()).collect();
        let ranks: Vec<Rank> = Level::all().filter_map(Level::rank).collect();
        let range = match (ranks.first(), ranks.last()) {
            (Some(w), Some(s)) => format!(", or a rank from {} to {}", w.name(), s.name()),
            _ => String::new(),
        };
        format!("{}{range}", names.join(", "))
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

    /// What the level plays with: its row of the table.
    pub fn settings(self) -> LevelSettings {
        self.row().settings
    }

    /// Where its row's numbers come from.
    pub fn basis(self) -> Basis {
        self.row().basis
    }

    fn row(self) -> &'static LevelRow {
        TABLE
            .iter()
            .find(|row| row.level == self)
            .expect("a level is made only from the table")
    }
}

impl LevelSettings {
    /// The playout cap on a board of `size`: the entry for the nearest of 9x9, 13x13 and
    /// 19x19.
    pub fn playout_cap(&self, size: BoardSize) -> u64 {
        for_size(self.playouts, size)
    }
}

/// The entry of a per-size column (9x9, 13x13, 19x19) for the nearest of those sizes.
pub fn for_size<T: Copy>(column: [T; 3], size: BoardSize) -> T {
    match size.get() {
        0..=10 => column[0],
        11..=15 => column[1],
        _ => column[2],
    }
}

/// Which moves a level considers at the root of its search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sight {
    /// Every legal move (`max`).
    Everything,
    /// The moves a player of a rank sees (`seen::RankSight`: KaTrain's count, drawn at
    /// random, and the obvious and urgent moves), of which the search reads the policy's
    /// `reads` favourites; a move not read is played when a search of every move finds it
    /// `notices` better in win rate than all of them (what matters that much, a player of
    /// the rank notices; 0: whatever the search finds better).
    AsRank {
        /// The share of the board it sees: the share KaTrain's rule gives a player of this
        /// kyu (KaTrain's k, 1 dan 0), not the rank's own.
        share_of_kyu: f64,
        /// On 9x9, 13x13 and 19x19 (other sizes take the nearest).
        reads: [usize; 3],
        /// On 9x9, 13x13 and 19x19.
        notices: [f32; 3],
        /// Whether it plays its first impression (`Impression`).
        impression: Option<Impression>,
    },
}

/// A rank's first impression of a position: KaTrain's pick at the rank's own kyu (the
/// policy's favourite of the few moves a player of that rank would look at, drawn from
/// the same random order as the moves it sees, or the obvious and urgent moves). The
/// search reads it with the others, and it is played unless its win rate is more than
/// `within` below the best move read: people of a rank play their first impression
/// most of the time, and their reading catches the blunders it can (a weaker player's
/// fewer). KaTrain's rule alone, with this network, loses most games to the rank it
/// names (ARCHITECTURE.md "Levels"), so a rank trusts its first impression on only a
/// `share` of its moves (drawn with the moves it sees) and plays the search's move on
/// the others.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impression {
    /// KaTrain's k of the rank.
    pub kyu: f64,
    /// The most win rate it gives up against the best move read.
    pub within: f32,
    /// The share of its moves on which it has one (0 to 1) on 9x9, 13x13, 19x19.
    pub share: [f32; 3],
}

/// One level of the table: what it plays with, each knob by name, and where the numbers
/// come from.
pub struct LevelRow {
    pub level: Level,
    pub basis: Basis,
    pub settings: LevelSettings,
}

/// Where a row's numbers come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Basis {
    /// Set by matches against programs outside the project or the measured rows: the
    /// anchors (`id="..."`) of its rungs in BENCHMARKS.md.
    Measured(&'static [&'static str]),
    /// Set by steps between the measured rows around it; not measured.
    Interpolated,
}

/// A level's resignation threshold: the win rate below which, two moves in a row, it
/// resigns.
const RESIGN_BELOW: f32 = 0.08;

/// How much better in win rate a move a rank did not read must be for it to be played,
/// up to 8k (`normal`), and at every rank on 9x9; stronger ranks notice more on 13x13
/// and 19x19.
const NOTICES: f32 = 0.15;

/// The weak levels' draw among the nearly best of what they read ("sometimes the
/// second-best move").
const DRAWS: Choice = Choice {
    temperature: 1.0,
    max_loss: 0.05,
    min_visits_share: 0.2,
};

/// A rank's time a move without a clock: that of the nearest named level at or above it.
const EASY_TIME: Duration = Duration::from_millis(300);
const NORMAL_TIME: Duration = Duration::from_millis(1200);
const HARD_TIME: Duration = Duration::from_millis(2800);

/// The ranks see the board with the network on 19x19, where their rungs are measured
/// with it; on 9x9 and 13x13 with the learned model, as their ladders there were measured.
/// Their search takes the learned model's priors.
const RANKS_NETWORK: NetworkSizes = NetworkSizes {
    priors: 0,
    sight: 1 << 19,
};

const fn rank(kyu: i8) -> Level {
    Level::Rank(Rank(kyu))
}

/// The level table, weakest first, `max` last. Why the numbers are what they are (the
/// measurements are in BENCHMARKS.md "The ranks", whose anchors each measured row names):
/// - A rank sees a larger share of the board than KaTrain's count at its own rank
///   (`share_of_kyu`): at KaTrain's 8k share `normal` lost 10 of 10 even games to the
///   earlier `normal`. `18k` sees as -8, where it takes 4 stones from `easy` inside its
///   rung; 17k to 15k step evenly from it to `easy`'s -20.
/// - On 19x19 the playouts set the rungs: `12k`'s 1,500 take 9 stones from Pachi; the
///   rows below `12k` and the rows from 11k to 9k step between measured caps.
/// - On 9x9 the ranks above `normal` read more of the learned model's favourites (`hard`
///   reading 8 fell below its rung giving `normal` 2 stones, reading 16 is inside it); on
///   13x13 and 19x19 they notice more of what they did not read (`hard` noticing only
///   0.15 better fell below its rungs there, noticing whatever its search finds better is
///   inside them).
/// - `normal` plays its first impression on a fifth of its moves on 19x19, played unless
///   0.05 worse in win rate than the best move read: without one it stood above its rung.
///   A first impression took `12k` far below its rung even on a fifth of its moves, so no
///   other rank has one.
/// - The ranks below `normal` never resign and never pass first while a move on the board
///   changes the count (the pass judge, `passing.rs`; RULES.md §8): a player of their rank
///   who sees the computer pass takes the game for over, and a level that plays a lost
///   game to the end has no reason to end a won one early. From `normal` up they read the
///   endgame's small fights exactly, resign hopeless games and pass first when won.
/// - `max`: every move seen, the network everywhere, no playout cap (its time, `--time`
///   or the clock's share decides).
#[rustfmt::skip]
const TABLE: [LevelRow; 19] = [
    LevelRow { level: rank(18), basis: Basis::Measured(&["rung-18k"]), settings: LevelSettings {
        time: EASY_TIME, playouts: [500, 700, 450], choice: DRAWS, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -8.0, reads: [4, 4, 4], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(17), basis: Basis::Interpolated, settings: LevelSettings {
        time: EASY_TIME, playouts: [650, 850, 540], choice: DRAWS, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -11.0, reads: [5, 5, 5], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(16), basis: Basis::Interpolated, settings: LevelSettings {
        time: EASY_TIME, playouts: [800, 1_000, 660], choice: DRAWS, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -14.0, reads: [6, 6, 6], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(15), basis: Basis::Interpolated, settings: LevelSettings {
        time: EASY_TIME, playouts: [1_000, 1_200, 780], choice: DRAWS, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -17.0, reads: [7, 7, 7], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    // easy
    LevelRow { level: rank(14), basis: Basis::Measured(&["rung-easy", "rung-9x9-normal", "rung-13x13-normal"]), settings: LevelSettings {
        time: EASY_TIME, playouts: [1_200, 1_500, 900], choice: DRAWS, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -20.0, reads: [8, 8, 8], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(13), basis: Basis::Interpolated, settings: LevelSettings {
        time: NORMAL_TIME, playouts: [1_600, 2_000, 1_050], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -20.0, reads: [8, 8, 8], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(12), basis: Basis::Measured(&["rung-12k"]), settings: LevelSettings {
        time: NORMAL_TIME, playouts: [2_000, 2_500, 1_500], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -20.0, reads: [8, 8, 8], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(11), basis: Basis::Interpolated, settings: LevelSettings {
        time: NORMAL_TIME, playouts: [2_600, 3_000, 1_900], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -21.0, reads: [8, 8, 8], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(10), basis: Basis::Interpolated, settings: LevelSettings {
        time: NORMAL_TIME, playouts: [3_300, 3_500, 3_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -21.0, reads: [8, 8, 8], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    LevelRow { level: rank(9), basis: Basis::Interpolated, settings: LevelSettings {
        time: NORMAL_TIME, playouts: [4_000, 4_000, 4_800], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -22.0, reads: [8, 8, 8], notices: [NOTICES; 3], impression: None },
        reads_endgame: false, resign_below: None, pass_when_won: false } },
    // normal
    LevelRow { level: rank(8), basis: Basis::Measured(&["rung-normal", "rung-9x9-normal", "rung-13x13-normal", "rung-9x9-hard", "rung-13x13-hard"]), settings: LevelSettings {
        time: NORMAL_TIME, playouts: [5_000, 4_500, 8_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -22.0, reads: [8, 8, 8], notices: [NOTICES; 3],
            impression: Some(Impression { kyu: 8.0, within: 0.05, share: [0.0, 0.0, 0.2] }) },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    LevelRow { level: rank(7), basis: Basis::Interpolated, settings: LevelSettings {
        time: HARD_TIME, playouts: [6_500, 5_500, 12_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -22.0, reads: [9, 8, 8], notices: [NOTICES, 0.125, 0.125], impression: None },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    LevelRow { level: rank(6), basis: Basis::Interpolated, settings: LevelSettings {
        time: HARD_TIME, playouts: [8_500, 6_500, 17_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -23.0, reads: [10, 8, 8], notices: [NOTICES, 0.1, 0.1], impression: None },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    LevelRow { level: rank(5), basis: Basis::Measured(&["rung-5k"]), settings: LevelSettings {
        time: HARD_TIME, playouts: [11_000, 8_000, 24_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -23.0, reads: [11, 8, 8], notices: [NOTICES, 0.075, 0.075], impression: None },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    LevelRow { level: rank(4), basis: Basis::Interpolated, settings: LevelSettings {
        time: HARD_TIME, playouts: [14_500, 9_500, 32_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -24.0, reads: [12, 8, 8], notices: [NOTICES, 0.05, 0.05], impression: None },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    LevelRow { level: rank(3), basis: Basis::Interpolated, settings: LevelSettings {
        time: HARD_TIME, playouts: [19_000, 11_000, 42_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -24.0, reads: [14, 8, 8], notices: [NOTICES, 0.025, 0.025], impression: None },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    // hard
    LevelRow { level: rank(2), basis: Basis::Measured(&["rung-hard", "rung-9x9-hard", "rung-13x13-hard"]), settings: LevelSettings {
        time: HARD_TIME, playouts: [25_000, 12_000, 56_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -25.0, reads: [16, 8, 8], notices: [NOTICES, 0.0, 0.0], impression: None },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    LevelRow { level: rank(1), basis: Basis::Interpolated, settings: LevelSettings {
        time: HARD_TIME, playouts: [35_000, 16_000, 80_000], choice: Choice::BEST, network: RANKS_NETWORK,
        sees: Sight::AsRank { share_of_kyu: -28.0, reads: [18, 10, 10], notices: [NOTICES, 0.0, 0.0], impression: None },
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
    LevelRow { level: Level::Max, basis: Basis::Measured(&["strength-of-max"]), settings: LevelSettings {
        time: HARD_TIME, playouts: [u64::MAX; 3], choice: Choice::BEST,
        network: NetworkSizes { priors: NetworkSizes::EVERY_SIZE, sight: NetworkSizes::EVERY_SIZE },
        sees: Sight::Everything,
        reads_endgame: true, resign_below: Some(RESIGN_BELOW), pass_when_won: true } },
];

/// Changes to a rank's row of the table for the matches that calibrate it
/// (`--level-set KEY=VALUE`, GTP `yeoul-level_set`; `None`: the table's value). They
/// apply to the ranks, not to `max`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LevelChanges {
    /// `share-of-kyu`: the kyu whose share of the board the rank sees.
    pub share_of_kyu: Option<f64>,
    /// `reads`: how many of the moves seen the search reads.
    pub reads: Option<usize>,
    /// `notices`: how much better in win rate a move not read must be to be played.
    pub notices: Option<f32>,
    /// `playouts`: the playout cap on every board size (the level's time still bounds a
    /// move).
    pub playouts: Option<u64>,
    /// `network-priors`: the policy network's priors in the search, on every size.
    pub network_priors: Option<bool>,
    /// `impression-within`: how much worse in win rate its first impression may be and
    /// still be played (`Impression`; negative: none).
    pub impression_within: Option<f32>,
    /// `impression-share`: the share of its moves on which a rank has a first impression,
    /// on every size (0 to 1; with `impression-within` and no share, the table's share, or
    /// every move for a rank with none).
    pub impression_share: Option<f32>,
}

/// The keys `--level-set` and `yeoul-level_set` take, with the values each takes.
pub const LEVEL_SET_KEYS: [(&str, &str); 7] = [
    ("share-of-kyu", "a kyu from 30 to -30, 1 dan being 0"),
    ("reads", "a count from 1 to 361"),
    ("notices", "a win rate from 0 to 1"),
    ("playouts", "a count from 1 to 100000000"),
    ("network-priors", "true or false"),
    (
        "impression-within",
        "a win rate from 0 to 1, or -1 for never",
    ),
    ("impression-share", "a share from 0 to 1"),
];

impl LevelChanges {
    /// Sets one `key=value`; an unknown key or a value out of range is refused, with the
    /// valid keys, and nothing changes.
    pub fn set(&mut self, setting: &str) -> Result<(), String> {
        let valid = || {
            let keys: Vec<String> = LEVEL_SET_KEYS
                .iter()
                .map(|(key, values)| format!("{key} ({values})"))
                .collect();
            format!("the keys are {}", keys.join(", "))
        };
        let Some((key, value)) = setting.split_once('=') else {
            return Err(format!("{setting:?} is not KEY=VALUE: {}", valid()));
        };
        let Some(&(_, values)) = LEVEL_SET_KEYS.iter().find(|(k, _)| *k == key) else {
            return Err(format!("unknown key {key:?}: {}", valid()));
        };
        let bad = || format!("{key} takes {values}, not {value:?}; {}", valid());
        let number = |low: f64, high: f64| {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| (low..=high).contains(v))
                .ok_or_else(bad)
        };
        let count = |high: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=high).contains(n))
                .ok_or_else(bad)
        };
        match key {
            "share-of-kyu" => self.share_of_kyu = Some(number(-30.0, 30.0)?),
            "reads" => self.reads = Some(count(361)? as usize),
            "notices" => self.notices = Some(number(0.0, 1.0)? as f32),
            "playouts" => self.playouts = Some(count(100_000_000)?),
            "network-priors" => self.network_priors = Some(value.parse().map_err(|_| bad())?),
            "impression-within" => {
                let within = number(-1.0, 1.0)?;
                if within < 0.0 && within != -1.0 {
                    return Err(bad());
                }
                self.impression_within = Some(within as f32);
            }
            "impression-share" => self.impression_share = Some(number(0.0, 1.0)? as f32),
            _ => unreachable!("every key of LEVEL_SET_KEYS is matched"),
        }
        Ok(())
    }

    /// The changes made, as `key=value`, in the order of [`LEVEL_SET_KEYS`].
    pub fn listed(&self) -> Vec<String> {
        let values = [
            self.share_of_kyu.map(|v| v.to_string()),
            self.reads.map(|v| v.to_string()),
            self.notices.map(|v| v.to_string()),
            self.playouts.map(|v| v.to_string()),
            self.network_priors.map(|v| v.to_string()),
            self.impression_within.map(|v| v.to_string()),
            self.impression_share.map(|v| v.to_string()),
        ];
        let keys = LEVEL_SET_KEYS.iter().map(|(key, _)| key);
        keys.zip(values)
            .filter_map(|(key, value)| Some(format!("{key}={}", value?)))
            .collect()
    }

    /// `level`'s settings with these changes.
    pub fn apply(&self, level: Level) -> LevelSettings {
        let mut settings = level.settings();
        if let (
            Sight::AsRank {
                share_of_kyu,
                reads,
                notices,
                impression,
            },
            Level::Rank(rank),
        ) = (&mut settings.sees, level)
        {
            let share = self
                .impression_share
                .map(|share| [share; 3])
                .or(impression.map(|i| i.share))
                .unwrap_or([1.0; 3]);
            match self.impression_within {
                Some(within) => {
                    *impression = (within >= 0.0).then_some(Impression {
                        kyu: f64::from(rank.kyu()),
                        within,
                        share,
                    })
                }
                None => {
                    if let Some(impression) = impression {
                        impression.share = share;
                    }
                }
            }
            *notices = self.notices.map_or(*notices, |n| [n; 3]);
            *share_of_kyu = self.share_of_kyu.unwrap_or(*share_of_kyu);
            *reads = self.reads.map_or(*reads, |r| [r; 3]);
            if let Some(playouts) = self.playouts {
                settings.playouts = [playouts; 3];
            }
            if let Some(priors) = self.network_priors {
                settings.network.priors = if priors { NetworkSizes::EVERY_SIZE } else { 0 };
            }
        }
        settings
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_rank_parses_and_prints_back() {
        for (name, level) in Level::NAMED {
            assert_eq!(name.parse(), Ok(level));
            assert_eq!(name.to_uppercase().parse(), Ok(level));
            assert_eq!(level.to_string(), name);
        }
        assert_eq!("14k".parse(), Ok(Level::EASY));
        assert_eq!("8K".parse(), Ok(Level::NORMAL));
        assert_eq!("2k".parse(), Ok(Level::HARD));
        let levels: Vec<Level> = Level::all().collect();
        assert_eq!(levels.len(), 19, "18 ranks and max");
        for level in levels {
            assert_eq!(level.to_string().parse(), Ok(level), "{level}");
            if let Some(rank) = level.rank() {
                assert_eq!(rank.name().parse(), Ok(level));
            }
        }
        assert_eq!(Level::EASY.label(), "easy (14k)");
        assert_eq!("10k".parse::<Level>().map(Level::label), Ok("10k".into()));
        assert_eq!(Rank(0).name(), "1d");
    }

    #[test]
    fn values_off_the_scale_are_refused_with_the_valid_ones() {
        for bad in [
            "19k", "0k", "10x", "", "max2", "1d", "k", "-3k", "100k", "easy ",
        ] {
            let error = bad.parse::<Level>().expect_err(bad);
            assert!(error.contains(&Level::valid_values()), "{bad:?}: {error}");
        }
        assert_eq!(
            Level::valid_values(),
            "easy (14k), normal (8k), hard (2k), max, or a rank from 18k to 1k"
        );
    }

    #[test]
    fn the_table_rises_with_the_rank_and_keeps_the_named_levels_time() {
        let named_time = |level: Level| {
            // The time of the nearest named level at or above it.
            let named = Level::NAMED.iter().map(|&(_, level)| level);
            let at_or_above = |named: &Level| match (named.rank(), level.rank()) {
                (None, _) => true,
                (Some(n), Some(r)) => n <= r,
                (Some(_), None) => false,
            };
            let next = named
                .filter(at_or_above)
                .max_by_key(|level| level.rank().map_or(i8::MIN, |r| r.0));
            next.expect("max is above every rank").settings().time
        };
        let ranks = &TABLE[..TABLE.len() - 1];
        assert_eq!(TABLE[TABLE.len() - 1].level, Level::Max, "max last");
        for pair in ranks.windows(2) {
            let (weaker, stronger) = (&pair[0].settings, &pair[1].settings);
            assert!(pair[1].level.rank() < pair[0].level.rank(), "weakest first");
            let (
                Sight::AsRank {
                    share_of_kyu: weaker_share,
                    reads: weaker_reads,
                    notices: weaker_notices,
                    ..
                },
                Sight::AsRank {
                    share_of_kyu,
                    reads,
                    notices,
                    ..
                },
            ) = (weaker.sees, stronger.sees)
            else {
                panic!("a rank sees as a rank");
            };
            assert!(share_of_kyu <= weaker_share);
            for size in 0..3 {
                assert!(reads[size] >= weaker_reads[size]);
                assert!(notices[size] <= weaker_notices[size]);
                assert!((0.0..=1.0).contains(&notices[size]));
                assert!(stronger.playouts[size] >= weaker.playouts[size]);
            }
        }
        for row in &TABLE {
            let (level, settings) = (row.level, &row.settings);
            assert_eq!(settings.time, named_time(level), "{level}");
            // Ranks weaker than normal never resign and never pass first (RULES.md §8);
            // from normal up they do all three.
            let plays_it_out = level.rank().is_none_or(|rank| rank <= Rank(8));
            assert_eq!(settings.resign_below.is_some(), plays_it_out, "{level}");
            assert_eq!(settings.pass_when_won, plays_it_out, "{level}");
            assert_eq!(settings.reads_endgame, plays_it_out, "{level}");
        }
        assert_eq!(Level::EASY.settings().resign_below, None);
        assert!(Level::NORMAL.settings().resign_below.is_some());
        assert_eq!(Level::MAX.settings().sees, Sight::Everything);
    }

    /// A heading's anchor as GitHub makes it.
    fn slug(heading: &str) -> String {
        let words = heading.trim_start_matches('#').trim().to_lowercase();
        let kept = words
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-');
        kept.collect::<String>().replace(' ', "-")
    }

    fn read(path: &str) -> String {
        let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The anchors of BENCHMARKS.md: its headings' and its `id="..."`s, each with the line
    /// it is on.
    fn benchmark_anchors() -> Vec<(String, String)> {
        let mut anchors = Vec::new();
        for line in read("BENCHMARKS.md").lines() {
            if line.starts_with('#') {
                anchors.push((slug(line), line.into()));
            }
            for (at, _) in line.match_indices("id=\"") {
                if let Some((id, _)) = line[at + 4..].split_once('"') {
                    anchors.push((id.into(), line.into()));
                }
            }
        }
        anchors
    }

    #[test]
    fn every_measured_row_names_benchmark_entries_that_exist() {
        let anchors = benchmark_anchors();
        let mut measured = 0;
        for level in Level::all() {
            let Basis::Measured(names) = level.basis() else {
                continue;
            };
            measured += 1;
            assert!(!names.is_empty(), "{level}: measured by nothing");
            for name in names {
                let found = anchors.iter().find(|(anchor, _)| anchor == name);
                let (_, line) = found.unwrap_or_else(|| panic!("{level}: no anchor {name:?}"));
                if line.starts_with('|') {
                    // A rung's row links the journal entry that it comes from, which exists.
                    let link = line.split("](").nth(1).and_then(|l| l.split_once(')'));
                    let (link, _) = link.unwrap_or_else(|| panic!("{level}: no link in {line}"));
                    let (file, anchor) = link.split_once('#').expect("a link to an entry");
                    let headings = read(file);
                    let found = headings.lines().filter(|l| l.starts_with('#'));
                    assert!(found.map(slug).any(|s| s == anchor), "{level}: {link}");
                }
            }
        }
        // 18k, easy, 12k, normal, 5k, hard and max.
        assert_eq!(measured, 7);
    }

    #[test]
    fn level_set_takes_the_known_keys_and_refuses_the_rest_with_them() {
        let mut changes = LevelChanges::default();
        for setting in [
            "share-of-kyu=-8",
            "reads=16",
            "notices=0",
            "playouts=1500",
            "network-priors=true",
            "impression-within=-1",
            "impression-share=0.2",
        ] {
            changes.set(setting).expect(setting);
        }
        assert_eq!(changes.share_of_kyu, Some(-8.0));
        assert_eq!(changes.reads, Some(16));
        assert_eq!(changes.playouts, Some(1500));
        assert_eq!(changes.network_priors, Some(true));
        assert_eq!(
            changes.listed().join(" "),
            "share-of-kyu=-8 reads=16 notices=0 playouts=1500 network-priors=true \
             impression-within=-1 impression-share=0.2"
        );
        let before = changes;
        for bad in [
            "sees-as=-8",
            "reads",
            "=3",
            "reads=0",
            "reads=-2",
            "reads=many",
            "notices=1.5",
            "playouts=0",
            "network-priors=yes",
            "impression-within=-0.5",
            "impression-share=NaN",
            "share-of-kyu=31",
        ] {
            let error = changes.set(bad).expect_err(bad);
            assert_eq!(changes, before, "{bad}: nothing changes");
            assert!(
                error.contains("the keys are share-of-kyu ("),
                "{bad}: {error}"
            );
        }
        let unknown = changes.set("sees-as=-8").expect_err("unknown");
        for (key, _) in LEVEL_SET_KEYS {
            assert!(unknown.contains(key), "{unknown}");
        }
    }

    #[test]
    fn level_changes_apply_to_the_ranks_not_to_max() {
        let mut changes = LevelChanges::default();
        changes.set("reads=3").expect("reads");
        changes.set("network-priors=true").expect("priors");
        let easy = changes.apply(Level::EASY);
        assert!(matches!(
            easy.sees,
            Sight::AsRank {
                reads: [3, 3, 3],
                ..
            }
        ));
        assert_eq!(easy.network.priors, NetworkSizes::EVERY_SIZE);
        assert_eq!(changes.apply(Level::MAX), Level::MAX.settings());
        assert_eq!(
            LevelChanges::default().apply(Level::HARD),
            Level::HARD.settings()
        );
    }
}
