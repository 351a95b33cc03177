//! ASCII-diagram tests of RULES.md sections 1 to 5: moves and captures, ko and
//! repetition, the end of the game, dead stones and seki, counting.
//!
//! Diagrams: `X` black, `O` white, `.` empty, top row first, so the last line is row 1
//! and the first column is A (GTP coordinates). Every expected value below was worked
//! out by hand from the rule book, not read back from the engine.

use yeoul::rules::Color::{Black, White};
use yeoul::rules::Ruleset::{Aga, Chinese, Japanese, Korean, NewZealand, TrompTaylor};
use yeoul::rules::{
    Bitboard, Board, BoardSize, CannotUndo, Color, Game, IllegalMove, Move, PlayOutcome, Point,
    Ruleset, Score, parse_diagram, to_diagram,
};

/// The rule sets whose ko rule is a superko (positional or situational).
const SUPERKO_RULES: [Ruleset; 4] = [Chinese, Aga, NewZealand, TrompTaylor];

/// A ko in the middle of the edge-free 5x5 board: White's stone on B3 has one liberty,
/// C3, and Black at C3 is inside White's eye shape, so it takes exactly one stone.
const KO: &str = "
    . . . . .
    . X O . .
    X O . O .
    . X O . .
    . . . . .
";

/// The same board after Black has taken the ko at C3.
const KO_TAKEN: &str = "
    . . . . .
    . X O . .
    X . X O .
    . X O . .
    . . . . .
";

/// Three kos on 9x9: White holds the kos at B1 (Black takes at C1) and H1 (Black takes
/// at G1), Black holds the one at C9 (White takes at B9). Every other chain has at least
/// two liberties besides the ko points.
const TRIPLE_KO: &str = "
    X . X O . . . . .
    X X O O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X O O . O O X X
    X O . O . O . O X
";

/// One turn of the triple ko, Black to move at the start: each move takes one stone in a
/// ko other than the one just taken, and after six moves every ko is back where it was.
const TRIPLE_KO_CYCLE: [(Color, &str); 6] = [
    (Black, "C1"),
    (White, "B9"),
    (Black, "G1"),
    (White, "B1"),
    (Black, "C9"),
    (White, "H1"),
];

/// A finished 5x5 game: Black owns D3-E5 (6 points) and D1-E1 (2), White owns A4-A5
/// (2) and A1-A2 (2). Black has 7 stones, White 6.
const FINISHED: &str = "
    . O X . .
    . O X . .
    O O X . .
    . O X X X
    . O X . .
";

/// `FINISHED` with a dead White stone on E5 inside Black's area.
const FINISHED_WITH_DEAD_STONE: &str = "
    . O X . O
    . O X . .
    O O X . .
    . O X X X
    . O X . .
";

/// A seki in the bottom rows: Black's A2-B2-C2-B1 (eye A1) and White's D2-E2-D1 (eye E1)
/// share the liberty C1; whoever fills it is taken. Above them, White's outer wall owns
/// A4-B5 (4 points) and Black's owns E4-E5 (2 points). 8 stones each.
const SEKI: &str = "
    . . O X .
    . . O X .
    O O O X X
    X X X O O
    . X . O .
";

fn board(diagram: &str) -> Board {
    parse_diagram(diagram).expect("a valid diagram")
}

fn at(game: &Game, name: &str) -> Point {
    game.size()
        .parse_point(name)
        .expect("a point of this board")
}

fn points(game: &Game, names: &[&str]) -> Bitboard {
    names.iter().map(|name| at(game, name)).collect()
}

fn play(game: &mut Game, color: Color, name: &str) -> Result<PlayOutcome, IllegalMove> {
    let p = at(game, name);
    game.play(color, Move::Play(p))
}

fn check(game: &Game, color: Color, name: &str) -> Result<(), IllegalMove> {
    game.check(color, Move::Play(at(game, name)))
}

fn pass(game: &mut Game, color: Color) {
    assert_eq!(
        game.play(color, Move::Pass),
        Ok(PlayOutcome {
            captured: 0,
            repeats_position: false
        })
    );
}

fn took(captured: u32) -> Result<PlayOutcome, IllegalMove> {
    Ok(PlayOutcome {
        captured,
        repeats_position: false,
    })
}

fn assert_position(game: &Game, diagram: &str) {
    assert_eq!(
        to_diagram(game.board()),
        to_diagram(&board(diagram)),
        "under {}",
        game.ruleset()
    );
}

/// A game under `ruleset` that reaches `diagram` by ordinary plays: first every stone of
/// `to_move`, then every stone of the other colour, so that `to_move` has the next turn.
/// In a diagram every chain has a liberty, and a chain built stone by stone has at least
/// the liberties it ends with or an unfilled point of its own, so nothing is captured.
fn game_from(diagram: &str, ruleset: Ruleset, to_move: Color) -> Game {
    let target = board(diagram);
    let mut game = Game::new(target.size(), ruleset);
    for color in [to_move, to_move.opponent()] {
        for p in target.stones(color).iter() {
            assert_eq!(
                game.play(color, Move::Play(p)),
                took(0),
                "setting up {diagram}"
            );
        }
    }
    assert_position(&game, diagram);
    assert_eq!(game.to_move(), to_move);
    game
}

