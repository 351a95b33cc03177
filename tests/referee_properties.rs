//! Properties of the arbiter's proofs on random positions: Benson's pass-alive chains
//! survive any number of opposing moves while their owner passes, and the statuses
//! the arbiter reports are consistent with the count it gives.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use yeoul::referee::benson::pass_alive;
use yeoul::referee::{Effort, judge};
use yeoul::rules::{Bitboard, Board, BoardSize, Color, Game, Move, Point, Ruleset, Suicide};

/// Random legal moves that never fill an own true eye, until the side to move has none
/// or `stop_after` moves: boards with eyes, where pass-alive chains are common.
fn random_board(size: BoardSize, stop_after: usize, rng: &mut Pcg32) -> Board {
    let mut board = Board::new(size);
    let mut color = Color::Black;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < stop_after.min(3 * size.points()) {
        let candidates: Vec<Point> = size
            .all_points()
            .filter(|&p| {
                board.is_legal(p, color, Suicide::Forbidden) && !board.is_true_eye(p, color)
            })
            .collect();
        if candidates.is_empty() {
            passes += 1;
            board.clear_ko();
        } else {
            passes = 0;
            let p = candidates[rng.random_range(0..candidates.len())];
            board.play(p, color, Suicide::Forbidden).expect("legal");
        }
        color = color.opponent();
        moves += 1;
    }
    board
}

#[test]
fn pass_alive_chains_survive_any_opposing_moves() {
    let mut proven_positions = 0;
    for seed in 0..400u64 {
        let mut rng = Pcg32::seed_from_u64(seed);
        let size = BoardSize::new(5 + (seed % 3) as usize * 2).unwrap();
        // Half the boards finished, half stopped early (open areas, single eyes).
        let stop_after = if seed % 2 == 0 {
            usize::MAX
        } else {
            rng.random_range(size.points() / 2..2 * size.points())
        };
        let mut board = random_board(size, stop_after, &mut rng);
        for owner in Color::BOTH {
            let proof = pass_alive(&board, owner, Suicide::Forbidden);
            if proof.chains.is_empty() {
                continue;
            }
            proven_positions += 1;
            // The owner passes forever; the opponent plays any legal moves, eyes included.
            let attacker = owner.opponent();
            let mut b = board;
            for _ in 0..4 * size.points() {
                let moves: Vec<Point> = size
                    .all_points()
                    .filter(|&p| b.is_legal(p, attacker, Suicide::Forbidden))
                    .collect();
                if moves.is_empty() {
                    break;
                }
                let p = moves[rng.random_range(0..moves.len())];
                b.play(p, attacker, Suicide::Forbidden).expect("legal");
                b.clear_ko();
                let lost = proof.chains & !b.stones(owner);
                assert!(
                    lost.is_empty(),
                    "seed {seed}: pass-alive {owner:?} stones captured at {:?}",
                    lost.iter().map(|q| size.name(q)).collect::<Vec<_>>()
                );
                // Nothing the attacker plays inside the sure territory ever gets two eyes:
                // it stays capturable, so at least it never becomes pass-alive itself.
                let inside = proof.territory & b.stones(attacker);
                let theirs = pass_alive(&b, attacker, Suicide::Forbidden).chains;
                assert!(
                    (inside & theirs).is_empty(),
                    "seed {seed}: life inside sure territory"
                );
            }
        }
        board.clear_ko();
    }
    assert!(
        proven_positions > 100,
        "only {proven_positions} positions had a proof"
    );
}

#[test]
fn the_reported_statuses_are_consistent_with_the_count() {
    for seed in 0..12u64 {
        let mut rng = Pcg32::seed_from_u64(1000 + seed);
        let size = BoardSize::new(7).unwrap();
        let board = random_board(size, usize::MAX, &mut rng);
        let mut game = Game::new(size, Ruleset::Chinese);
        let black: Vec<_> = board.stones(Color::Black).iter().collect();
        let white: Vec<_> = board.stones(Color::White).iter().collect();
        game.set_up(&black, &white, Color::Black).unwrap();
        game.play(Color::Black, Move::Pass).unwrap();
        game.play(Color::White, Move::Pass).unwrap();
        let j = judge(&game, &Effort::for_board(size.points(), 2))
            .unwrap()
            .expect("no deadline");
        let stones = board.stones(Color::Black) | board.stones(Color::White);
        assert!(
            (j.dead & j.seki).is_empty(),
            "seed {seed}: dead and seki at once"
        );
        assert_eq!(j.dead & !stones, Bitboard::EMPTY);
        // Dead and seki are whole chains.
        for set in [j.dead, j.seki] {
            for p in set.iter() {
                assert_eq!(board.chain_stones(p) & !set, Bitboard::EMPTY, "seed {seed}");
            }
        }
        // The area count is stones left plus one-coloured regions: recount it by hand.
        let score = j.score(&game);
        let territory = j.territory(&game);
        let black_area = (board.stones(Color::Black) & !j.dead).count() + territory.black.count();
        let white_area = (board.stones(Color::White) & !j.dead).count() + territory.white.count();
        assert_eq!(score.black, black_area as f64, "seed {seed}");
        assert_eq!(score.white, white_area as f64 + game.komi(), "seed {seed}");
        // Every point is exactly one of: living stone, territory, dame.
        let parts = [
            stones & !j.dead,
            territory.black,
            territory.white,
            j.dame(&game),
        ];
        let total: u32 = parts.iter().map(|b| b.count()).sum();
        assert_eq!(
            total as usize,
            size.points(),
            "seed {seed}: the parts overlap or miss"
        );
    }
}

#[test]
fn a_judgement_cut_short_by_its_deadline_is_no_verdict() {
    let mut rng = Pcg32::seed_from_u64(7);
    let size = BoardSize::new(9).unwrap();
    let board = random_board(size, 40, &mut rng);
    let mut game = Game::new(size, Ruleset::Chinese);
    let black: Vec<_> = board.stones(Color::Black).iter().collect();
    let white: Vec<_> = board.stones(Color::White).iter().collect();
    game.set_up(&black, &white, Color::Black).unwrap();
    let effort = Effort::for_board(size.points(), 2).quick();
    let now = std::time::Instant::now();
    let past = Effort {
        deadline: Some(now),
        ..effort
    };
    assert_eq!(
        judge(&game, &past).unwrap(),
        None,
        "a deadline already past"
    );
    // In time, the deadline changes nothing: the judgement is the one without it.
    let later = Effort {
        deadline: Some(now + std::time::Duration::from_secs(600)),
        ..effort
    };
    let without = judge(&game, &effort).unwrap().expect("no deadline");
    assert_eq!(judge(&game, &later).unwrap(), Some(without));
}
