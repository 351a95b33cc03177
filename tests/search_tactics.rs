//! Tactical positions solved by a fixed-seed, fixed-budget, single-threaded search
//! (deterministic for a seed when there is no time limit).
//!
//! Diagrams: `X` black, `O` white, `.` empty, top row first, so the last line is row 1
//! and the first column is A (GTP coordinates). Outside the fight every group is alive
//! with eyes and every point is decided, so the fight decides the game, and the komi is
//! chosen so that the expected moves win and every other move loses. Each filled position
//! was checked by an exhaustive search of the fight (its empty points and the stones of
//! the chains with few liberties; area counting after two passes), which found exactly
//! the expected moves winning at that komi. The `..._on_an_open_board` positions are filled
//! ones with the settled areas left as empty territory behind the same walls: the count
//! and the answer are the same.

mod common;

use common::positions::{game_from, mv, name, search, summary};
use yeoul::rules::Color::{self, Black, White};
use yeoul::rules::Game;
use yeoul::search::SearchResult;

const SEED: u64 = 7;

/// Searches `diagram` for `color` with a fixed seed and `budget` playouts.
fn searched(diagram: &str, color: Color, komi: f64, budget: u64) -> (Game, SearchResult) {
    let game = game_from(diagram, color, komi);
    let result = search(&game, color, budget, SEED);
    (game, result)
}

/// Asserts that the search's best move for `color` is one of `answers`.
fn solves(diagram: &str, color: Color, komi: f64, budget: u64, answers: &[&str]) {
    let (game, result) = searched(diagram, color, komi, budget);
    let size = game.size();
    assert!(
        answers.iter().any(|a| mv(&game, a) == result.best),
        "expected one of {answers:?}, got {}; candidates: {}",
        name(size, result.best),
        summary(size, &result, 6)
    );
}

/// Asserts that the search does not choose the self-atari `refused`, and chooses one of
/// `answers` instead.
fn refuses(diagram: &str, color: Color, komi: f64, budget: u64, refused: &str, answers: &[&str]) {
    let (game, result) = searched(diagram, color, komi, budget);
    let size = game.size();
    assert_ne!(
        result.best,
        mv(&game, refused),
        "chose the self-atari {refused}; candidates: {}",
        summary(size, &result, 6)
    );
    assert!(
        answers.iter().any(|a| mv(&game, a) == result.best),
        "expected one of {answers:?}, got {}; candidates: {}",
        name(size, result.best),
        summary(size, &result, 6)
    );
}

/// White's D1-D4 (liberties C1, C2) and Black's E1-E4 (liberties F1, F2) are both
/// eyeless and enclosed; with two liberties each, the side to move wins the race by
/// filling one of the other's outside liberties. Black's win is worth the game.
#[test]
fn black_fills_an_outside_liberty_to_win_the_capturing_race() {
    solves(
        "
        . X . X X O . O .
        X X X X X O O O O
        . X . X X O . O .
        X X X X X O O O O
        . X X X O O . O .
        X X X O X O O O O
        . X X O X O . O .
        X X . O X . O O O
        . X . O X . O . O
        ",
        Black,
        4.5,
        2_000,
        &["C1", "C2"],
    );
}

/// Black's E1-E4 has one liberty, E5, where Black would connect it to the wall above and
/// leave White's D1-D4 (liberties C1, C2) to die. White takes it first at E5.
#[test]
fn white_captures_the_chain_in_atari_before_it_connects_out() {
    solves(
        "
        . X . X X O . O .
        X X X X X O O O O
        . X . X X O . O .
        X X X X X O O O O
        . X X X . O . O .
        X X X O X O O O O
        . X X O X O . O .
        X X . O X O O O O
        . X . O X O O . O
        ",
        White,
        0.5,
        2_000,
        &["E5"],
    );
}

/// Black's F1-F4 is in atari at E1 inside White's area; E1 also touches Black's living
/// D1, so extending there saves the four stones and leaves White's E2-E4 to die.
#[test]
fn black_connects_the_chain_in_atari_to_its_living_group() {
    solves(
        "
        . X . X X O . O .
        X X X X X O O O O
        . X . X X O . O .
        X X X X X O O O O
        . X X X X O . O .
        X X X . O X O O O
        . X X X O X O . O
        X X . X O X O O O
        . X . X . X O . O
        ",
        Black,
        7.5,
        2_000,
        &["E1"],
    );
}