/// A game that reaches `diagram` with Black and White alternating, Black first.
fn alternating_game(diagram: &str, ruleset: Ruleset) -> Game {
    let target = board(diagram);
    let mut game = Game::new(target.size(), ruleset);
    let black: Vec<Point> = target.stones(Black).iter().collect();
    let white: Vec<Point> = target.stones(White).iter().collect();
    for i in 0..black.len().max(white.len()) {
        for (color, stones) in [(Black, &black), (White, &white)] {
            if let Some(&p) = stones.get(i) {
                assert_eq!(
                    game.play(color, Move::Play(p)),
                    took(0),
                    "setting up {diagram}"
                );
            }
        }
    }
    assert_position(&game, diagram);
    game
}

// §1 Board and moves

#[test]
fn black_moves_first_and_white_moves_first_after_handicap_stones() {
    for ruleset in Ruleset::ALL {
        let game = Game::new(BoardSize::NINE, ruleset);
        assert_eq!(game.to_move(), Black);

        let mut fixed = Game::new(BoardSize::NINE, ruleset);
        fixed.place_fixed_handicap(3).unwrap();
        assert_eq!(fixed.to_move(), White);
        assert_eq!(fixed.handicap(), 3);

        let mut free = Game::new(BoardSize::NINE, ruleset);
        let stones = [at(&free, "D4"), at(&free, "F6")];
        free.set_free_handicap(&stones).unwrap();
        assert_eq!(free.to_move(), White);
        assert_eq!(free.handicap(), 2);
    }
}

#[test]
fn a_stone_on_an_occupied_point_is_illegal() {
    for ruleset in Ruleset::ALL {
        let mut game = game_from(KO, ruleset, Black);
        for color in [Black, White] {
            for name in ["B4", "C4"] {
                assert_eq!(play(&mut game, color, name), Err(IllegalMove::Occupied));
            }
        }
        assert_position(&game, KO);
        assert_eq!(game.record().len(), 7);
        assert_eq!(game.to_move(), Black);
    }
}

#[test]
fn a_point_off_the_board_is_illegal() {
    let nineteen = BoardSize::NINETEEN;
    // T19 lies beyond every row of 9x9; K1's index is a guard cell of 9x9.
    let beyond = nineteen.parse_point("T19").unwrap();
    let guard = nineteen.parse_point("K1").unwrap();
    assert!(BoardSize::NINE.parse_point("K1").is_err());
    for ruleset in Ruleset::ALL {
        let mut game = Game::new(BoardSize::NINE, ruleset);
        for color in [Black, White] {
            for p in [beyond, guard] {
                assert_eq!(game.check(color, Move::Play(p)), Err(IllegalMove::OffBoard));
                assert_eq!(game.play(color, Move::Play(p)), Err(IllegalMove::OffBoard));
            }
        }
        assert!(game.record().is_empty());
        assert_eq!(game.board().empty_count(), 81);
    }
}

#[test]
fn orthogonal_neighbours_form_one_chain_and_diagonal_ones_do_not() {
    // White's B4-C4 is one chain with the single liberty D4; White's D3 touches C4 only
    // diagonally, so it neither joins the chain nor lends it a liberty.
    let diagram = "
        . X X . .
        X O O . .
        . X X O .
        . . . . .
        . . . . .
    ";
    let mut game = game_from(diagram, Chinese, Black);
    let b = *game.board();
    assert_eq!(
        b.chain_stones(at(&game, "B4")),
        points(&game, &["B4", "C4"])
    );
    assert_eq!(
        b.chain_stones(at(&game, "C4")),
        points(&game, &["B4", "C4"])
    );
    assert_eq!(b.chain_liberties(at(&game, "B4")), points(&game, &["D4"]));
    assert!(b.is_in_atari(at(&game, "C4")));
    assert_eq!(b.chain_stones(at(&game, "D3")), points(&game, &["D3"]));
    assert_eq!(
        b.chain_liberties(at(&game, "D3")),
        points(&game, &["D4", "E3", "D2"])
    );
    assert_eq!(
        b.chain_liberties(at(&game, "B3")),
        points(&game, &["A3", "B2", "C2"])
    );

    assert_eq!(play(&mut game, Black, "D4"), took(2));
    assert_position(
        &game,
        "
        . X X . .
        X . . X .
        . X X O .
        . . . . .
        . . . . .
        ",
    );
    assert_eq!(
        game.board().chain_liberties(at(&game, "D3")),
        points(&game, &["E3", "D2"])
    );
    assert_eq!(game.prisoners(Black), 2);
    assert_eq!(game.prisoners(White), 0);
}

