//! Random games on every size from 2x2 to 19x19 under every rule set, checked move by move
//! against the slow reference board in `common/reference.rs`: the legality of every point,
//! captures, the arrangement, the incremental hash against a recomputed one, undo restoring
//! the exact earlier state, and at the end the area and territory counts with random dead
//! and seki sets.

mod common;

use common::reference::{RefGame, code};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use yeoul::rules::{
    Bitboard, Board, BoardSize, Color, FixedStride, Game, IllegalMove, Move, Point, Ruleset,
    Scoring, Suicide, fixed_handicap_points, max_fixed_handicap,
};

fn cell_index(size: BoardSize, p: Point) -> usize {
    let (col, row) = size.col_row(p);
    row * size.get() + col
}

fn arrangement(game: &Game) -> Vec<u8> {
    let size = game.size();
    let mut cells = vec![0; size.points()];
    for p in size.all_points() {
        if let Some(c) = game.board().color_at(p) {
            cells[cell_index(size, p)] = code(c);
        }
    }
    cells
}

/// Starts a game: usually on an empty board, sometimes with fixed or free handicap.
fn start(size: BoardSize, ruleset: Ruleset, rng: &mut Pcg32) -> (Game, RefGame) {
    let n = size.get();
    let mut game = Game::new(size, ruleset);
    let handicap: Vec<Point> = match rng.random_range(0..10) {
        0 if max_fixed_handicap(size) >= 2 => {
            let stones = rng.random_range(2..=max_fixed_handicap(size));
            let placed = game.place_fixed_handicap(stones).expect("empty board");
            assert_eq!(placed, fixed_handicap_points(size, stones).unwrap());
            placed
        }
        1 => {
            let mut all: Vec<Point> = size.all_points().collect();
            let stones = rng.random_range(2..=(all.len() / 3).max(2));
            let mut chosen = Vec::new();
            for _ in 0..stones {
                chosen.push(all.swap_remove(rng.random_range(0..all.len())));
            }
            game.set_free_handicap(&chosen).expect("valid placement");
            chosen
        }
        _ => Vec::new(),
    };
    let black: Vec<usize> = handicap.iter().map(|&p| cell_index(size, p)).collect();
    let reference = RefGame::with_stones(n, ruleset, &black, game.to_move());
    (game, reference)
}

/// How often each kind of refusal was seen, so that a run shows it met every rule.
#[derive(Default)]
struct Seen {
    ko: usize,
    superko: usize,
    suicide: usize,
    repetitions: usize,
    multi_stone_suicides: usize,
}

