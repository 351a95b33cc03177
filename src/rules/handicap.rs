//! Handicap placement: the fixed points of the GTP specification and the checks on free
//! placement.

use super::point::{BoardSize, Point};
use std::fmt;

/// Why a handicap request is refused (GTP's error texts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapError {
    BoardNotEmpty,
    InvalidNumberOfStones,
    BadVertexList,
}

impl fmt::Display for HandicapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapError::BoardNotEmpty => "board not empty",
            HandicapError::InvalidNumberOfStones => "invalid number of stones",
            HandicapError::BadVertexList => "bad vertex list",
        })
    }
}

impl std::error::Error for HandicapError {}

/// Most stones `fixed_handicap` places: 9 on odd boards from 9x9, 4 on 7x7 and even
/// boards, none below 7x7 (the GTP specification's table).
pub fn max_fixed_handicap(size: BoardSize) -> u32 {
    match size.get() {
        n if n < 7 => 0,
        n if n == 7 || n % 2 == 0 => 4,
        _ => 9,
    }
}

/// Most stones free placement accepts: every point but one.
pub fn max_free_handicap(size: BoardSize) -> u32 {
    size.points() as u32 - 1
}

/// The points of GTP's fixed handicap, in the specification's order (`D4 Q16 D16 Q4 ...`).
pub fn fixed_handicap_points(size: BoardSize, stones: u32) -> Result<Vec<Point>, HandicapError> {
    if stones < 2 || stones > max_fixed_handicap(size) {
        return Err(HandicapError::InvalidNumberOfStones);
    }
    let n = size.get();
    let edge = if n >= 13 { 3 } else { 2 };
    let (low, high, mid) = (edge, n - 1 - edge, n / 2);
    let corners = [(low, low), (high, high), (low, high), (high, low)];
    let mut coords: Vec<(usize, usize)> = corners[..stones.min(4) as usize].to_vec();
    if stones >= 6 {
        coords.extend([(low, mid), (high, mid)]);
    }
    if stones >= 8 {
        coords.extend([(mid, low), (mid, high)]);
    }
    if stones % 2 == 1 && stones >= 5 {
        coords.push((mid, mid));
    }
    Ok(coords
        .into_iter()
        .map(|(c, r)| size.point(c, r).expect("handicap points lie on the board"))
        .collect())
}

/// Checks a free placement: 2 to points-1 distinct on-board points.
pub fn check_free_handicap(size: BoardSize, points: &[Point]) -> Result<(), HandicapError> {
    if points.len() < 2 || points.len() > max_free_handicap(size) as usize {
        return Err(HandicapError::BadVertexList);
    }
    for (i, p) in points.iter().enumerate() {
        if !size.contains(*p) || points[..i].contains(p) {
            return Err(HandicapError::BadVertexList);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: usize, stones: u32) -> String {
        let size = BoardSize::new(size).unwrap();
        fixed_handicap_points(size, stones)
            .unwrap()
            .into_iter()
            .map(|p| size.name(p))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn nineteen_by_nineteen_uses_the_gtp_specification_lists() {
        let expected = [
            "D4 Q16",
            "D4 Q16 D16",
            "D4 Q16 D16 Q4",
            "D4 Q16 D16 Q4 K10",
            "D4 Q16 D16 Q4 D10 Q10",
            "D4 Q16 D16 Q4 D10 Q10 K10",
            "D4 Q16 D16 Q4 D10 Q10 K4 K16",
            "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10",
        ];
        for (k, list) in expected.iter().enumerate() {
            assert_eq!(names(19, k as u32 + 2), *list);
        }
    }

    #[test]
    fn thirteen_by_thirteen_uses_the_fourth_line() {
        let expected = [
            "D4 K10",
            "D4 K10 D10",
            "D4 K10 D10 K4",
            "D4 K10 D10 K4 G7",
            "D4 K10 D10 K4 D7 K7",
            "D4 K10 D10 K4 D7 K7 G7",
            "D4 K10 D10 K4 D7 K7 G4 G10",
            "D4 K10 D10 K4 D7 K7 G4 G10 G7",
        ];
        for (k, list) in expected.iter().enumerate() {
            assert_eq!(names(13, k as u32 + 2), *list);
        }
    }

    #[test]
    fn nine_by_nine_uses_the_third_line() {
        let expected = [
            "C3 G7",
            "C3 G7 C7",
            "C3 G7 C7 G3",
            "C3 G7 C7 G3 E5",
            "C3 G7 C7 G3 C5 G5",
            "C3 G7 C7 G3 C5 G5 E5",
            "C3 G7 C7 G3 C5 G5 E3 E7",
            "C3 G7 C7 G3 C5 G5 E3 E7 E5",
        ];
        for (k, list) in expected.iter().enumerate() {
            assert_eq!(names(9, k as u32 + 2), *list);
        }
    }

    #[test]
    fn counts_outside_the_table_are_refused() {
        let nine = BoardSize::NINE;
        for stones in [0, 1, 10, 100] {
            assert_eq!(
                fixed_handicap_points(nine, stones),
                Err(HandicapError::InvalidNumberOfStones)
            );
        }
        assert_eq!(
            fixed_handicap_points(BoardSize::new(8).unwrap(), 5),
            Err(HandicapError::InvalidNumberOfStones)
        );
        assert_eq!(names(7, 4), "C3 E5 C5 E3");
        assert_eq!(
            fixed_handicap_points(BoardSize::new(6).unwrap(), 2),
            Err(HandicapError::InvalidNumberOfStones)
        );
    }

    #[test]
    fn free_placement_needs_two_to_points_minus_one_distinct_points() {
        let size = BoardSize::new(2).unwrap();
        let all: Vec<Point> = size.all_points().collect();
        assert_eq!(
            check_free_handicap(size, &all[..1]),
            Err(HandicapError::BadVertexList)
        );
        assert_eq!(check_free_handicap(size, &all[..3]), Ok(()));
        assert_eq!(
            check_free_handicap(size, &all),
            Err(HandicapError::BadVertexList)
        );
        assert_eq!(
            check_free_handicap(size, &[all[0], all[0]]),
            Err(HandicapError::BadVertexList)
        );
    }
}