#[test]
fn one_stone_captures_every_opposing_chain_it_leaves_without_liberties() {
    // C4 is the last liberty of White's B4 and of White's two-stone D4-D3.
    let diagram = "
        . X . X .
        X O . O X
        . X X O X
        . . . X .
        . . . . .
    ";
    for ruleset in Ruleset::ALL {
        let mut game = game_from(diagram, ruleset, Black);
        assert_eq!(play(&mut game, Black, "C4"), took(3));
        assert_position(
            &game,
            "
            . X . X .
            X . X . X
            . X X . X
            . . . X .
            . . . . .
            ",
        );
        assert_eq!(game.board().captures(Black), 3);
        assert_eq!(game.board().captures(White), 0);
        // Three stones taken: no ko.
        assert_eq!(game.board().ko(), None);
        game.board().check_invariants().unwrap();
    }
}

#[test]
fn a_move_without_liberties_that_captures_is_legal_because_captures_come_first() {
    // Black's A5 has no liberty of its own until it removes White's three stones, whose
    // last liberty it fills.
    let diagram = "
        . O X . .
        O O X . .
        X X . . .
        . . . . .
        . . . . .
    ";
    for ruleset in Ruleset::ALL {
        let mut game = game_from(diagram, ruleset, Black);
        assert_eq!(check(&game, Black, "A5"), Ok(()), "{ruleset}");
        assert_eq!(play(&mut game, Black, "A5"), took(3), "{ruleset}");
        assert_position(
            &game,
            "
            X . X . .
            . . X . .
            X X . . .
            . . . . .
            . . . . .
            ",
        );
        assert_eq!(
            game.board().chain_liberties(at(&game, "A5")),
            points(&game, &["B5", "A4"])
        );
        assert_eq!(game.prisoners(Black), 3);
    }
}

/// Black's A1 would join A2 and leave the two stones without a liberty, taking nothing.
const MULTI_STONE_SUICIDE: &str = "
    . . . . .
    . . . . .
    O . . . .
    X O . . .
    . O . . .
";

#[test]
fn suicide_is_illegal_under_chinese_aga_japanese_and_korean() {
    for ruleset in [Chinese, Aga, Japanese, Korean] {
        let mut game = game_from(MULTI_STONE_SUICIDE, ruleset, Black);
        assert_eq!(
            check(&game, Black, "A1"),
            Err(IllegalMove::Suicide),
            "{ruleset}"
        );
        assert_eq!(
            play(&mut game, Black, "A1"),
            Err(IllegalMove::Suicide),
            "{ruleset}"
        );
        assert!(!game.is_legal(Black, Move::Play(at(&game, "A1"))));
        assert_position(&game, MULTI_STONE_SUICIDE);
        assert_eq!(game.record().len(), 4);
        assert_eq!(game.to_move(), Black);
    }
}

#[test]
fn multi_stone_suicide_is_legal_under_new_zealand_and_tromp_taylor_and_removes_the_chain() {
    for ruleset in [NewZealand, TrompTaylor] {
        let mut game = game_from(MULTI_STONE_SUICIDE, ruleset, Black);
        assert_eq!(check(&game, Black, "A1"), Ok(()), "{ruleset}");
        assert_eq!(play(&mut game, Black, "A1"), took(0), "{ruleset}");
        assert_position(
            &game,
            "
            . . . . .
            . . . . .
            O . . . .
            . O . . .
            . O . . .
            ",
        );
        // The two suicided stones are White's prisoners.
        assert_eq!(game.board().captures(White), 2);
        assert_eq!(game.prisoners(White), 2);
        assert_eq!(game.prisoners(Black), 0);
        assert_eq!(game.to_move(), White);
        game.board().check_invariants().unwrap();
    }
}

#[test]
fn single_stone_suicide_is_illegal_under_every_rule_set() {
    // C3 and A1 are White eyes: a lone Black stone there would have no liberty.
    let diagram = "
        . . . . .
        . . O . .
        . O . O .
        O . O . .
        . O . . .
    ";
    for ruleset in Ruleset::ALL {
        let mut game = game_from(diagram, ruleset, Black);
        for name in ["C3", "A1"] {
            assert_eq!(
                check(&game, Black, name),
                Err(IllegalMove::Suicide),
                "{ruleset} {name}"
            );
            assert_eq!(
                play(&mut game, Black, name),
                Err(IllegalMove::Suicide),
                "{ruleset}"
            );
        }
        assert_position(&game, diagram);
        assert_eq!(game.prisoners(White), 0);
        // White may fill its own eyes: the stones join chains that keep liberties.
        assert_eq!(check(&game, White, "C3"), Ok(()));
        assert_eq!(check(&game, White, "A1"), Ok(()));
    }
}

