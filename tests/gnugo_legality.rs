//! A second opinion on legality: at many positions of random games, `is_legal` of every
//! point agrees with GNU Go started with the matching ko rule. Skipped (with a message)
//! where GNU Go is not installed; `.ci/run` installs it.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use std::time::Duration;
use yeoul::match_runner::GtpPlayer;
use yeoul::rules::{BoardSize, Game, Move, Ruleset};
use yeoul::search::playout::random_light_move;

const GNUGO: &str = "/usr/games/gnugo";

fn check_against_gnugo(ruleset: Ruleset, ko_option: &str, sizes: &[usize], games: u64) -> usize {
    let mut gnugo = GtpPlayer::start(
        &format!("{GNUGO} --mode gtp {ko_option}"),
        Duration::from_secs(30),
    )
    .expect("GNU Go starts");
    let mut compared = 0;
    for (k, &n) in sizes.iter().cycle().take(games as usize).enumerate() {
        let size = BoardSize::new(n).unwrap();
        let mut rng = Pcg32::seed_from_u64(k as u64 * 7919 + n as u64);
        let mut game = Game::new(size, ruleset);
        gnugo.send(&format!("boardsize {n}")).unwrap();
        gnugo.send("clear_board").unwrap();
        while !game.is_over() && game.record().len() < 3 * size.points() {
            let color = game.to_move();
            if n <= 5 || rng.random_ratio(1, 6) {
                for p in size.all_points() {
                    let ours = game.is_legal(color, Move::Play(p));
                    let theirs = gnugo
                        .send(&format!("is_legal {color} {}", size.name(p)))
                        .unwrap();
                    assert_eq!(
                        ours,
                        theirs.trim() == "1",
                        "{ruleset} {n}x{n} game {k} move {}: is_legal {color} {}",
                        game.record().len(),
                        size.name(p)
                    );
                    compared += 1;
                }
            }
            let mut scratch = *game.board();
            let mv = random_light_move(&mut scratch, color, ruleset.suicide(), &mut rng)
                .filter(|&p| game.is_legal(color, Move::Play(p)))
                .map_or(Move::Pass, Move::Play);
            game.play(color, mv).unwrap();
            let vertex = match mv {
                Move::Pass => "pass".to_string(),
                Move::Play(p) => size.name(p),
            };
            gnugo.send(&format!("play {color} {vertex}")).unwrap();
        }
    }
    compared
}

fn gnugo_installed() -> bool {
    let here = std::path::Path::new(GNUGO).exists();
    if !here {
        eprintln!("GNU Go is not installed at {GNUGO}: skipping (apt-get install -y gnugo)");
    }
    here
}

#[test]
fn legality_agrees_with_gnugo_under_simple_ko() {
    if gnugo_installed() {
        assert!(check_against_gnugo(Ruleset::Japanese, "", &[4, 5, 4, 5, 7, 9], 60) > 5_000);
    }
}

#[test]
fn legality_agrees_with_gnugo_under_positional_superko() {
    if gnugo_installed() {
        assert!(
            check_against_gnugo(
                Ruleset::Chinese,
                "--positional-superko",
                &[4, 5, 4, 5, 7, 9],
                60
            ) > 5_000
        );
    }
}

#[test]
fn legality_agrees_with_gnugo_under_situational_superko() {
    if gnugo_installed() {
        assert!(
            check_against_gnugo(
                Ruleset::Aga,
                "--situational-superko",
                &[4, 5, 4, 5, 7, 9],
                60
            ) > 5_000
        );
    }
}

/// A ko retaken after two passes: legal under simple ko, a repetition under both superko
/// rules. Every point is compared after every move of the script.
#[test]
fn a_ko_retake_after_two_passes_is_judged_as_gnugo_judges_it() {
    if !gnugo_installed() {
        return;
    }
    let script = [
        "b B3", "b C2", "b C4", "w D2", "w D4", "w E3", "w C3", "b D3", "w pass", "b pass",
    ];
    let size = BoardSize::new(5).unwrap();
    for (ruleset, option, retake_legal) in [
        (Ruleset::Japanese, "", true),
        (Ruleset::Chinese, "--positional-superko", false),
        (Ruleset::Aga, "--situational-superko", false),
    ] {
        let mut gnugo = GtpPlayer::start(
            &format!("{GNUGO} --mode gtp {option}"),
            Duration::from_secs(30),
        )
        .unwrap();
        gnugo.send("boardsize 5").unwrap();
        gnugo.send("clear_board").unwrap();
        let mut game = Game::new(size, ruleset);
        for step in script {
            let (c, v) = step.split_once(' ').unwrap();
            let color = if c == "b" {
                yeoul::rules::Color::Black
            } else {
                yeoul::rules::Color::White
            };
            let mv = if v == "pass" {
                Move::Pass
            } else {
                Move::Play(size.parse_point(v).unwrap())
            };
            game.play(color, mv).unwrap();
            gnugo.send(&format!("play {step}")).unwrap();
            for to_move in [yeoul::rules::Color::Black, yeoul::rules::Color::White] {
                for p in size.all_points() {
                    let theirs = gnugo
                        .send(&format!("is_legal {to_move} {}", size.name(p)))
                        .unwrap();
                    assert_eq!(
                        game.is_legal(to_move, Move::Play(p)),
                        theirs.trim() == "1",
                        "{ruleset} after {step}: {to_move} {}",
                        size.name(p)
                    );
                }
            }
        }
        let c3 = Move::Play(size.parse_point("C3").unwrap());
        assert_eq!(
            game.is_legal(yeoul::rules::Color::White, c3),
            retake_legal,
            "{ruleset}"
        );
    }
}
