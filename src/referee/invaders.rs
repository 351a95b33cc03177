//! Invaders without hope, judged statically: opposing stones inside a region that one
//! colour walls off, which cannot make two eyes there against correct replies. Random
//! playouts are noisiest in wide empty areas, where careless replies let a lone stone
//! live; the searches built on them cannot read such a fight out in a few thousand
//! playouts, so this layer decides where it is sure and leaves the rest to them.

use crate::rules::{Bitboard, Board, Color, owned_regions};

/// At most this many invading stones count as a few (a lone stone, a pair, a small
/// chain): more may be a group that has lived or can, which is the searches' question.
const FEW_STONES: u32 = 3;

/// The stones of `board` that are dead by a static rule: for each colour, a region of
/// points without its stones (so walled off by its stones and the edge), no bigger than
/// half the board, with opposing stones inside that
/// - have no eye of their own (no empty part of the region enclosed by them alone), and
///   are a few stones, or cannot make two eyes there at all (no two empty points of the
///   region out of reach of the wall that are not adjacent to each other);
/// - cannot capture the wall: every wall chain they touch, or share a liberty with, has
///   at least two liberties more than they do (this also leaves every seki alone, whose
///   chains are short of liberties on both sides).
///
/// Walls that the searches find dead (in `dead`) make no region: the fight is open.
pub fn hopeless_invaders(board: &Board, dead: Bitboard) -> Bitboard {
    let size = board.size();
    let on = board.on_board();
    let empty = board.empty_points();
    let chains = board.chains();
    let liberties: Vec<Bitboard> = chains
        .iter()
        .map(|c| c.neighbours(size, &on) & empty)
        .collect();
    // Empty regions that touch one colour only: an invader's eye, where it is inside.
    let eyes = owned_regions(board, &Bitboard::EMPTY);
    let mut hopeless = Bitboard::EMPTY;
    for wall_color in [Color::Black, Color::White] {
        let walls = board.stones(wall_color);
        let invading = board.stones(wall_color.opponent());
        for region in (on & !walls).components(size) {
            let invaders = region & invading;
            if invaders.is_empty() || 2 * region.count() > on.count() {
                continue;
            }
            let wall = region.neighbours(size, &on) & walls;
            if !(wall & dead).is_empty() {
                continue;
            }
            let inside = region & empty;
            let has_eye = !(region & *eyes.get(wall_color.opponent())).is_empty();
            let few = invaders.count() <= FEW_STONES && !has_eye;
            if !few && can_make_two_eyes(size, &on, inside, walls) {
                continue;
            }
            let held = chains.iter().zip(&liberties).all(|(chain, libs)| {
                if (*chain & invaders).is_empty() {
                    return true;
                }
                let near = chain.neighbours(size, &on);
                chains.iter().zip(&liberties).all(|(w, w_libs)| {
                    let in_contact = !(*w & near).is_empty() || !(*w_libs & *libs).is_empty();
                    (*w & wall).is_empty() || !in_contact || w_libs.count() >= libs.count() + 2
                })
            });
            if held {
                hopeless |= invaders;
            }
        }
    }
    hopeless
}

/// Whether the region's empty points out of the wall's reach (no wall stone next to them,
/// where an eye could be) include two that are not adjacent: the least room for two eyes.
fn can_make_two_eyes(
    size: crate::rules::BoardSize,
    on: &Bitboard,
    inside: Bitboard,
    walls: Bitboard,
) -> bool {
    let eye_room = inside & !walls.neighbours(size, on);
    eye_room.iter().any(|p| {
        let mut point = Bitboard::EMPTY;
        point.insert(p);
        let apart = eye_room & !point & !point.neighbours(size, on);
        !apart.is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_diagram;

    fn hopeless(diagram: &str) -> String {
        let board = parse_diagram(diagram).expect("diagram");
        hopeless_invaders(&board, Bitboard::EMPTY).vertex_names(board.size())
    }

    const WALL: &str = ". . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        O O O O O O O O O
                        X X X X X X X X X
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .";

    fn with(stones: &[(usize, usize, char)]) -> String {
        let mut rows: Vec<Vec<char>> = WALL
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        for &(col, row, c) in stones {
            rows[8 - row][col] = c;
        }
        rows.iter()
            .map(|r| r.iter().map(|c| format!("{c} ")).collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn a_few_stones_without_an_eye_inside_a_wall_are_hopeless() {
        assert_eq!(hopeless(&with(&[(2, 1, 'O'), (4, 2, 'O')])), "C2 E3");
        assert_eq!(hopeless(&with(&[(4, 1, 'O')])), "E2");
    }

    #[test]
    fn a_region_of_more_than_half_the_board_is_no_walled_off_area() {
        let open = ". . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . X . . . .
                    . . . . . . . . .
                    . . O . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .";
        assert_eq!(hopeless(open), "");
    }

    #[test]
    fn stones_that_can_capture_the_wall_or_have_an_eye_and_room_are_left_to_the_search() {
        // Black's D2 has one liberty among three White stones, which can take it.
        let short = with(&[(3, 1, 'X'), (2, 1, 'O'), (4, 1, 'O'), (3, 0, 'O')]);
        assert_eq!(hopeless(&short), "");
        // Four stones around an eye at B2, with the whole edge to make a second.
        let eye = with(&[(1, 2, 'O'), (0, 1, 'O'), (2, 1, 'O'), (1, 0, 'O')]);
        assert_eq!(hopeless(&eye), "");
    }

    #[test]
    fn room_for_two_eyes_decides_for_more_than_a_few_stones() {
        // Row 1 alone is the region, every point of it next to the wall: no eye at all.
        let one_line = ". . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        O O O O O O O O O
                        X X X X X X X X X
                        O O O O . . . . .";
        assert_eq!(hopeless(one_line), "A1 B1 C1 D1");
        // Two lines: the corner group has its two eyes, A1 and C1.
        let two_eyes = ". . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        O O O O O O O O O
                        X X X X X X X X X
                        O O O O . . . . .
                        . O . O . . . . .";
        assert_eq!(hopeless(two_eyes), "");
    }
}