#[test]
fn a_pass_is_always_legal_and_clears_the_simple_ko_ban() {
    let mut game = game_from(KO, Japanese, Black);
    assert_eq!(play(&mut game, Black, "C3"), took(1));
    let b3 = at(&game, "B3");
    assert_eq!(game.board().ko(), Some((b3, White)));
    assert_eq!(check(&game, White, "B3"), Err(IllegalMove::Ko));

    pass(&mut game, White);
    assert_eq!(game.board().ko(), None);
    assert_eq!(game.to_move(), Black);
    // Simple ko only: with the ban gone, White may retake (playing twice in a row).
    assert_eq!(check(&game, White, "B3"), Ok(()));

    for ruleset in Ruleset::ALL {
        let mut game = game_from(KO, ruleset, Black);
        for _ in 0..3 {
            for color in [Black, White] {
                assert_eq!(game.check(color, Move::Pass), Ok(()));
            }
            pass(&mut game, Black);
        }
        assert_eq!(game.consecutive_passes(), 3);
    }
}

#[test]
fn either_colour_may_play_twice_in_a_row() {
    for ruleset in Ruleset::ALL {
        let mut game = Game::new(BoardSize::NINE, ruleset);
        assert_eq!(play(&mut game, White, "E5"), took(0));
        assert_eq!(game.to_move(), Black);
        assert_eq!(play(&mut game, White, "D4"), took(0));
        assert_eq!(play(&mut game, Black, "C3"), took(0));
        assert_eq!(play(&mut game, Black, "G7"), took(0));
        assert_eq!(game.to_move(), White);
        let record: Vec<(Color, Move)> =
            [(White, "E5"), (White, "D4"), (Black, "C3"), (Black, "G7")]
                .iter()
                .map(|&(c, n)| (c, Move::Play(at(&game, n))))
                .collect();
        assert_eq!(game.record(), &record[..]);
    }
}

// §2 Ko and repetition

#[test]
fn recapturing_a_ko_immediately_is_illegal_under_every_rule_set() {
    for ruleset in Ruleset::ALL {
        let mut game = game_from(KO, ruleset, Black);
        assert_eq!(play(&mut game, Black, "C3"), took(1), "{ruleset}");
        assert_position(&game, KO_TAKEN);
        assert_eq!(check(&game, White, "B3"), Err(IllegalMove::Ko), "{ruleset}");
        assert_eq!(
            play(&mut game, White, "B3"),
            Err(IllegalMove::Ko),
            "{ruleset}"
        );
        assert!(!game.repeats_position(White, at(&game, "B3")));
        assert_position(&game, KO_TAKEN);
        assert_eq!(game.to_move(), White);
    }
}

#[test]
fn a_ko_may_be_retaken_after_a_move_elsewhere() {
    for ruleset in Ruleset::ALL {
        let mut game = game_from(KO, ruleset, Black);
        assert_eq!(play(&mut game, Black, "C3"), took(1));
        // A ko threat and its answer.
        assert_eq!(play(&mut game, White, "E5"), took(0));
        assert_eq!(play(&mut game, Black, "E1"), took(0));
        assert_eq!(play(&mut game, White, "B3"), took(1), "{ruleset}");
        assert_position(
            &game,
            "
            . . . . O
            . X O . .
            X O . O .
            . X O . .
            . . . . X
            ",
        );
        // Now Black is the one who must wait.
        assert_eq!(
            play(&mut game, Black, "C3"),
            Err(IllegalMove::Ko),
            "{ruleset}"
        );
    }
}

/// Black takes the ko, White passes, Black passes, White retakes. The retake recreates
/// the arrangement of `KO`, which existed before Black's capture, so positional superko
/// forbids it. It also recreates the situation: before the capture it was Black's turn
/// (the set-up ended with White's stone), and after White's retake it is Black's turn
/// again, so situational superko forbids it too. Only simple ko allows it: the passes
/// cleared the ban.
#[test]
fn retaking_a_ko_after_two_passes_is_legal_under_simple_ko_only() {
    for ruleset in Ruleset::ALL {
        let mut game = game_from(KO, ruleset, Black);
        assert_eq!(play(&mut game, Black, "C3"), took(1));
        pass(&mut game, White);
        pass(&mut game, Black);
        assert!(game.is_over());
        let expected = match ruleset {
            Japanese | Korean => Ok(()),
            Chinese | TrompTaylor | Aga | NewZealand => Err(IllegalMove::Superko),
        };
        assert_eq!(check(&game, White, "B3"), expected, "{ruleset}");
        let outcome = play(&mut game, White, "B3");
        assert_eq!(outcome.map(drop), expected, "{ruleset}");
        match outcome {
            Ok(outcome) => {
                assert_eq!(
                    outcome,
                    PlayOutcome {
                        captured: 1,
                        repeats_position: true
                    }
                );
                assert_position(&game, KO);
                assert_eq!(game.consecutive_passes(), 0);
            }
            Err(_) => {
                assert_position(&game, KO_TAKEN);
                assert_eq!(game.consecutive_passes(), 2);
            }
        }
    }
}

