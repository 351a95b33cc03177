//! Counting, given which stones are dead and which are in seki (RULES.md §5).

use super::bitboard::Bitboard;
use super::board::Board;
use super::color::{ByColor, Color};
use std::fmt;

/// The empty points (dead stones' points included) whose region touches stones of one
/// colour only, by colour. A region touching both colours, or none, is nobody's.
pub fn owned_regions(board: &Board, dead: &Bitboard) -> ByColor<Bitboard> {
    let size = board.size();
    let on = board.on_board();
    let alive = ByColor {
        black: board.stones(Color::Black) & !*dead,
        white: board.stones(Color::White) & !*dead,
    };
    let open = on & !(alive.black | alive.white);
    let reach = |stones: Bitboard| Bitboard::flood(stones.neighbours(size, &on), open, size);
    let (black_reach, white_reach) = (reach(alive.black), reach(alive.white));
    ByColor {
        black: black_reach & !white_reach,
        white: white_reach & !black_reach,
    }
}

/// Area counts: each side's stones left on the board plus the regions it owns. Seki eyes
/// count for their owner and shared seki liberties for nobody, as regions do anyway.
pub fn area_points(board: &Board, dead: &Bitboard) -> ByColor<u32> {
    let owned = owned_regions(board, dead);
    ByColor {
        black: (board.stones(Color::Black) & !*dead).count() + owned.black.count(),
        white: (board.stones(Color::White) & !*dead).count() + owned.white.count(),
    }
}

/// Territory counts: the regions each side owns, except regions that touch a seki chain
/// (points inside a seki count for nobody). Prisoners are added by the caller.
pub fn territory_points(board: &Board, dead: &Bitboard, seki: &Bitboard) -> ByColor<u32> {
    let size = board.size();
    let on = board.on_board();
    let owned = owned_regions(board, dead);
    let seki_stones = *seki & !*dead & (board.stones(Color::Black) | board.stones(Color::White));
    let open = owned.black | owned.white;
    let in_seki = Bitboard::flood(seki_stones.neighbours(size, &on), open, size);
    ByColor {
        black: (owned.black & !in_seki).count(),
        white: (owned.white & !in_seki).count(),
    }
}

/// A final count: points for each side, komi and compensation included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub black: f64,
    pub white: f64,
}

impl Score {
    /// Black's lead (negative when White leads).
    pub fn margin(&self) -> f64 {
        self.black - self.white
    }

    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.margin() {
            m if m > 0.0 => Some(Color::Black),
            m if m < 0.0 => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Score {
    /// `B+3.5`, `W+0.5`, or `0` for a draw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.margin();
        match self.winner() {
            Some(Color::Black) => write!(f, "B+{m}"),
            Some(Color::White) => write!(f, "W+{}", -m),
            None => f.write_str("0"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::diagram::parse_diagram;

    fn dead_at(board: &Board, names: &[&str]) -> Bitboard {
        names
            .iter()
            .map(|n| board.size().parse_point(n).unwrap())
            .collect()
    }

    #[test]
    fn scores_display_as_gtp_wants() {
        assert_eq!(
            Score {
                black: 10.0,
                white: 6.5
            }
            .to_string(),
            "B+3.5"
        );
        assert_eq!(
            Score {
                black: 6.0,
                white: 6.5
            }
            .to_string(),
            "W+0.5"
        );
        assert_eq!(
            Score {
                black: 7.0,
                white: 7.0
            }
            .to_string(),
            "0"
        );
        assert_eq!(
            Score {
                black: 12.0,
                white: 7.0
            }
            .to_string(),
            "B+5"
        );
    }

    #[test]
    fn a_region_touching_one_colour_belongs_to_it_and_one_touching_both_to_nobody() {
        let b = parse_diagram(
            ". X . O .
             . X . O .
             . X . O .
             . X . O .
             . X . O .",
        )
        .unwrap();
        let area = area_points(&b, &Bitboard::EMPTY);
        assert_eq!(area.black, 10);
        assert_eq!(area.white, 10);
        let terr = territory_points(&b, &Bitboard::EMPTY, &Bitboard::EMPTY);
        assert_eq!((terr.black, terr.white), (5, 5));
    }

    #[test]
    fn an_empty_board_belongs_to_nobody() {
        let b = Board::new(crate::rules::BoardSize::NINE);
        let area = area_points(&b, &Bitboard::EMPTY);
        assert_eq!((area.black, area.white), (0, 0));
    }

    #[test]
    fn dead_stones_are_removed_and_their_points_counted_for_the_surrounding_side() {
        let b = parse_diagram(
            ". X . O .
             . X . O O
             . X . O X
             . X . O .
             . X . O .",
        )
        .unwrap();
        let dead = dead_at(&b, &["E3"]);
        let area = area_points(&b, &dead);
        assert_eq!((area.black, area.white), (10, 10));
        let terr = territory_points(&b, &dead, &Bitboard::EMPTY);
        assert_eq!((terr.black, terr.white), (5, 4));
        // Without removing it, E3 spoils the regions it touches.
        let terr = territory_points(&b, &Bitboard::EMPTY, &Bitboard::EMPTY);
        assert_eq!((terr.black, terr.white), (5, 1));
    }

    #[test]
    fn seki_eyes_count_under_area_but_nothing_next_to_a_seki_counts_under_territory() {
        let b = parse_diagram(
            ". X O .
             X X O O
             . X O .
             . X O .",
        )
        .unwrap();
        let seki = dead_at(&b, &["B4", "C4"]);
        let seki = b.chain_stones(seki.iter().next().unwrap())
            | b.chain_stones(seki.iter().nth(1).unwrap());
        let area = area_points(&b, &Bitboard::EMPTY);
        assert_eq!((area.black, area.white), (8, 8));
        let terr = territory_points(&b, &Bitboard::EMPTY, &seki);
        assert_eq!((terr.black, terr.white), (0, 0));
        let terr = territory_points(&b, &Bitboard::EMPTY, &Bitboard::EMPTY);
        assert_eq!((terr.black, terr.white), (3, 3));
    }
}
