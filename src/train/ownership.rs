//! The final ownership of a counted game: who owns each point of its last board, as the
//! arbiter judges it, a dense target for the value head (one result a game is too little
//! signal for a small network on two cores: issue 59's journal). Resigned games have no
//! final ownership (the board was not played out).
//!
//! The arbiter counts the final board as Tygem counted it (territory, komi 6.5); a board
//! whose count does not give the recorded winner, or differs from the recorded margin by
//! more than [`TOLERANCE`] points, gives no ownership: the arbiter misjudged it, or the
//! players agreed something the board does not show.

use super::records::{Ending, Record};
use crate::referee::{Effort, judge};
use crate::rules::{BoardSize, Color, Game, Move, Ruleset};
use std::fmt;

/// The arbiter's search playouts a side. At 1,000 (a fifth of its effort in play) it
/// gave the recorded winner of 198 of 200 counted Tygem games and the margin within 2
/// points for 192, as at 5,000, in a quarter of the time (114 ms a board on one thread);
/// at 300, 197 and 190 (`examples/final_ownership_probe`, `PROBE_PLAYOUTS`).
pub const PLAYOUTS: u64 = 1_000;
/// The most points the arbiter's count may differ from the recorded margin.
pub const TOLERANCE: f64 = 2.0;
/// Tygem's komi, under territory counting.
pub const KOMI: f64 = 6.5;

/// What judging a game's final board gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Judged {
    /// Not counted (resigned, or no result on the board): nothing to judge.
    NotCounted,
    /// Counted, but the arbiter's count disagrees with the record (or gave no verdict).
    Disagrees,
    /// Black's ownership of every point, row by row from the bottom left: 1 Black's, -1
    /// White's, 0 nobody's (dame, seki).
    Owned(Vec<i8>),
}

/// How many games' final boards were judged, and with what.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnershipReport {
    pub counted: usize,
    pub disagreed: usize,
    pub owned: usize,
}

impl OwnershipReport {
    pub fn add(&mut self, judged: &Judged) {
        match judged {
            Judged::NotCounted => {}
            Judged::Disagrees => {
                self.counted += 1;
                self.disagreed += 1;
            }
            Judged::Owned(_) => {
                self.counted += 1;
                self.owned += 1;
            }
        }
    }
}

impl std::ops::AddAssign for OwnershipReport {
    fn add_assign(&mut self, other: OwnershipReport) {
        self.counted += other.counted;
        self.disagreed += other.disagreed;
        self.owned += other.owned;
    }
}

impl fmt::Display for OwnershipReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} counted games' final boards judged: {} owned, {} disagreeing with the record",
            self.counted, self.owned, self.disagreed
        )
    }
}

/// The game at the end of `record` as Tygem counts it, if every move replays.
pub fn final_game(record: &Record) -> Option<Game> {
    let mut game = Game::new(BoardSize::NINETEEN, Ruleset::Japanese);
    game.set_komi(KOMI);
    for (i, &mv) in record.moves.iter().enumerate() {
        game.play(Record::color(i), mv.map_or(Move::Pass, Move::Play))
            .ok()?;
    }
    Some(game)
}

/// The arbiter's ownership of `record`'s final board, judged on `threads` threads.
pub fn final_ownership(record: &Record, threads: usize) -> Judged {
    let recorded = match record.result {
        Some(outcome) => match outcome.ending {
            Ending::Counted(points) if outcome.winner == Color::Black => f64::from(points),
            Ending::Counted(points) => -f64::from(points),
            _ => return Judged::NotCounted,
        },
        None => return Judged::NotCounted,
    };
    let Some(game) = final_game(record) else {
        return Judged::Disagrees;
    };
    let effort = Effort {
        playouts: PLAYOUTS,
        max_playouts: PLAYOUTS,
        ..Effort::for_board(BoardSize::NINETEEN.points(), threads)
    };
    let Ok(Some(judgement)) = judge(&game, &effort) else {
        return Judged::Disagrees;
    };
    let counted = judgement.score(&game).margin();
    if (counted > 0.0) != (recorded > 0.0) || (counted - recorded).abs() > TOLERANCE {
        return Judged::Disagrees;
    }
    let board = game.board();
    let territory = judgement.territory(&game);
    let owed = judgement.owed(&game);
    let black = territory.black | owed.black;
    let white = territory.white | owed.white;
    let owner = |p| match board.color_at(p) {
        Some(_) if judgement.seki.contains(p) && !judgement.dead.contains(p) => 0,
        Some(Color::Black) if !judgement.dead.contains(p) => 1,
        Some(Color::White) if !judgement.dead.contains(p) => -1,
        _ if black.contains(p) => 1,
        _ if white.contains(p) => -1,
        _ => 0,
    };
    Judged::Owned(BoardSize::NINETEEN.all_points().map(owner).collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::train::records::read_record;

    /// A 19x19 game whose last board is Black's left ten columns (its wall on K) and
    /// White's right nine (its wall on L), with a dead stone of each in the other's area.
    pub(crate) fn halves(result: &str) -> Record {
        let mut moves = String::new();
        let letters = "abcdefghijklmnopqrs";
        for row in letters.chars() {
            moves += &format!(";B[j{row}];W[k{row}]");
        }
        moves += ";B[pp];W[dd]"; // a black stone dead in White's half, a white one in Black's
        read_record(&format!("(;SZ[19]RE[{result}]{moves})"), "halves").expect("a game")
    }

    #[test]
    fn a_counted_game_gives_each_side_its_half_and_its_dead_stones() {
        // By territory, Black 9 * 19 points behind its wall (the dead stone's included)
        // and 1 prisoner, 172; White 8 * 19 and 1, 153, and komi 6.5: B+12.5.
        let Judged::Owned(owner) = final_ownership(&halves("B+12.5"), 1) else {
            panic!("the halves game is judged");
        };
        let size = BoardSize::NINETEEN;
        let at = |name: &str| owner[size.row_major(size.parse_point(name).expect("a point"))];
        assert_eq!((at("A1"), at("J10"), at("D16")), (1, 1, 1));
        assert_eq!((at("T19"), at("L10"), at("Q4")), (-1, -1, -1));
        assert_eq!(at("K10"), 1, "the black wall");
        assert_eq!(owner.iter().filter(|&&o| o == 1).count(), 190);
        assert_eq!(owner.iter().filter(|&&o| o == -1).count(), 171);
    }

    #[test]
    fn a_record_the_board_contradicts_or_a_resignation_gives_no_ownership() {
        assert_eq!(final_ownership(&halves("W+3.5"), 1), Judged::Disagrees);
        assert_eq!(final_ownership(&halves("B+30.5"), 1), Judged::Disagrees);
        assert_eq!(final_ownership(&halves("B+R"), 1), Judged::NotCounted);
        let mut report = OwnershipReport::default();
        for judged in [Judged::NotCounted, Judged::Disagrees, Judged::Owned(vec![])] {
            report.add(&judged);
        }
        assert_eq!((report.counted, report.disagreed, report.owned), (2, 1, 1));
    }
}