/// The set-up ends with a Black stone, so the arrangement of `KO` first exists with White
/// to move. Black then takes the ko (a second Black move in a row), White passes, Black
/// passes, and White retakes: the arrangement of `KO` comes back, but with Black to move,
/// which never happened before.
#[test]
fn positional_superko_forbids_a_repetition_that_situational_superko_allows() {
    for ruleset in Ruleset::ALL {
        let mut game = game_from(KO, ruleset, White);
        assert_eq!(play(&mut game, Black, "C3"), took(1));
        assert_eq!(game.to_move(), White);
        pass(&mut game, White);
        pass(&mut game, Black);
        let expected = match ruleset {
            Chinese | TrompTaylor => Err(IllegalMove::Superko),
            Aga | NewZealand | Japanese | Korean => Ok(()),
        };
        assert_eq!(check(&game, White, "B3"), expected, "{ruleset}");
        let outcome = play(&mut game, White, "B3");
        assert_eq!(outcome.map(drop), expected, "{ruleset}");
        if expected.is_ok() {
            assert_position(&game, KO);
            assert_eq!(game.to_move(), Black);
        } else {
            assert_position(&game, KO_TAKEN);
        }
    }
}

#[test]
fn a_triple_ko_may_cycle_under_japanese_and_the_repeating_moves_are_reported() {
    for ruleset in [Japanese, Korean] {
        let mut game = game_from(TRIPLE_KO, ruleset, Black);
        let start = game.board().hash();
        for round in 0..3 {
            for (i, &(color, name)) in TRIPLE_KO_CYCLE.iter().enumerate() {
                // The sixth move of the first turn recreates the start; from then on every
                // move recreates the arrangement one turn earlier.
                let repeats = round > 0 || i == 5;
                assert_eq!(game.repeats_position(color, at(&game, name)), repeats);
                assert_eq!(
                    play(&mut game, color, name),
                    Ok(PlayOutcome {
                        captured: 1,
                        repeats_position: repeats
                    }),
                    "{ruleset} round {round} move {name}"
                );
                // The simple-ko ban still holds inside the cycle.
                let (retake, banned) = game.board().ko().expect("every move takes a ko");
                assert_eq!(banned, color.opponent());
                assert_eq!(game.check(banned, Move::Play(retake)), Err(IllegalMove::Ko));
            }
            assert_position(&game, TRIPLE_KO);
            assert_eq!(game.board().hash(), start);
            assert_eq!(game.board().hash_from_scratch(), start);
        }
        assert_eq!(game.record().len(), 21 + 18);
        assert!(!game.is_over());
    }
}

#[test]
fn the_move_that_closes_a_triple_ko_cycle_is_refused_under_every_superko_rule() {
    for ruleset in SUPERKO_RULES {
        let mut game = game_from(TRIPLE_KO, ruleset, Black);
        for &(color, name) in &TRIPLE_KO_CYCLE[..5] {
            assert_eq!(play(&mut game, color, name), took(1), "{ruleset} {name}");
        }
        let before = *game.board();
        // White's H1 would bring back the start, Black to move, as it was after the set-up.
        assert_eq!(
            check(&game, White, "H1"),
            Err(IllegalMove::Superko),
            "{ruleset}"
        );
        assert_eq!(
            play(&mut game, White, "H1"),
            Err(IllegalMove::Superko),
            "{ruleset}"
        );
        assert!(!game.repeats_position(White, at(&game, "H1")));
        assert!(game.board().is_identical(&before));
        assert_eq!(game.record().len(), 21 + 5);
    }
}

// §3 End of the game

#[test]
fn two_consecutive_passes_end_the_game() {
    for ruleset in Ruleset::ALL {
        let mut game = Game::new(BoardSize::NINE, ruleset);
        assert!(!game.is_over());
        pass(&mut game, Black);
        assert_eq!(game.consecutive_passes(), 1);
        assert!(!game.is_over());
        pass(&mut game, White);
        assert_eq!(game.consecutive_passes(), 2);
        assert!(game.is_over());
    }
}

#[test]
fn a_stone_between_two_passes_resets_the_pass_count() {
    let mut game = Game::new(BoardSize::NINE, Chinese);
    pass(&mut game, Black);
    assert_eq!(play(&mut game, White, "E5"), took(0));
    assert_eq!(game.consecutive_passes(), 0);
    pass(&mut game, Black);
    assert_eq!(game.consecutive_passes(), 1);
    assert!(!game.is_over());
    pass(&mut game, White);
    assert!(game.is_over());
}

#[test]
fn moves_sent_after_the_end_of_the_game_are_still_accepted() {
    for ruleset in Ruleset::ALL {
        let mut game = game_from(FINISHED_WITH_DEAD_STONE, ruleset, Black);
        pass(&mut game, Black);
        pass(&mut game, White);
        assert!(game.is_over());
        // Clean-up: Black removes the dead stone on E5.
        assert_eq!(play(&mut game, Black, "D5"), took(0), "{ruleset}");
        assert_eq!(game.consecutive_passes(), 0);
        assert_eq!(play(&mut game, Black, "E4"), took(1), "{ruleset}");
        assert_eq!(game.prisoners(Black), 1);
    }
}