/// Black's F1-F4 is in atari at G1, where an extension only fills its own last liberty.
/// White's E1-E4 next to it is in atari too: capturing it at D4 saves Black's chain.
#[test]
fn black_saves_the_chain_in_atari_by_capturing_the_attacker() {
    solves(
        "
        . X . X X O . O .
        X X X X X O O O O
        . X . X X O . O .
        X X X X X O O O O
        . X X X X O . O .
        X X X . O X O O O
        . X X X O X O . O
        X X . X O X O O O
        . X . X O X . O .
        ",
        Black,
        7.5,
        2_000,
        &["D4"],
    );
}

/// White's corner group F1-J4 has only the straight three G3-H3-J3 for eyes. Black's
/// H3 in the middle leaves one eye at most; White at H3 would make two.
#[test]
fn black_kills_the_straight_three_at_its_vital_point() {
    solves(
        "
        . X X O . O . O .
        X X X O O O O O O
        . X X O . O . O .
        X X X O O O O O O
        . X . X X X X X X
        X X X X X O O O O
        . X . X X O . . .
        X X X X X O O O O
        . X . X X O O O O
        ",
        Black,
        7.5,
        2_000,
        &["H3"],
    );
}

/// Black's corner group A3-D1 has the bent three A2-A1-B1 for eyes. White's A1 at the
/// bend kills it; Black at A1 would live with two eyes.
#[test]
fn white_kills_the_bent_three_in_the_corner() {
    solves(
        "
        . X . X . X X O .
        X X X X X X X O O
        . X . X . X X O .
        X X X X X X X O O
        X X X X X X X O .
        O O O O O O O O O
        X X X X O . O . O
        . X X X O O O O O
        . . X X O . O . O
        ",
        White,
        7.5,
        2_000,
        &["A1"],
    );
}

/// White's D1-D4 (liberties C1, E1) and Black's E2-F1 (liberties E1, G1) share E1.
/// Black's E1 looks like atari but leaves Black's own five stones in atari, and White
/// takes them at G1. Filling White's outside liberty C1 first wins the race.
#[test]
fn black_does_not_approach_the_race_from_the_shared_liberty() {
    refuses(
        "
        . X . X X O . O .
        X X X X X O O O O
        . X . X X O . O .
        X X X X X O O O O
        . X X X O O . O .
        X X X O X O O O O
        . X X O X O . O .
        X X X O X X O O O
        . X . O . X . O .
        ",
        Black,
        7.5,
        2_000,
        "E1",
        &["C1"],
    );
}

/// White's corner group E7-J8 has the bulky five G8-H8-G9-H9-J9 for eyes and nothing
/// outside. Black's H9, the point next to all the others, leaves White one eye; any other
/// move lets White live by taking H9 itself.
#[test]
fn black_kills_the_bulky_five_at_its_vital_point() {
    solves(
        "
        . X . X O O . . .
        X X X X O O . . O
        . X . X O O O O O
        X . X . X X X X X
        X X X X X X X X X
        O O O O O O O O O
        . O . O . O . O .
        O O O O O O O O O
        . O . O . O . O .
        ",
        Black,
        7.5,
        2_000,
        &["H9"],
    );
}

/// White's D8-E6 (liberties C9, E9) and Black's F6-F9 (liberties E9, G9) share E9 on
/// the top edge. White's E9 would atari Black but leave White's own five stones in atari,
/// taken at C9; White's G9 on Black's outside liberty wins the race.
#[test]
fn white_does_not_approach_the_race_from_the_shared_liberty() {
    refuses(
        "
        . X . O . X . O .
        X X X O O X O O O
        . X . X O X O O .
        X X X X O X O O O
        . X . X X O O O .
        X X X X O O O O O
        . X . X O O . O .
        X X X X O O O O O
        . X . X O O . O .
        ",
        White,
        7.5,
        2_000,
        "E9",
        &["G9"],
    );
}

/// Black's E1-E4 reaches into White's area with liberties D1 and E5. Black's E5 joins it
/// to the living wall above; White's E5 would cut it off and leave it in atari.
#[test]
fn black_connects_the_cutting_point_above_its_weak_chain() {
    solves(
        "
        . X . X . X . X .
        X X X X X X X X X
        . X . X . X . X .
        X X X X X X X X X
        O O O O . O O O O
        O . O O X O . O O
        O O O O X O O O O
        O . O O X O . O O
        O O O . X O O . O
        ",
        Black,
        0.5,
        2_000,
        &["E5"],
    );
}

