//! Eye tests for the playout policy.

use super::board::{Board, Cell};
use super::color::Color;
use super::point::Point;

impl Board {
    /// An empty point whose four neighbours are all stones of `color` or the edge.
    #[inline]
    pub fn is_eye_like(&self, p: Point, color: Color) -> bool {
        self.cell(p) == Cell::Empty && self.neighbours_of_color_or_edge(p, color) == 4
    }

    /// An eye-like point that the opponent cannot make false: by the diagonal rule, at most
    /// one diagonal holds an opposing stone in the middle of the board, and none on the
    /// edge or in the corner (where some diagonals are off the board).
    #[inline]
    pub fn is_true_eye(&self, p: Point, color: Color) -> bool {
        if !self.is_eye_like(p, color) {
            return false;
        }
        let opponent = Cell::Stone(color.opponent());
        let mut bad = 0;
        let mut at_edge = 0;
        for d in self.diagonal_points(p) {
            match self.cell(d) {
                c if c == opponent => bad += 1,
                Cell::Off => at_edge = 1,
                _ => {}
            }
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