#[test]
fn the_move_limit_is_three_moves_per_point() {
    assert_eq!(Game::new(BoardSize::NINE, Chinese).move_limit(), 243);
    assert_eq!(Game::new(BoardSize::THIRTEEN, Japanese).move_limit(), 507);
    assert_eq!(Game::new(BoardSize::NINETEEN, Aga).move_limit(), 1083);
    for n in 2..=19 {
        let size = BoardSize::new(n).unwrap();
        assert_eq!(Game::new(size, TrompTaylor).move_limit(), 3 * n * n);
    }
}

#[test]
fn the_game_is_over_when_the_move_limit_is_reached() {
    // Under japanese the triple ko cycles for ever without a pass: 21 set-up stones, then
    // 222 = 37 x 6 cycling moves reach the 243 moves of 9x9.
    let mut game = game_from(TRIPLE_KO, Japanese, Black);
    assert_eq!(game.move_limit(), 243);
    let mut cycle = TRIPLE_KO_CYCLE.iter().cycle();
    while game.record().len() < 243 {
        assert!(!game.is_over(), "over after {} moves", game.record().len());
        let &(color, name) = cycle.next().unwrap();
        assert_eq!(play(&mut game, color, name).map(|o| o.captured), Ok(1));
    }
    assert_eq!(game.record().len(), 243);
    assert_eq!(game.consecutive_passes(), 0);
    assert!(game.is_over());
    assert_position(&game, TRIPLE_KO);
    game.undo().unwrap();
    assert!(!game.is_over());
}

// §4 and §5 Dead stones, seki and counting

#[test]
fn scores_display_as_b_plus_w_plus_or_zero() {
    let none = Bitboard::EMPTY;
    let mut game = game_from(FINISHED, Chinese, Black);
    // Area: Black 7 stones + 8 points = 15, White 6 stones + 4 points = 10.
    for (komi, white, text) in [
        (1.5, 11.5, "B+3.5"),
        (5.5, 15.5, "W+0.5"),
        (5.0, 15.0, "0"),
        (0.0, 10.0, "B+5"),
        (7.5, 17.5, "W+2.5"),
    ] {
        game.set_komi(komi);
        let score = game.score(&none, &none);
        assert_eq!(score, Score { black: 15.0, white });
        assert_eq!(score.to_string(), text);
    }
    game.set_komi(5.0);
    assert_eq!(game.score(&none, &none).winner(), None);
    game.set_komi(5.5);
    assert_eq!(game.score(&none, &none).winner(), Some(White));
}

#[test]
fn area_scoring_counts_stones_and_surrounded_regions_and_white_adds_komi() {
    let none = Bitboard::EMPTY;
    for (ruleset, white, text) in [
        (Chinese, 17.5, "W+2.5"),
        (Aga, 17.5, "W+2.5"),
        (NewZealand, 17.0, "W+2"),
        (TrompTaylor, 17.5, "W+2.5"),
    ] {
        let game = game_from(FINISHED, ruleset, Black);
        let score = game.score(&none, &none);
        assert_eq!(score, Score { black: 15.0, white }, "{ruleset}");
        assert_eq!(score.to_string(), text);
    }
}

#[test]
fn territory_scoring_counts_surrounded_regions_and_not_stones() {
    let none = Bitboard::EMPTY;
    for ruleset in [Japanese, Korean] {
        let game = game_from(FINISHED, ruleset, Black);
        // Black 8 points, White 4 points + 6.5.
        let score = game.score(&none, &none);
        assert_eq!(
            score,
            Score {
                black: 8.0,
                white: 10.5
            },
            "{ruleset}"
        );
        assert_eq!(score.to_string(), "W+2.5");
    }
}

#[test]
fn default_komi_depends_on_the_rule_set_and_is_half_a_point_in_handicap_games() {
    for (ruleset, komi) in [
        (Chinese, 7.5),
        (Aga, 7.5),
        (NewZealand, 7.0),
        (TrompTaylor, 7.5),
        (Japanese, 6.5),
        (Korean, 6.5),
    ] {
        let mut game = Game::new(BoardSize::NINETEEN, ruleset);
        assert_eq!(game.komi(), komi, "{ruleset}");
        game.place_fixed_handicap(4).unwrap();
        assert_eq!(game.komi(), 0.5, "{ruleset}");
    }
}

#[test]
fn an_explicit_komi_wins_over_the_default() {
    let none = Bitboard::EMPTY;
    let mut game = game_from(FINISHED, Japanese, Black);
    game.set_komi(0.0);
    assert_eq!(game.komi(), 0.0);
    assert_eq!(
        game.score(&none, &none),
        Score {
            black: 8.0,
            white: 4.0
        }
    );
    game.set_ruleset(Chinese);
    assert_eq!(game.komi(), 0.0);
    assert_eq!(game.score(&none, &none).to_string(), "B+5");

    // Set before the handicap, and after it.
    let mut game = Game::new(BoardSize::NINE, Chinese);
    game.set_komi(6.5);
    game.place_fixed_handicap(2).unwrap();
    assert_eq!(game.komi(), 6.5);
    game.set_komi(-2.0);
    assert_eq!(game.komi(), -2.0);
}

