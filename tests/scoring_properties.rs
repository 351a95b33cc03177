//! Properties of the two counting methods on random finished games (RULES.md §5).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use yeoul::rules::{Bitboard, BoardSize, Color, Game, Move, Point, Ruleset};

/// Plays random legal moves, Black first and strictly alternating, never passing and never
/// filling an own true eye, until the side to move has no such move. Returns whether
/// Black made the last move.
fn random_game_without_passes(game: &mut Game, rng: &mut Pcg32) -> bool {
    let mut black_moved_last = false;
    while game.record().len() < game.move_limit() {
        let color = game.to_move();
        let candidates: Vec<Point> = game
            .size()
            .all_points()
            .filter(|&p| game.is_legal(color, Move::Play(p)) && !game.board().is_true_eye(p, color))
            .collect();
        if candidates.is_empty() {
            break;
        }
        let p = candidates[rng.random_range(0..candidates.len())];
        game.play(color, Move::Play(p)).expect("legal");
        black_moved_last = color == Color::Black;
    }
    black_moved_last
}

fn random_dead_chains(game: &Game, rng: &mut Pcg32) -> Bitboard {
    let mut dead = Bitboard::EMPTY;
    for chain in game.board().chains() {
        if rng.random_ratio(1, 4) {
            dead |= chain;
        }
    }
    dead
}

#[test]
fn area_and_territory_differ_by_one_point_exactly_when_black_moved_last() {
    let mut black_last = 0;
    let mut white_last = 0;
    for seed in 0..3000u64 {
        let mut rng = Pcg32::seed_from_u64(seed);
        let size = BoardSize::new(rng.random_range(3..=11)).unwrap();
        let mut game = Game::new(size, Ruleset::Chinese);
        game.set_komi(0.5);
        let black_moved_last = random_game_without_passes(&mut game, &mut rng);
        let dead = random_dead_chains(&game, &mut rng);
        let area = game.score(&dead, &Bitboard::EMPTY).margin();
        game.set_ruleset(Ruleset::Japanese);
        let territory = game.score(&dead, &Bitboard::EMPTY).margin();
        let expected = if black_moved_last { 1.0 } else { 0.0 };
        assert_eq!(area - territory, expected, "seed {seed}, {size}x{size}");
        if black_moved_last {
            black_last += 1;
        } else {
            white_last += 1;
        }
    }
    // Both cases must have been exercised.
    assert!(
        black_last > 100 && white_last > 100,
        "{black_last} {white_last}"
    );
}

#[test]
fn area_counts_never_exceed_the_board_and_fill_it_when_every_region_is_owned() {
    for seed in 0..2000u64 {
        let mut rng = Pcg32::seed_from_u64(seed);
        let size = BoardSize::new(rng.random_range(2..=13)).unwrap();
        let mut game = Game::new(size, Ruleset::Chinese);
        random_game_without_passes(&mut game, &mut rng);
        let dead = random_dead_chains(&game, &mut rng);
        let area = yeoul::rules::area_points(game.board(), &dead);
        let owned = yeoul::rules::owned_regions(game.board(), &dead);
        let board = game.board();
        let alive = (board.stones(Color::Black) | board.stones(Color::White)) & !dead;
        let neutral = board.on_board() & !alive & !owned.black & !owned.white;
        assert_eq!(
            (area.black + area.white + neutral.count()) as usize,
            size.points(),
            "seed {seed}"
        );
    }
}

#[test]
fn a_pass_does_not_change_either_count() {
    let mut rng = Pcg32::seed_from_u64(99);
    let mut game = Game::new(BoardSize::NINE, Ruleset::Japanese);
    random_game_without_passes(&mut game, &mut rng);
    let before = game.score(&Bitboard::EMPTY, &Bitboard::EMPTY);
    game.play(game.to_move(), Move::Pass).unwrap();
    assert_eq!(game.score(&Bitboard::EMPTY, &Bitboard::EMPTY), before);
}
