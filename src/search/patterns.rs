//! 3x3 playout patterns (MoGo's hane, cut and edge shapes) as a 65,536-entry table over
//! the eight neighbours of a point, built once from readable pattern sources.

use crate::rules::{Board, Point, neighbour_key_of};

/// The shapes, centre = the candidate move. `X` and `O` are stones of the two colours
/// (every pattern also matches with the colours swapped, and in all eight orientations),
/// `.` an empty point, ` ` off the board, `?` anything, `x` anything but an `X` stone,
/// `o` anything but an `O` stone.
const SOURCES: [[&str; 3]; 13] = [
    // Hane: enclosing hane.
    ["XOX", "...", "???"],
    // Hane: non-cutting hane.
    ["XO.", "...", "?.?"],
    // Hane: magari (turn).
    ["XO?", "X..", "x.?"],
    // Diagonal attachment (katatsuke).
    [".O.", "X..", "..."],
    // Cut: unprotected cut.
    ["XO?", "O.o", "?o?"],
    // Cut: peeped cut.
    ["XO?", "O.X", "???"],
    // Cut: push between two stones (de).
    ["?X?", "O.O", "ooo"],
    // Cut: knight's-move cut.
    ["OX?", "o.O", "???"],
    // Edge: chase along the first line.
    ["X.?", "O.?", "   "],
    // Edge: block a side cut.
    ["OX?", "X.O", "   "],
    // Edge: block a side connection.
    ["?X?", "x.O", "   "],
    // Edge: descend (sagari).
    ["?XO", "x.x", "   "],
    // Edge: cut on the first line.
    ["?OX", "X.O", "   "],
];

/// A set of 3x3 neighbourhood codes ([`Board::neighbourhood_code`]) that match a pattern.
pub struct PatternTable {
    bits: Box<[u64; 1024]>,
    /// The [`Board::neighbour_key`]s of the matching codes: one load rules out most points
    /// before their eight cells are read (an open point, four empty neighbours, matches
    /// no shape).
    keys: [u64; 64],
}

impl PatternTable {
    /// The table of [`SOURCES`].
    pub fn mogo() -> PatternTable {
        let mut table = PatternTable {
            bits: Box::new([0; 1024]),
            keys: [0; 64],
        };
        for source in SOURCES {
            let cells: Vec<char> = source.iter().flat_map(|row| row.chars()).collect();
            let grid: [char; 9] = cells.try_into().expect("3x3 pattern");
            for oriented in orientations(grid) {
                for coloured in [oriented, swap_colours(oriented)] {
                    table.insert_expanded(coloured, 0);
                }
            }
        }
        table
    }

    /// Whether the neighbourhood of `p` matches a pattern.
    #[inline]
    pub fn matches(&self, board: &Board, p: Point) -> bool {
        let key = usize::from(board.neighbour_key(p));
        self.keys[(key >> 6) & 63] >> (key & 63) & 1 != 0
            && self.contains(board.neighbourhood_code(p))
    }

    #[inline]
    pub fn contains(&self, code: u16) -> bool {
        self.bits[code as usize >> 6] >> (code & 63) & 1 != 0
    }

    /// Inserts every code the grid stands for, expanding wildcards from cell `from` on.
    fn insert_expanded(&mut self, grid: [char; 9], from: usize) {
        let Some(k) = (from..9).find(|&k| k != 4 && matches!(grid[k], '?' | 'x' | 'o')) else {
            let code = grid
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != 4)
                .enumerate()
                .fold(0u16, |code, (slot, (_, &c))| {
                    code | cell_code(c) << (2 * slot)
                });
            self.bits[code as usize >> 6] |= 1 << (code & 63);
            // The orthogonal neighbours: slots N, W, E, S of the code.
            let key = neighbour_key_of([1, 3, 4, 6].map(|slot| (code >> (2 * slot) & 3) as u8));
            self.keys[usize::from(key) >> 6] |= 1 << (key & 63);
            return;
        };
        let choices: &[char] = match grid[k] {
            '?' => &['X', 'O', '.', ' '],
            'x' => &['O', '.', ' '],
            _ => &['X', '.', ' '],
        };
        for &c in choices {
            let mut g = grid;
            g[k] = c;
            self.insert_expanded(g, k + 1);
        }
    }
}