#[test]
fn white_receives_handicap_compensation_under_chinese_and_aga_only() {
    let none = Bitboard::EMPTY;
    // Two fixed stones (C3, G7) on an otherwise empty 9x9: Black's area is the whole
    // board, 81 points, and its territory 79; White has komi 0.5 plus the bonus.
    for (ruleset, black, white, text) in [
        (Chinese, 81.0, 2.5, "B+78.5"),
        (Aga, 81.0, 1.5, "B+79.5"),
        (NewZealand, 81.0, 0.5, "B+80.5"),
        (TrompTaylor, 81.0, 0.5, "B+80.5"),
        (Japanese, 79.0, 0.5, "B+78.5"),
        (Korean, 79.0, 0.5, "B+78.5"),
    ] {
        let mut game = Game::new(BoardSize::NINE, ruleset);
        let stones = game.place_fixed_handicap(2).unwrap();
        assert_eq!(stones, vec![at(&game, "C3"), at(&game, "G7")]);
        let score = game.score(&none, &none);
        assert_eq!(score, Score { black, white }, "{ruleset}");
        assert_eq!(score.to_string(), text);
    }
    // Four free stones: chinese +4, aga +3, japanese nothing (territory 77).
    for (ruleset, black, white) in [
        (Chinese, 81.0, 4.5),
        (Aga, 81.0, 3.5),
        (Japanese, 77.0, 0.5),
    ] {
        let mut game = Game::new(BoardSize::NINE, ruleset);
        let stones = [
            at(&game, "B2"),
            at(&game, "H8"),
            at(&game, "E5"),
            at(&game, "A9"),
        ];
        game.set_free_handicap(&stones).unwrap();
        assert_eq!(
            game.score(&none, &none),
            Score { black, white },
            "{ruleset}"
        );
    }
}

#[test]
fn dead_stones_are_removed_and_count_as_prisoners_under_territory_scoring() {
    let none = Bitboard::EMPTY;
    let game = game_from(FINISHED_WITH_DEAD_STONE, Japanese, Black);
    let dead = points(&game, &["E5"]);
    // Removed: Black's 8 points (E5 among them) + the dead stone as a prisoner.
    assert_eq!(
        game.score(&dead, &none),
        Score {
            black: 9.0,
            white: 10.5
        }
    );
    assert_eq!(game.score(&dead, &none).to_string(), "W+1.5");
    // Left alive, E5 spoils D3-E5 (it touches both colours): Black keeps D1-E1 only.
    assert_eq!(
        game.score(&none, &none),
        Score {
            black: 2.0,
            white: 10.5
        }
    );

    let game = game_from(FINISHED_WITH_DEAD_STONE, Chinese, Black);
    // Area: removing the stone gives back FINISHED's count; it is not a prisoner.
    assert_eq!(
        game.score(&dead, &none),
        Score {
            black: 15.0,
            white: 17.5
        }
    );
    // Alive, it is a White stone: Black 7 + 2, White 7 + 4 + 7.5.
    assert_eq!(
        game.score(&none, &none),
        Score {
            black: 9.0,
            white: 18.5
        }
    );
    // Marking an empty point dead changes nothing.
    assert_eq!(
        game.score(&points(&game, &["D4"]), &none),
        game.score(&none, &none)
    );
}

#[test]
fn a_dead_stone_counts_as_if_captured_and_prisoners_count_under_territory_only() {
    let none = Bitboard::EMPTY;
    for (ruleset, marked_dead, captured) in [
        // Territory: marked dead, 8 points + 1 prisoner; captured in play with D5 and E4,
        // Black's two stones fill two points of its own: 6 points + 1 prisoner.
        (
            Japanese,
            Score {
                black: 9.0,
                white: 10.5,
            },
            Score {
                black: 7.0,
                white: 10.5,
            },
        ),
        // Area: 15 either way (the two stones replace two points); no prisoners.
        (
            Chinese,
            Score {
                black: 15.0,
                white: 17.5,
            },
            Score {
                black: 15.0,
                white: 17.5,
            },
        ),
    ] {
        let mut game = game_from(FINISHED_WITH_DEAD_STONE, ruleset, Black);
        assert_eq!(
            game.score(&points(&game, &["E5"]), &none),
            marked_dead,
            "{ruleset}"
        );
        assert_eq!(play(&mut game, Black, "D5"), took(0));
        assert_eq!(play(&mut game, Black, "E4"), took(1));
        assert_eq!(game.prisoners(Black), 1);
        assert_eq!(game.score(&none, &none), captured, "{ruleset}");
    }
}