/// Plays one random game and checks everything at every move.
fn check_random_game(n: usize, ruleset: Ruleset, seed: u64, seen: &mut Seen) {
    let size = BoardSize::new(n).unwrap();
    let mut rng = Pcg32::seed_from_u64(seed);
    let (mut game, mut reference) = start(size, ruleset, &mut rng);
    let points: Vec<Point> = size.all_points().collect();
    let context =
        |game: &Game| format!("{n}x{n} {ruleset} seed {seed} move {}", game.record().len());

    while !game.is_over() {
        // GTP lets either colour play at any time: now and then the other one does.
        let color = if rng.random_ratio(1, 25) {
            game.to_move().opponent()
        } else {
            game.to_move()
        };
        let mut playable = Vec::new();
        for &p in &points {
            let fast = game.check(color, Move::Play(p));
            let slow = reference.try_play(color, cell_index(size, p)).map(drop);
            assert_eq!(
                fast,
                slow,
                "legality of {} for {color}, {}",
                size.name(p),
                context(&game)
            );
            match fast {
                Err(IllegalMove::Ko) => seen.ko += 1,
                Err(IllegalMove::Superko) => seen.superko += 1,
                Err(IllegalMove::Suicide) => seen.suicide += 1,
                _ => {}
            }
            let board = game.board();
            if board.color_at(p).is_none() {
                let suicide = ruleset.suicide();
                let light = board.check(p, color, suicide).is_ok() && !board.is_true_eye(p, color);
                assert_eq!(
                    playable_in_every_stride(board, p, color, suicide),
                    light,
                    "light-playout test of {} for {color}, {}",
                    size.name(p),
                    context(&game)
                );
            }
            if fast.is_ok() && !board.is_true_eye(p, color) {
                playable.push(p);
            }
        }
        check_tactics(&game, color);
        let mv = if playable.is_empty() || rng.random_ratio(1, 40) {
            Move::Pass
        } else {
            Move::Play(playable[rng.random_range(0..playable.len())])
        };

        let before = *game.board();
        let (to_move_before, passes_before) = (game.to_move(), game.consecutive_passes());
        let outcome = game.play(color, mv).expect("a legal move");
        match mv {
            Move::Play(p) => {
                let i = cell_index(size, p);
                let (cells, captured, suicided) = reference.try_play(color, i).expect("legal");
                seen.multi_stone_suicides += (suicided > 0) as usize;
                seen.repetitions += outcome.repeats_position as usize;
                assert_eq!(outcome.captured, captured, "captures, {}", context(&game));
                assert_eq!(
                    outcome.repeats_position,
                    reference.repeats(&cells),
                    "repetition, {}",
                    context(&game)
                );
                reference.play(color, Some(i));
            }
            Move::Pass => reference.play(color, None),
        }
        assert_eq!(
            arrangement(&game),
            reference.cells,
            "arrangement, {}",
            context(&game)
        );
        for c in Color::BOTH {
            assert_eq!(
                game.prisoners(c),
                reference.captures[c.index()],
                "{}",
                context(&game)
            );
        }
        let board = *game.board();
        assert_eq!(
            board.hash(),
            board.hash_from_scratch(),
            "hash, {}",
            context(&game)
        );
        if (game.record().len() % 8 == 0 || n <= 9)
            && let Err(e) = board.check_invariants()
        {
            panic!("{e}, {}", context(&game));
        }

        // Undo restores the exact earlier state; replaying restores the later one.
        game.undo().expect("a move to undo");
        assert!(
            game.board().is_identical(&before),
            "undo, {}",
            context(&game)
        );
        assert_eq!(
            (game.to_move(), game.consecutive_passes()),
            (to_move_before, passes_before)
        );
        game.play(color, mv).expect("still legal");
        assert!(
            game.board().is_identical(&board),
            "redo, {}",
            context(&game)
        );
    }

    check_counts(&game, &reference, &mut rng);
}

/// `Board::is_playable_in` at an empty point, with the runtime stride and, on 9x9, 13x13
/// and 19x19, the compile-time one the light playouts use; panics if the two disagree.
fn playable_in_every_stride(board: &Board, p: Point, color: Color, suicide: Suicide) -> bool {
    let runtime = board.is_playable_in(board.stride(), p, color, suicide);
    let fixed = match board.size().get() {
        9 => Some(board.is_playable_in(FixedStride::<10>, p, color, suicide)),
        13 => Some(board.is_playable_in(FixedStride::<14>, p, color, suicide)),
        19 => Some(board.is_playable_in(FixedStride::<20>, p, color, suicide)),
        _ => None,
    };
    assert!(fixed.is_none_or(|f| f == runtime), "strides disagree");
    runtime
}

/// The tactical queries of the playout policy against exact recomputations: the atari
/// liberty and the two liberties of every chain, which stones share a chain, and the liberties a move would leave (for legal moves that
/// capture nothing, where the count is exact).
fn check_tactics(game: &Game, color: Color) {
    let board = game.board();
    for p in (board.stones(Color::Black) | board.stones(Color::White)).iter() {
        let libs = board.chain_liberties(p);
        let expected = (libs.count() == 1).then(|| libs.iter().next().unwrap());
        assert_eq!(board.atari_liberty(p), expected);
        let mut two = libs.iter();
        let expected = (libs.count() == 2).then(|| (two.next().unwrap(), two.next().unwrap()));
        let found = board.two_liberties(p).map(|(a, b)| (a.min(b), a.max(b)));
        assert_eq!(found, expected);
        // Inside the chain and the stones around it.
        let chain = board.chain_stones(p);
        let around = chain.neighbours(game.size(), &board.on_board()) & !board.empty_points();
        for q in (chain | around).iter() {
            assert_eq!(board.same_chain(p, q), chain.contains(q));
        }
        assert_eq!(board.chain_size(p), board.chain_stones(p).count());
    }
    for p in board.empty_points().iter() {
        if board.check(p, color, Suicide::MultiStoneAllowed).is_err() {
            continue;
        }
        let mut after = *board;
        let captured = after.play_unchecked(p, color);
        assert_eq!(
            board.hash_after(p, color),
            after.hash(),
            "hash after {}",
            game.size().name(p)
        );
        // The count is exact for moves that capture nothing and are no suicide.
        if captured == 0 && after.color_at(p).is_some() {
            let exact = after.chain_liberties(p).count() as usize;
            for limit in 1..=4 {
                assert_eq!(board.liberties_after(p, color, limit), exact.min(limit));
            }
        }
    }
}

