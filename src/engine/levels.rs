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
    /// Pass first when the count wins or far ahead (`passing.rs`, cases 3 and 4); without
    /// it, only where no move changes the count.
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

/// The sizes on which the ranks see the board with the policy network (bit n: n x n):
/// 19x19, where their rungs are measured with it; on 9x9 and 13x13 they see with the
/// learned model, as their ladders there were measured (the network is on there for
/// `max` alone).
pub const RANKS_SEE_WITH_NETWORK: u32 = 1 << 19;

/// Which moves a level considers at the root of its search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sight {
    /// Every legal move (`max`).
    Everything,
    /// The moves a player of kyu rank `kyu` sees (`seen::RankSight`: KaTrain's count,
    /// drawn at random, and the obvious and urgent moves), of which the search reads the
    /// policy's `reads` favourites; a move not read is played when a search of every move
    /// finds it `notices` better in win rate than all of them (what matters that much, a
    /// player of the rank notices; 0: whatever the search finds better).
    AsRank {
        kyu: f64,
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

impl Impression {
    /// The first impression of `rank` itself, on `share` of its moves, played unless
    /// `within` worse.
    pub fn at(rank: Rank, within: f32, share: [f32; 3]) -> Impression {
        Impression {
            kyu: f64::from(rank.kyu()),
            within,
            share,
        }
    }
}

/// A level's resignation threshold: the win rate below which, two moves in a row, it
/// resigns.
const RESIGN_BELOW: f32 = 0.08;

/// How much better in win rate a move a rank did not read must be for it to be played,
/// up to 8k (`normal`), and at every rank on 9x9; stronger ranks notice more on 13x13
/// and 19x19 (the table).
const NOTICES: f32 = 0.15;

/// The weak levels' draw among the nearly best of what they read ("sometimes the
/// second-best move").
const DRAWS: Choice = Choice {
    temperature: 1.0,
    max_loss: 0.05,
    min_visits_share: 0.2,
};

/// `normal`'s first impression: on a fifth of its moves on 19x19, played unless 0.05
/// worse in win rate than the best move read. It takes 5 stones from Pachi with its
/// resignation off and wins 15 of 30 with it, 34 of 50 without; on 9x9 and 13x13 its
/// rungs were inside without one.
const NORMAL_FIRST: Option<([f32; 3], f32)> = Some(([0.0, 0.0, 0.2], 0.05));

/// One rank of the level table.
struct Row {
    rank: Rank,
    /// The most a move may think without a clock: the time of the nearest named level at
    /// or above it.
    time_ms: u64,
    /// Playout caps on 9x9, 13x13, 19x19.
    playouts: [u64; 3],
    /// The kyu rank whose share of the board it sees (KaTrain's k, 1 dan 0), and whose
    /// threshold for an obvious favourite it uses.
    sees_as: i8,
    /// How many of the moves it sees, the policy's favourites, its search reads, on 9x9,
    /// 13x13, 19x19.
    reads: [usize; 3],
    /// How much better in win rate a move not read must be for it to be played, on 9x9,
    /// 13x13, 19x19.
    notices: [f32; 3],
    choice: Choice,
    /// On this share of its moves (on 9x9, 13x13, 19x19) plays its first impression
    /// unless it is this much worse in win rate than the best move read (`Impression`:
    /// share, within); `None`: always the search's move.
    impression: Option<([f32; 3], f32)>,
    /// Reads the endgame's small fights exactly, resigns hopeless games and passes first
    /// when the count wins or far ahead (the pass judge, `passing.rs`): the levels from
    /// `normal` up, as `normal`. Weaker ones follow `easy` (RULES.md §8): they never
    /// resign and never pass first while a move on the board changes the count, because
    /// a player of their rank who sees the computer pass takes the game for over, and a
    /// level that plays a lost game to the end has no reason to end a won one early.
    plays_it_out: bool,
}

impl Row {
    fn settings(&self) -> LevelSettings {
        LevelSettings {
            time: Duration::from_millis(self.time_ms),
            playouts: self.playouts,
            choice: self.choice,
            sees: Sight::AsRank {
                kyu: f64::from(self.sees_as),
                reads: self.reads,
                notices: self.notices,
                impression: self
                    .impression
                    .map(|(share, within)| Impression::at(self.rank, within, share)),
            },
            reads_endgame: self.plays_it_out,
            resign_below: self.plays_it_out.then_some(RESIGN_BELOW),
            pass_when_won: self.plays_it_out,
            network: false,
        }
    }
}

#[allow(clippy::too_many_arguments)]
const fn row(
    rank: i8,
    time_ms: u64,
    playouts: [u64; 3],
    sees_as: i8,
    reads: [usize; 3],
    notices_13_19: f32,
    choice: Choice,
    impression: Option<([f32; 3], f32)>,
    plays_it_out: bool,
) -> Row {
    Row {
        rank: Rank(rank),
        time_ms,
        playouts,
        sees_as,
        reads,
        notices: [NOTICES, notices_13_19, notices_13_19],
        choice,
        impression,
        plays_it_out,
    }
}

/// The level table, weakest first. Times: the nearest named level's at or above the rank
/// (`easy` 0.3 s, `normal` 1.2 s, `hard` and `max` 2.8 s). What a rank sees is a larger
/// share of the board than KaTrain's count at its own rank: at KaTrain's 8k share
/// `normal` lost 10 of 10 even games to the previous `normal` (ARCHITECTURE.md "Levels";
/// `benchmarks/journal/2026-12-05-issue-42-levels-as-ranks.md` has the measurements that set these columns). On 9x9
/// the ranks above `normal` read more of the learned model's favourites: reading 8,
/// `hard` won 9 of 30 giving `normal` 2 stones (below its rung), reading 16 inside it.
/// On 13x13 and 19x19 they notice more of what they did not read: noticing only 0.15
/// better, `hard` won 7 of 30 giving `normal` 3 stones on 13x13 (reading 16 or all it
/// saw no better) and 5 of 13 even against Pachi on 19x19; noticing whatever its search
/// found better, 13 of 30 and 20 of 30 (BENCHMARKS.md). On 19x19, `12k`'s playouts set
/// its rung: taking 9 stones from Pachi with its resignation off it wins 16 of 30 with
/// 1,500 (8 of 30 with 1,200; the earlier caps in BENCHMARKS.md). The rows below it have
/// 0.3 of the caps they had when `12k` had 4,000 (`easy` takes 2 stones from this `12k`
/// and wins 13 of 30); 11k to 9k keep the steps set from its former 1,200 up to
/// `normal`'s 8,000, not measured. 18k sees as -8, where it takes 4 stones from `easy`
/// and wins 19 of 30 (seeing as 5: 0 of 11); 17k to 15k step evenly from it to `easy`'s
/// -20. `normal` plays its first impression on a fifth of its moves on 19x19
/// (`NORMAL_FIRST`), where without one it was above its rung; no other rank has one yet
/// (a first impression took `12k` far below its rung even on a fifth of its moves).
#[rustfmt::skip]
const TABLE: [Row; 18] = [
    //  rank  ms   playouts 9x9, 13x13, 19x19  sees as  reads 9x9, 13x13, 19x19  notices on 13, 19  choice  impression  plays it out
    row(18,  300, [   500,    700,     450],   -8,     [ 4,  4,  4],   0.15,          DRAWS,        None,        false),
    row(17,  300, [   650,    850,     540],  -11,     [ 5,  5,  5],   0.15,          DRAWS,        None,        false),
    row(16,  300, [   800,  1_000,     660],  -14,     [ 6,  6,  6],   0.15,          DRAWS,        None,        false),
    row(15,  300, [ 1_000,  1_200,     780], -17,     [ 7,  7,  7],   0.15,          DRAWS,        None,        false),
    row(14,  300, [ 1_200,  1_500,     900], -20,     [ 8,  8,  8],   0.15,          DRAWS,        None,        false), // easy
    row(13, 1200, [ 1_600,  2_000,   1_050], -20,     [ 8,  8,  8],   0.15,          Choice::BEST, None,        false),
    row(12, 1200, [ 2_000,  2_500,   1_500], -20,     [ 8,  8,  8],   0.15,          Choice::BEST, None,        false),
    row(11, 1200, [ 2_600,  3_000,   1_900], -21,     [ 8,  8,  8],   0.15,          Choice::BEST, None,        false),
    row(10, 1200, [ 3_300,  3_500,   3_000], -21,     [ 8,  8,  8],   0.15,          Choice::BEST, None,        false),
    row( 9, 1200, [ 4_000,  4_000,   4_800], -22,     [ 8,  8,  8],   0.15,          Choice::BEST, None,        false),
    row( 8, 1200, [ 5_000,  4_500,   8_000], -22,     [ 8,  8,  8],   0.15,          Choice::BEST, NORMAL_FIRST, true),  // normal
    row( 7, 2800, [ 6_500,  5_500,  12_000], -22,     [ 9,  8,  8],  0.125,          Choice::BEST, None,        true),
    row( 6, 2800, [ 8_500,  6_500,  17_000], -23,     [10,  8,  8],    0.1,          Choice::BEST, None,        true),
    row( 5, 2800, [11_000,  8_000,  24_000], -23,     [11,  8,  8],  0.075,          Choice::BEST, None,        true),
    row( 4, 2800, [14_500,  9_500,  32_000], -24,     [12,  8,  8],   0.05,          Choice::BEST, None,        true),
    row( 3, 2800, [19_000, 11_000,  42_000], -24,     [14,  8,  8],  0.025,          Choice::BEST, None,        true),
    row( 2, 2800, [25_000, 12_000,  56_000], -25,     [16,  8,  8],    0.0,          Choice::BEST, None,        true),  // hard
    row( 1, 2800, [35_000, 16_000,  80_000], -28,     [18, 10, 10],    0.0,          Choice::BEST, None,        true),
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
        assert_eq!(levels.len(), TABLE.len() + 1);
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
        let named_time = |rank: Rank| {
            // The time of the nearest named level at or above the rank.
            let named = Level::NAMED.iter().map(|&(_, level)| level);
            let next = named
                .filter(|level| level.rank().is_none_or(|r| r <= rank))
                .max_by_key(|level| level.rank().map_or(i8::MIN, |r| r.0));
            next.expect("max is above every rank").settings().time
        };
        for pair in TABLE.windows(2) {
            let (weaker, stronger) = (&pair[0], &pair[1]);
            assert!(stronger.rank < weaker.rank, "weakest first");
            assert!(stronger.sees_as <= weaker.sees_as);
            for size in 0..3 {
                assert!(stronger.reads[size] >= weaker.reads[size]);
                assert!(stronger.notices[size] <= weaker.notices[size]);
                assert!((0.0..=1.0).contains(&stronger.notices[size]));
                assert!(
                    stronger.playouts[size] >= weaker.playouts[size],
                    "{:?}",
                    stronger.rank
                );
            }
        }
        for row in &TABLE {
            let settings = row.settings();
            assert!(settings.time <= named_time(row.rank), "{}", row.rank.name());
            assert!(settings.time <= Duration::from_millis(2800));
            // Ranks weaker than normal never resign and never pass first (RULES.md §8).
            if row.rank > Rank(8) {
                assert_eq!(settings.resign_below, None, "{}", row.rank.name());
                assert!(!settings.pass_when_won);
            }
        }
        assert_eq!(Level::EASY.settings().resign_below, None);
        assert!(Level::NORMAL.settings().resign_below.is_some());
        assert_eq!(Level::MAX.settings().sees, Sight::Everything);
    }
}