#[test]
fn seki_eyes_count_under_area_scoring_but_nothing_next_to_a_seki_counts_under_territory() {
    let none = Bitboard::EMPTY;
    let game = game_from(SEKI, Chinese, Black);
    let b = *game.board();
    assert_eq!(
        b.chain_liberties(at(&game, "A2")),
        points(&game, &["A1", "C1"])
    );
    assert_eq!(
        b.chain_liberties(at(&game, "D2")),
        points(&game, &["C1", "E1"])
    );
    let seki = b.chain_stones(at(&game, "A2")) | b.chain_stones(at(&game, "D2"));
    assert_eq!(seki.count(), 7);
    // Area: Black 8 stones + E4-E5 + the seki eye A1 = 11; White 8 + A4-B5 + E1 = 13;
    // the shared liberty C1 is nobody's. Marking the seki changes nothing.
    assert_eq!(
        game.score(&none, &seki),
        Score {
            black: 11.0,
            white: 20.5
        }
    );
    assert_eq!(
        game.score(&none, &none),
        Score {
            black: 11.0,
            white: 20.5
        }
    );
    assert_eq!(game.score(&none, &seki).to_string(), "W+9.5");

    let game = game_from(SEKI, Japanese, Black);
    // Territory: the eyes A1 and E1 touch seki stones and count for nobody.
    assert_eq!(
        game.score(&none, &seki),
        Score {
            black: 2.0,
            white: 10.5
        }
    );
    // Unmarked, they would count as ordinary territory.
    assert_eq!(
        game.score(&none, &none),
        Score {
            black: 3.0,
            white: 11.5
        }
    );
}

#[test]
fn area_counts_one_point_more_for_black_than_territory_when_black_moved_last() {
    let none = Bitboard::EMPTY;
    // 7 Black and 6 White stones, alternating from Black: Black moved last.
    let mut game = alternating_game(FINISHED, Chinese);
    assert_eq!(game.record().last().unwrap().0, Black);
    game.set_komi(7.0);
    assert_eq!(game.score(&none, &none).margin(), 15.0 - 17.0);
    game.set_ruleset(Japanese);
    assert_eq!(game.score(&none, &none).margin(), 8.0 - 11.0);
    // White plays in its own area: the counts agree again.
    assert_eq!(play(&mut game, White, "A5"), took(0));
    assert_eq!(game.score(&none, &none).margin(), 8.0 - 10.0);
    game.set_ruleset(Chinese);
    assert_eq!(game.score(&none, &none).margin(), 15.0 - 17.0);
}

#[test]
fn undo_restores_the_previous_state() {
    let mut game = game_from(KO, Chinese, Black);
    let before = *game.board();
    assert_eq!(play(&mut game, Black, "C3"), took(1));
    let taken = *game.board();
    pass(&mut game, White);
    assert_eq!(game.board().ko(), None);

    // Undoing the pass brings the ko ban back.
    game.undo().unwrap();
    assert!(game.board().is_identical(&taken));
    assert_eq!(game.to_move(), White);
    assert_eq!(game.consecutive_passes(), 0);
    assert_eq!(play(&mut game, White, "B3"), Err(IllegalMove::Ko));

    // Undoing the capture gives the stone back and forgets the position for superko:
    // taking again is legal (the arrangement after it is not a repetition).
    game.undo().unwrap();
    assert!(game.board().is_identical(&before));
    assert_eq!(game.to_move(), Black);
    assert_eq!(game.prisoners(Black), 0);
    assert_eq!(game.record().len(), 7);
    assert_eq!(play(&mut game, Black, "C3"), took(1));
    assert!(game.board().is_identical(&taken));

    // Passes are counted back too.
    pass(&mut game, White);
    pass(&mut game, Black);
    assert!(game.is_over());
    game.undo().unwrap();
    assert_eq!(game.consecutive_passes(), 1);
    assert!(!game.is_over());
    assert_eq!(game.to_move(), Black);

    // A suicide under new_zealand, undone, restores the chain and the prisoners.
    let mut game = game_from(MULTI_STONE_SUICIDE, NewZealand, Black);
    let before = *game.board();
    assert_eq!(play(&mut game, Black, "A1"), took(0));
    game.undo().unwrap();
    assert!(game.board().is_identical(&before));
    assert_eq!(game.prisoners(White), 0);

    assert_eq!(Game::new(BoardSize::NINE, Chinese).undo(), Err(CannotUndo));
}

#[test]
fn only_alternating_passes_ending_with_the_opponents_count_toward_the_end() {
    let size = BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Ruleset::Japanese);
    game.play(Color::Black, Move::Pass).unwrap();
    game.play(Color::White, Move::Pass).unwrap();
    assert_eq!(game.passes_before(Color::Black), 2);
    // White asked to move again after its own pass: its pass answers nobody's.
    assert_eq!(game.passes_before(Color::White), 0);
    let mut game = Game::new(size, Ruleset::Japanese);
    let e5 = size.parse_point("E5").unwrap();
    game.play(Color::Black, Move::Play(e5)).unwrap();
    game.play(Color::White, Move::Pass).unwrap();
    assert_eq!(game.passes_before(Color::Black), 1);
    assert_eq!(game.passes_before(Color::White), 0);
}
