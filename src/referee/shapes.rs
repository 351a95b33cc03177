//! Shapes that searches judge badly: eye spaces that make one eye (nakade) and the bent
//! four in the corner.

use super::eye_space;
use crate::rules::{Bitboard, Board, Cell, Color, Point};

/// The largest eye space judged by shape or read out.
const EYE_SPACE_POINTS: usize = 7;

/// Chains whose only liberties lie in one small enclosed eye space that makes one eye, and
/// whose enclosing chains are not in atari (no wall to capture first):
/// one or two points, a square four, or a killing shape (straight or bent three, pyramid
/// four, bulky or crossed five, rabbity six) whose vital point the opponent holds. The
/// second set: the same with the vital point still empty, so that the owner lives only
/// by moving first (unsettled, dead for its owner).
pub fn one_eye_victims(board: &Board) -> (Bitboard, Bitboard) {
    let size = board.size();
    let on = board.on_board();
    let mut dead = Bitboard::EMPTY;
    let mut unsettled = Bitboard::EMPTY;
    for color in Color::BOTH {
        let own = board.stones(color);
        for region in (on & !own).components(size) {
            if region.count() as usize > EYE_SPACE_POINTS {
                continue;
            }
            let group = Bitboard::flood(region.neighbours(size, &on) & own, own, size);
            let liberties = group.neighbours(size, &on) & board.empty_points();
            if group.is_empty() || !(liberties & !region).is_empty() {
                continue;
            }
            // The group must not capture its wall first (a corner bent three with two
            // stones inside and a lone stone on the first line are walls that hold).
            if !eye_space::walls_hold(board, region, group, color) {
                continue;
            }
            let value = match eye_value(board, region) {
                EyeValue::TwoOrMore => read_out(board, region, group),
                value => value,
            };
            match value {
                EyeValue::One => dead |= group,
                EyeValue::Unsettled => {
                    dead |= group;
                    unsettled |= group;
                }
                EyeValue::TwoOrMore => {}
            }
        }
    }
    (dead, unsettled)
}

/// The value of an eye space the shape table calls two eyes (or does not know), read out
/// where one chain alone encloses it: stones inside and the corner can change it.
fn read_out(board: &Board, region: Bitboard, group: Bitboard) -> EyeValue {
    let single_chain = group
        .iter()
        .next()
        .is_some_and(|stone| board.chain_stones(stone) == group);
    if !single_chain {
        return EyeValue::TwoOrMore;
    }
    match eye_space::capturable(board, region, group) {
        Some((_, true)) => EyeValue::One,
        Some((true, false)) => EyeValue::Unsettled,
        _ => EyeValue::TwoOrMore,
    }
}

enum EyeValue {
    One,
    /// One eye if the opponent moves first, two if the owner does.
    Unsettled,
    TwoOrMore,
}

/// The value of an enclosed eye space (empty points and opposing stones) of up to six
/// points, from its shape alone (the degree of each point within the space).
fn eye_value(board: &Board, region: Bitboard) -> EyeValue {
    let size = board.size();
    let on = board.on_board();
    let degree = |p: Point| (Bitboard::from_iter([p]).neighbours(size, &on) & region).count();
    let mut degrees: Vec<(u32, Point)> = region.iter().map(|p| (degree(p), p)).collect();
    degrees.sort_by_key(|d| std::cmp::Reverse(d.0));
    let signature: Vec<u32> = degrees.iter().map(|d| d.0).collect();
    let has_square = region.iter().any(|p| {
        let (c, r) = size.col_row(p);
        [(1, 0), (0, 1), (1, 1)]
            .iter()
            .all(|&(dc, dr)| size.point(c + dc, r + dr).is_ok_and(|q| region.contains(q)))
    });
    let vital = match (region.count(), signature.as_slice()) {
        (1 | 2, _) => return EyeValue::One,
        (3, _) => degrees[0].1,
        (4, [2, 2, 2, 2]) => return EyeValue::One,
        // The bent four in the corner: the attacker's 1-2 point leads to a ko the owner
        // cannot win under Japanese rules.
        (4, [2, 2, 1, 1]) if corners(board).any(|c| is_corner_bent_four(board, c, region)) => {
            degrees
                .iter()
                .map(|d| d.1)
                .find(|&p| degree(p) == 2 && !is_corner(board, p))
                .expect("the bend's neighbour on the long side")
        }
        (4, [3, 1, 1, 1]) => degrees[0].1,
        (5, [4, 1, 1, 1, 1]) => degrees[0].1,
        (5, [3, 2, 2, 2, 1]) if has_square => degrees[0].1,
        (6, [4, 2, 2, 2, 1, 1]) if has_square => degrees[0].1,
        _ => return EyeValue::TwoOrMore,
    };
    if board.cell(vital) == Cell::Empty {
        EyeValue::Unsettled
    } else {
        EyeValue::One
    }
}

