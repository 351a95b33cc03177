//! Eye tests for the playout policy.

use super::board::{Board, EMPTY_CODE, OFF_CODE, Stride};
use super::color::Color;
use super::point::Point;

impl Board {
    /// An empty point whose four neighbours are all stones of `color` or the edge.
    #[inline]
    pub fn is_eye_like(&self, p: Point, color: Color) -> bool {
        self.cell_code(p.index()) == EMPTY_CODE && self.neighbours_of_color_or_edge(p, color) == 4
    }

    /// An eye-like point that the opponent cannot make false: by the diagonal rule, at most
    /// one diagonal holds an opposing stone in the middle of the board, and none on the
    /// edge or in the corner (where some diagonals are off the board).
    #[inline]
    pub fn is_true_eye(&self, p: Point, color: Color) -> bool {
        self.is_eye_like(p, color) && self.eye_diagonals_hold(self.stride(), p.index(), color)
    }

    /// For an eye-like point of `color`: whether its diagonals leave it a true eye.
    #[inline]
    pub(crate) fn eye_diagonals_hold<S: Stride>(&self, stride: S, i: usize, color: Color) -> bool {
        let opponent = color.opponent() as u8;
        let (mut bad, mut at_edge) = (0u32, 0u32);
        for d in self.diagonals_in(stride, i) {
            let code = self.cell_code(d);
            bad += u32::from(code == opponent);
            at_edge |= u32::from(code == OFF_CODE);
        }
        bad + at_edge < 2
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::diagram::parse_diagram;
    use crate::rules::{Board, Color};

    fn point(board: &Board, name: &str) -> crate::rules::Point {
        board.size().parse_point(name).unwrap()
    }

    #[test]
    fn a_point_surrounded_by_own_stones_with_clean_diagonals_is_a_true_eye() {
        let b = parse_diagram(
            ". . . . .
             . X X X .
             . X . X .
             . X X X .
             . . . . .",
        )
        .unwrap();
        assert!(b.is_eye_like(point(&b, "C3"), Color::Black));
        assert!(b.is_true_eye(point(&b, "C3"), Color::Black));
        assert!(!b.is_eye_like(point(&b, "C3"), Color::White));
    }

    #[test]
    fn two_opposing_diagonals_make_a_centre_eye_false() {
        let b = parse_diagram(
            ". . . . .
             . O X X .
             . X . X .
             . X X O .
             . . . . .",
        )
        .unwrap();
        assert!(b.is_eye_like(point(&b, "C3"), Color::Black));
        assert!(!b.is_true_eye(point(&b, "C3"), Color::Black));
    }

    #[test]
    fn one_opposing_diagonal_leaves_a_centre_eye_true() {
        let b = parse_diagram(
            ". . . . .
             . O X X .
             . X . X .
             . X X X .
             . . . . .",
        )
        .unwrap();
        assert!(b.is_true_eye(point(&b, "C3"), Color::Black));
    }

    #[test]
    fn one_opposing_diagonal_makes_an_edge_eye_false() {
        let b = parse_diagram(
            ". . . . .
             . . . . .
             . . . . .
             O X X . .
             X . X . .",
        )
        .unwrap();
        assert!(b.is_eye_like(point(&b, "B1"), Color::Black));
        assert!(!b.is_true_eye(point(&b, "B1"), Color::Black));
    }

    #[test]
    fn a_corner_eye_is_false_when_its_one_diagonal_is_an_opponent() {
        let good = parse_diagram(
            ". . .
             X X .
             . X .",
        )
        .unwrap();
        assert!(good.is_true_eye(point(&good, "A1"), Color::Black));
        let bad = parse_diagram(
            ". . .
             X O .
             . X .",
        )
        .unwrap();
        assert!(bad.is_eye_like(point(&bad, "A1"), Color::Black));
        assert!(!bad.is_true_eye(point(&bad, "A1"), Color::Black));
    }

    #[test]
    fn an_occupied_point_is_never_an_eye() {
        let b = parse_diagram(
            "X X .
             X X .
             . . .",
        )
        .unwrap();
        assert!(!b.is_eye_like(point(&b, "A3"), Color::Black));
        assert!(!b.is_true_eye(point(&b, "A3"), Color::Black));
    }
}