/// White's E1-E4 (liberties D1, D4) hangs from D5 by a diagonal: Black already holds
/// E5, and a black stone at D4 would cut it off and leave it in atari. White connects
/// at D4.
#[test]
fn white_connects_the_diagonal_cutting_point() {
    solves(
        "
        . O . O . O . O .
        O O O O O O O O O
        . O . O . O . O .
        O O O O O O O O O
        X X X O X X X X X
        X . X . O X . X X
        X X X X O X X X X
        X . X X O X . X X
        X X X . O X X . X
        ",
        White,
        2.5,
        2_000,
        &["D4"],
    );
}

/// Black's group D1-H1 on the bottom edge has the pyramid four E1-F1-G1-F2 for eyes.
/// White's F1 in the middle kills it; Black at F1 would make three eyes.
#[test]
fn white_kills_the_pyramid_four_at_its_centre() {
    solves(
        "
        . X . X . X . X .
        X X X X X X X X X
        . X . X . X . X .
        X X X X X X X X X
        O O O O O O O O O
        O . O O O O O O O
        O O O O X X X O O
        O . O X X . X X O
        O O O X . . . X O
        ",
        White,
        7.5,
        2_000,
        &["F1"],
    );
}

/// Black's group B9-F6 on the top edge has the rabbity six D9-C8-D8-E8-D7-E7 for eyes.
/// White's D8, the point touching the other five, kills it; anywhere else Black lives by
/// taking D8.
#[test]
fn white_kills_the_rabbity_six_at_its_centre() {
    solves(
        "
        O X X . X X O . .
        O X . . . X O O O
        O X X . . X O . O
        O O X X X X O O O
        O . O O O O O . O
        O O O O O O O O O
        X X X X X X X X X
        . X . X . X . X .
        X X X X X X X X X
        ",
        White,
        7.5,
        2_000,
        &["D8"],
    );
}

/// White's D6-D9 is in atari at E7, and so are Black's E8-E9 that cut it from White's
/// wall: White's E7 takes them and connects; Black's E7 would take the four stones.
#[test]
fn white_saves_the_chain_in_atari_by_capturing_the_stones_that_cut_it() {
    solves(
        "
        . X X O X O . O .
        X X X O X O O O O
        . X X O . O . O .
        X X X O X O O O O
        . X X X X O . O .
        X X X X X O O O O
        . X . X X O . O .
        X X X X X O O O O
        . X . X X O . O .
        ",
        White,
        2.5,
        2_000,
        &["E7"],
    );
}

/// Two eyeless five-stone chains in the middle of the bottom edge: White's J1-J5
/// (liberties H1-H3) and Black's K1-K5 (liberties L1-L3). Black to move wins the race by
/// filling one of White's outside liberties.
#[test]
fn black_fills_an_outside_liberty_to_win_the_race_on_the_big_board() {
    solves(
        "
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X X X X O O O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X X X O X O O O O . O . O .
        X X X X X X X X O X O O O O O O O O O
        . X . X . X X . O X . O O O . O . O .
        X X X X X X X . O X . O O O O O O O O
        . X . X . X X . O X . O O O . O . O .
        ",
        Black,
        7.5,
        5_000,
        &["H1", "H2", "H3"],
    );
}

/// Black's O18-S19 on the top edge of 19x19 has the pyramid four P19-Q19-R19-Q18 for
/// eyes; White's Q19 at its centre kills it, and Black at Q19 would live.
#[test]
fn white_kills_the_pyramid_four_on_the_top_edge_of_the_big_board() {
    solves(
        "
        . X . X . X . X . X O O O X . . . X O
        X X X X X X X X X X O O O X X . X X O
        . X . X . X . X . X O O O O X X X O O
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O O O O O O O O
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        ",
        White,
        7.5,
        5_000,
        &["Q19"],
    );
}

/// In the centre of 19x19, Black's L8-L11 is in atari at K8, which also touches Black's
/// living J8 and K7: extending there saves the four stones and leaves White's K9-K11
/// (liberties K8, J10) to die.
#[test]
fn black_connects_the_chain_in_atari_in_the_centre_of_the_big_board() {
    solves(
        "
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X X X O O O O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X X O X O O O . O . O .
        X X X X X X X X . O X O O O O O O O O
        . X . X . X . X X O X O O O . O . O .
        X X X X X X X X X . X O O O O O O O O
        . X . X . X . X X X O O O O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        X X X X X X X X X O O O O O O O O O O
        . X . X . X . X X O . O . O . O . O .
        ",
        Black,
        7.5,
        5_000,
        &["K8"],
    );
}