/// Board cell codes of [`Board::neighbourhood_code`]: X is black, O white.
fn cell_code(c: char) -> u16 {
    match c {
        'X' => 0,
        'O' => 1,
        '.' => 2,
        _ => 3,
    }
}

fn swap_colours(grid: [char; 9]) -> [char; 9] {
    grid.map(|c| match c {
        'X' => 'O',
        'O' => 'X',
        'x' => 'o',
        'o' => 'x',
        other => other,
    })
}

/// The eight rotations and reflections of a 3x3 grid.
fn orientations(grid: [char; 9]) -> Vec<[char; 9]> {
    let rotate =
        |g: [char; 9]| -> [char; 9] { std::array::from_fn(|k| g[(2 - k % 3) * 3 + k / 3]) };
    let mirror =
        |g: [char; 9]| -> [char; 9] { std::array::from_fn(|k| g[(k / 3) * 3 + 2 - k % 3]) };
    let mut out = Vec::with_capacity(8);
    let mut g = grid;
    for _ in 0..4 {
        out.push(g);
        out.push(mirror(g));
        g = rotate(g);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_diagram;

    fn matches_at(diagram: &str, point: &str) -> bool {
        let board = parse_diagram(diagram).unwrap();
        let p = board.size().parse_point(point).unwrap();
        PatternTable::mogo().matches(&board, p)
    }

    #[test]
    fn an_enclosing_hane_matches_in_every_orientation_and_colour() {
        // Hane at C3 under the white stone C4, between black B4 and D4.
        assert!(matches_at(
            ". . . . .
             . X O X .
             . . . . .
             . . . . .
             . . . . .",
            "C3"
        ));
        // The same, rotated and with the colours swapped.
        assert!(matches_at(
            ". . . . .
             . . O . .
             . . X . .
             . . O . .
             . . . . .",
            "B3"
        ));
    }

    #[test]
    fn an_empty_neighbourhood_matches_nothing() {
        assert!(!matches_at(
            ". . . . .
             . . . . .
             . . . . .
             . . . . .
             . . . . .",
            "C3"
        ));
    }

    #[test]
    fn a_cut_between_diagonal_stones_matches() {
        // X at B3 and C4 (diagonal), O at B4 and C3... the cut point is C3's neighbour.
        assert!(matches_at(
            ". . . . .
             . X O . .
             . O . . .
             . . . . .
             . . . . .",
            "C3"
        ));
    }

    #[test]
    fn a_first_line_chase_matches_on_the_edge() {
        // Chase: C1 extends along the first line beside black B1, under white B2.
        assert!(matches_at(
            ". . . . .
             . . . . .
             . . . . .
             . O . . .
             . X . . .",
            "C1"
        ));
        // One line up, C2 is a hane for White instead (it touches black B2 under B3).
        assert!(matches_at(
            ". . . . .
             . . . . .
             . O . . .
             . X . . .
             . . . . .",
            "C2"
        ));
    }

    #[test]
    fn the_neighbour_key_rules_out_only_codes_that_match_no_shape() {
        use crate::rules::{BoardSize, Color, Suicide};
        use crate::search::playout::random_light_move;
        use rand::SeedableRng;
        let table = PatternTable::mogo();
        let (mut matched, mut ruled_out) = (0, 0);
        for seed in 0..40 {
            let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
            let mut board = Board::new(BoardSize::NINE);
            let mut color = Color::Black;
            for _ in 0..60 {
                for p in board.empty_points().iter() {
                    let by_code = table.contains(board.neighbourhood_code(p));
                    assert_eq!(table.matches(&board, p), by_code, "seed {seed}");
                    matched += usize::from(by_code);
                    let key = usize::from(board.neighbour_key(p));
                    ruled_out += usize::from(table.keys[key >> 6] >> (key & 63) & 1 == 0);
                }
                match random_light_move(&mut board, color, Suicide::Forbidden, &mut rng) {
                    Some(p) => {
                        board.play_unchecked(p, color);
                    }
                    None => board.clear_ko(),
                }
                color = color.opponent();
            }
        }
        // Both sides of the filter were exercised.
        assert!(matched > 1000 && ruled_out > 1000, "{matched} {ruled_out}");
    }

    #[test]
    fn a_lone_stone_nearby_is_no_pattern() {
        assert!(!matches_at(
            ". . . . .
             . X . . .
             . . . . .
             . . . . .
             . . . . .",
            "C3"
        ));
    }
}
