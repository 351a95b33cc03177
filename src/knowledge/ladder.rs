//! Ladders: can a chain in atari be chased to its capture by ataris alone?
//!
//! The reader plays the chase out on copies of the board: the defender extends (or takes
//! an attacking chain in atari, which counts as an escape), the attacker ataris from one of
//! the two liberties. It is for move features (escaping a working ladder is bad, an atari
//! that starts one is good), so it stays small: a node budget, and an undecided read
//! counts as an escape.

use crate::rules::{Board, Cell, Color, Point, Suicide};

/// Positions the reader may look at for one question.
const NODE_BUDGET: u32 = 400;

/// Whether the chain through `chain`, in atari with its owner to move, is captured by a
/// ladder.
pub fn captured_in_ladder(board: &Board, chain: Point) -> bool {
    let mut nodes = 0;
    defender_is_captured(board, chain, &mut nodes)
}

/// Whether the chain through `chain`, with two liberties and the opponent to move, is
/// captured by a ladder started from one of them.
pub fn ladder_from_two_liberties(board: &Board, chain: Point) -> bool {
    let mut nodes = 0;
    attacker_captures(board, chain, &mut nodes)
}

fn owner(board: &Board, chain: Point) -> Option<Color> {
    match board.cell(chain) {
        Cell::Stone(c) => Some(c),
        _ => None,
    }
}

/// The defender to move, its chain in atari.
fn defender_is_captured(board: &Board, chain: Point, nodes: &mut u32) -> bool {
    *nodes += 1;
    if *nodes > NODE_BUDGET {
        return false;
    }
    let Some(defender) = owner(board, chain) else {
        return true;
    };
    let Some(liberty) = board.atari_liberty(chain) else {
        return false;
    };
    // A counter-capture of an attacking chain in atari: an escape.
    for stone in board.chain_stones(chain).iter() {
        for q in board.neighbour_points(stone) {
            if board.cell(q) == Cell::Stone(defender.opponent()) && board.atari_liberty(q).is_some()
            {
                return false;
            }
        }
    }
    if !board.is_legal(liberty, defender, Suicide::Forbidden) {
        return true;
    }
    let mut after = *board;
    after.play_unchecked(liberty, defender);
    match after.chain_liberties(chain).count() {
        0 | 1 => true,
        2 => attacker_captures(&after, chain, nodes),
        _ => false,
    }
}

/// The attacker to move against a chain with two liberties: an atari from either side
/// that the defender cannot escape.
fn attacker_captures(board: &Board, chain: Point, nodes: &mut u32) -> bool {
    let Some(defender) = owner(board, chain) else {
        return true;
    };
    let attacker = defender.opponent();
    let liberties = board.chain_liberties(chain);
    if liberties.count() != 2 {
        return false;
    }
    for a in liberties.iter() {
        if *nodes > NODE_BUDGET {
            return false;
        }
        if !board.is_legal(a, attacker, Suicide::Forbidden) {
            continue;
        }
        let mut after = *board;
        after.play_unchecked(a, attacker);
        if after.cell(chain) != Cell::Stone(defender) {
            return true;
        }
        // The atari stone itself must not be left in atari (the defender would take it).
        if after.atari_liberty(a).is_some() {
            continue;
        }
        if after.atari_liberty(chain).is_some() && defender_is_captured(&after, chain, nodes) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, parse_diagram};

    fn board(rows: &[&str]) -> Board {
        parse_diagram(&rows.join("\n")).expect("diagram")
    }

    fn at(board: &Board, name: &str) -> Point {
        board.size().parse_point(name).expect("point")
    }

    #[test]
    fn a_stone_in_a_plain_ladder_is_captured() {
        // White C3 in atari (its liberty D3): running right and down ends at the edge.
        let b = board(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . X X . . . . .",
            ". X O . . . . . .",
            ". . X . . . . . .",
            ". . . . . . . . .",
        ]);
        assert_eq!(b.size(), BoardSize::NINE);
        assert!(captured_in_ladder(&b, at(&b, "C3")));
    }

    #[test]
    fn a_ladder_breaker_saves_the_stone() {
        let b = board(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . X X . . . . .",
            ". X O . . . . . .",
            ". . X . O . . . .",
            ". . . . . . . . .",
        ]);
        assert!(!captured_in_ladder(&b, at(&b, "C3")));
    }

    #[test]
    fn a_chain_that_gets_three_liberties_escapes_and_one_that_does_not_is_caught() {
        let open = board(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". X O . . . . . .",
            ". . X . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        assert!(!ladder_from_two_liberties(&open, at(&open, "C5")));
        let walled = board(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . X . . . . .",
            ". X O . . . . . .",
            ". . X . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        assert!(ladder_from_two_liberties(&walled, at(&walled, "C4")));
    }
}