/// White's N5-N8 hangs from M9 by a diagonal into Black's area (liberties M5, M8); Black
/// holds N9, and a black stone at M8 would cut it off in atari. White connects at M8.
#[test]
fn white_connects_the_diagonal_cutting_point_on_the_big_board() {
    solves(
        "
        . O . O . O . O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        . O . O . O . O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        . O . O . O . O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        . O . O . O . O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        X X O O O O O O O O O O O O O O O O O
        X X X X X X X X X O O O O O X X X X X
        . X . X . X . X X X X O X X X X . X .
        X X X X X X X X X X X . O X X X X X X
        . X . X . X . X X X X X O X X X . X .
        X X X X X X X X X X X X O X X X X X X
        . X . X . X . X X X X . O X X X . X .
        X X X X X X X X X X X X X X X X X X X
        . X . X . X . X . X X X X X . X . X .
        X X X X X X X X X X X X X X X X X X X
        . X . X . X . X . X . X . X . X . X .
        ",
        White,
        7.5,
        5_000,
        &["M8"],
    );
}

/// On the left edge of 19x19, White's A8-D8 (liberties A7, A9) and Black's A10-D9
/// (liberties A9, A11) share A9. Black's A9 would atari White but leave Black's five
/// stones in atari at A11; Black's A7 wins the race.
#[test]
fn black_does_not_approach_the_race_from_the_shared_liberty_on_the_big_board() {
    refuses(
        "
        . O . O . O . O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        . O . O . O . O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        . O . O . O . O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        . O . O . O O O . O . O . O . O . O .
        O O O O O O O O O O O O O O O O O O O
        . O . O . O O O O O O O O O O O O O O
        X X O O O O X X X X X X X X X X X X X
        . X X X O X X X . X . X . X . X . X .
        O O O O X X X X X X X X X X X X X X X
        . X X X X X X X . X . X . X . X . X .
        X X X X X X X X X X X X X X X X X X X
        X X X X X X . X . X . X . X . X . X .
        X X X X X X X X X X X X X X X X X X X
        . X . X . X . X . X . X . X . X . X .
        X X X X X X X X X X X X X X X X X X X
        . X . X . X . X . X . X . X . X . X .
        ",
        Black,
        7.5,
        5_000,
        "A9",
        &["A7"],
    );
}

/// On the top edge of 19x19, Black's K16-K19 is in atari at K15, where Black would join
/// it to the wall below and leave White's J16-J19 (liberties H18, H19) to die. White
/// takes it first.
#[test]
fn white_captures_the_chain_in_atari_before_it_connects_out_on_the_big_board() {
    solves(
        "
        . X . X . X X . O X O O O O . O . O .
        X X X X X X X . O X O O O O O O O O O
        . X . X . X X X O X O . O O . O . O .
        X X X X X X X X O X O O O O O O O O O
        . X . X . X X X X . O . O O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X X X X X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        X X X X X X X X X X O O O O O O O O O
        . X . X . X . X . X O O . O . O . O .
        ",
        White,
        7.5,
        5_000,
        &["K15"],
    );
}

/// `black_kills_the_straight_three_at_its_vital_point` with both sides' areas left open
/// behind their walls: the count is the same, and H3 is still the only move.
#[test]
fn black_kills_the_straight_three_on_an_open_board() {
    solves(
        "
        . . X O . . . . .
        . . X O . . . . .
        . . X O . . . . .
        . . X O O O O O O
        . . X X X X X X X
        . . . . X O O O O
        . . . . X O . . .
        . . . . X O O O O
        . . . . X O O O O
        ",
        Black,
        7.5,
        3_000,
        &["H3"],
    );
}

/// `black_does_not_approach_the_race_from_the_shared_liberty` with open corners at the
/// top: the shared liberty E1 is still a self-atari and C1 still wins the race.
#[test]
fn black_does_not_approach_the_race_from_the_shared_liberty_on_an_open_board() {
    refuses(
        "
        . . . X X O . . .
        . . . X X O . . .
        . . . X X O . . .
        X X X X X O O O O
        . X X X O O . O .
        X X X O X O O O O
        . X X O X O . O .
        X X X O X X O O O
        . X . O . X . O .
        ",
        Black,
        7.5,
        3_000,
        "E1",
        &["C1"],
    );
}

/// `white_connects_the_diagonal_cutting_point` with White's upper area left open behind
/// its wall on row 6: D4 is still the only move.
#[test]
fn white_connects_the_diagonal_cutting_point_on_an_open_board() {
    solves(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O O O O O O
        X X X O X X X X X
        X . X . O X . X X
        X X X X O X X X X
        X . X X O X . X X
        X X X . O X X . X
        ",
        White,
        2.5,
        3_000,
        &["D4"],
    );
}