/// Scores the final position with random dead and seki sets under area and territory
/// counting and compares with the reference scorer.
fn check_counts(game: &Game, reference: &RefGame, rng: &mut Pcg32) {
    let size = game.size();
    let board = game.board();
    let chains = board.chains();
    for _ in 0..3 {
        let (mut dead, mut seki) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for chain in &chains {
            match rng.random_range(0..6) {
                0 | 1 => dead |= *chain,
                2 => seki |= *chain,
                _ => {}
            }
        }
        let mask = |set: Bitboard| -> Vec<bool> {
            let mut v = vec![false; size.points()];
            for p in set.iter() {
                v[cell_index(size, p)] = true;
            }
            v
        };
        for ruleset in [
            game.ruleset(),
            Ruleset::Chinese,
            Ruleset::Japanese,
            Ruleset::Aga,
        ] {
            let mut g = game.clone();
            g.set_ruleset(ruleset);
            let mut r = reference.clone();
            r.ruleset = ruleset;
            let (black, white) = r.count(&mask(dead), &mask(seki));
            let bonus = match ruleset.scoring() {
                Scoring::Area => ruleset.handicap_bonus(g.handicap()) as f64,
                Scoring::Territory => 0.0,
            };
            let score = g.score(&dead, &seki);
            assert_eq!(score.black, black as f64, "{ruleset} black count");
            assert_eq!(
                score.white,
                white as f64 + g.komi() + bonus,
                "{ruleset} white count"
            );
        }
    }
}

/// Games per size: many on small boards, where ko and superko cycles are frequent, fewer
/// on large ones, where each game checks hundreds of points at hundreds of moves.
fn games_for(n: usize) -> usize {
    match n {
        2..=4 => 3500,
        5 => 2500,
        6 => 2000,
        7 => 1500,
        8 => 1200,
        9 => 1000,
        10..=11 => 400,
        12..=13 => 200,
        14..=15 => 80,
        _ => 40,
    }
}

fn check_sizes(sizes: std::ops::RangeInclusive<usize>) -> (usize, Seen) {
    let mut games = 0;
    let mut seen = Seen::default();
    for n in sizes {
        for g in 0..games_for(n) {
            let ruleset = Ruleset::ALL[g % Ruleset::ALL.len()];
            check_random_game(n, ruleset, (n * 1_000_003 + g) as u64, &mut seen);
            games += 1;
        }
    }
    (games, seen)
}

#[test]
fn random_games_on_boards_two_to_five_agree_with_the_reference() {
    let (games, seen) = check_sizes(2..=5);
    assert!(games >= 10_000);
    // Small boards cycle a lot: every kind of refusal and repetition must have occurred.
    assert!(seen.ko > 0 && seen.superko > 0 && seen.suicide > 0);
    assert!(seen.repetitions > 0 && seen.multi_stone_suicides > 0);
}

#[test]
fn random_games_on_boards_six_to_nine_agree_with_the_reference() {
    let (games, seen) = check_sizes(6..=9);
    assert!(games >= 5_000);
    assert!(seen.ko > 0 && seen.suicide > 0 && seen.multi_stone_suicides > 0);
}

#[test]
fn random_games_on_boards_ten_to_thirteen_agree_with_the_reference() {
    assert!(check_sizes(10..=13).0 >= 1_000);
}

#[test]
fn random_games_on_boards_fourteen_to_nineteen_agree_with_the_reference() {
    assert!(check_sizes(14..=19).0 >= 300);
}

#[test]
fn the_plan_covers_at_least_twenty_thousand_games_on_every_size() {
    let total: usize = (2..=19).map(games_for).sum();
    assert!(total >= 20_000, "{total}");
    assert!((2..=19).all(|n| games_for(n) >= Ruleset::ALL.len()));
}