/// Chains killed by a bent four in the corner (Japanese rules say so outright; under area
/// rules the attacker removes every ko threat first). The filled form: an attacker chain of
/// three stones in the corner whose two liberties are the defender's only liberties, and
/// one of them completes the bent four. The attacker fills it, the defender captures four
/// stones in the bent-four shape, and the attacker's throw-in at the 1-2 point starts a ko
/// the defender cannot win.
pub fn bent_four_victims(board: &Board) -> Bitboard {
    let mut victims = Bitboard::EMPTY;
    for corner in corners(board) {
        let Some(attacker) = board.color_at(corner) else {
            continue;
        };
        let stones = board.chain_stones(corner);
        let liberties = board.chain_liberties(corner);
        if stones.count() != 3 || liberties.count() != 2 {
            continue;
        }
        let completes_bent_four = liberties.iter().any(|l| {
            let mut shape = stones;
            shape.insert(l);
            is_corner_bent_four(board, corner, shape)
        });
        if !completes_bent_four {
            continue;
        }
        // The defender: chains next to the attacker whose liberties are exactly these two.
        for stone in stones.iter() {
            for q in board.neighbour_points(stone) {
                if board.cell(q) == Cell::Stone(attacker.opponent())
                    && board.chain_liberties(q) == liberties
                {
                    victims |= board.chain_stones(q);
                }
            }
        }
    }
    victims
}

fn is_corner(board: &Board, p: Point) -> bool {
    corners(board).any(|c| c == p)
}

fn corners(board: &Board) -> impl Iterator<Item = Point> + '_ {
    let size = board.size();
    let last = size.get() - 1;
    [(0, 0), (0, last), (last, 0), (last, last)]
        .into_iter()
        .filter_map(move |(c, r)| size.point(c, r).ok())
}

/// Whether the four points of `shape` are the L of a corner bent four: three along one
/// edge from `corner` and one next to the corner along the other edge.
fn is_corner_bent_four(board: &Board, corner: Point, shape: Bitboard) -> bool {
    if shape.count() != 4 || board.size().get() < 4 {
        return false;
    }
    let size = board.size();
    let (cc, cr) = size.col_row(corner);
    let toward = |from: usize| if from == 0 { 1isize } else { -1 };
    let (dc, dr) = (toward(cc), toward(cr));
    let at = |i: isize, j: isize| {
        size.point(
            (cc as isize + i * dc) as usize,
            (cr as isize + j * dr) as usize,
        )
        .ok()
    };
    let along_row = [at(0, 0), at(1, 0), at(2, 0), at(0, 1)];
    let along_col = [at(0, 0), at(0, 1), at(0, 2), at(1, 0)];
    [along_row, along_col]
        .iter()
        .any(|pts| pts.iter().all(|p| p.is_some_and(|p| shape.contains(p))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_diagram;

    #[test]
    fn a_rabbity_six_with_the_vital_point_taken_is_one_eye() {
        let b = parse_diagram(
            ". . . . . . .
             . . . . . . .
             X X X X X . .
             X O O O X X .
             O O . O O X .
             O . X . O X .
             O . . O O X .",
        )
        .unwrap();
        let (dead, unsettled) = one_eye_victims(&b);
        assert_eq!(dead.count(), 12);
        assert!(unsettled.is_empty());
        assert!((dead & b.stones(Color::Black)).is_empty());
    }

    #[test]
    fn a_one_eye_group_whose_enclosers_are_shorter_of_liberties_is_left_to_the_searches() {
        // White's A2-C1 has one eye (A1-B1) but Black's wall around it has one liberty.
        let b = parse_diagram(
            ". . . . .
             O O O O O
             X X X X O
             O O O X O
             . . O X .",
        )
        .unwrap();
        let (dead, _) = one_eye_victims(&b);
        assert!(dead.is_empty(), "{}", dead.vertex_names(b.size()));
    }

    #[test]
    fn a_pyramid_four_with_an_empty_vital_point_is_unsettled_and_a_straight_four_lives() {
        let pyramid = parse_diagram(
            ". . . . .
             X X X X X
             X O O O X
             O O . O O
             O . . . O",
        )
        .unwrap();
        let (dead, unsettled) = one_eye_victims(&pyramid);
        assert_eq!(dead, unsettled);
        assert_eq!(dead.count(), 9);
        let straight = parse_diagram(
            ". . . . .
             . . . . .
             X X X X X
             O O O O O
             . . . . O",
        )
        .unwrap();
        assert_eq!(one_eye_victims(&straight).0, Bitboard::EMPTY);
    }

    #[test]
    fn the_filled_bent_four_in_the_corner_kills_the_defender() {
        // T14 of the arbiter notes.
        let b = parse_diagram(
            ". O . O O X .
             O O O O O X .
             O . O . O X .
             O O O O O X .
             X X X X O X .
             . X . X O X .
             O O O X O X .",
        )
        .unwrap();
        assert_eq!(
            bent_four_victims(&b).vertex_names(b.size()),
            "A3 B2 B3 C3 D1 D2 D3"
        );
    }

    #[test]
    fn a_defender_with_an_outside_liberty_is_not_killed_by_the_shape() {
        let b = parse_diagram(
            ". O . O O X .
             O O O O O X .
             O . O . O X .
             O O O O O X .
             X X X X O X .
             . X . X O X .
             O O O X . X .",
        )
        .unwrap();
        assert!(bent_four_victims(&b).is_empty());
    }
}
