//! yeoul against itself through the match runner, in-process: games finish, colours
//! alternate, every move is legal, and the summary adds up.

use std::time::Duration;
use yeoul::engine::{EngineConfig, Level, TimeControl};
use yeoul::match_runner::{EnginePlayer, GtpPlayer, MatchConfig, run_match};
use yeoul::rules::{BoardSize, Ruleset, fixed_handicap_points};

fn player(level: Level, playouts: u64, seed: u64) -> EnginePlayer {
    EnginePlayer::new(EngineConfig {
        level,
        threads: 1,
        playouts: Some(playouts),
        seed,
        ..EngineConfig::default()
    })
}

#[test]
fn two_levels_play_a_short_match_to_the_end_without_faults() {
    let config = MatchConfig {
        size: BoardSize::new(7).unwrap(),
        komi: 7.5,
        ruleset: Ruleset::Chinese,
        games: 2,
        alternate: true,
        sgf_dir: None,
        move_timeout: Duration::from_secs(30),
        clock: TimeControl::None,
        network_delay: Duration::ZERO,
        handicap: 0,
        max_moves: None,
    };
    let mut a = player(Level::NORMAL, 400, 1);
    let mut b = player(Level::EASY, 50, 2);
    let mut seen = 0;
    let summary = run_match(&config, &mut a, &mut b, None, &mut |_| seen += 1);
    assert_eq!(seen, 2);
    assert_eq!(summary.games, 2);
    assert_eq!(summary.forfeits, 0);
    assert_eq!(
        summary.black_wins + summary.white_wins + summary.draws + summary.no_results,
        2
    );
    assert_eq!(
        summary.records[0].black, summary.records[1].white,
        "colours alternate"
    );
    for record in &summary.records {
        assert!(record.errors.is_empty(), "{:?}", record.errors);
        assert!(!record.moves.is_empty());
    }
}

#[test]
fn a_handicap_game_against_an_engine_over_gtp_starts_from_its_fixed_handicap() {
    let size = BoardSize::new(7).unwrap();
    let config = MatchConfig {
        size,
        komi: 0.5,
        games: 1,
        handicap: 3,
        ..MatchConfig::default()
    };
    let mut giver = player(Level::NORMAL, 100, 3);
    let command = format!("{} --playouts 30 --threads 1", env!("CARGO_BIN_EXE_yeoul"));
    let mut taker = GtpPlayer::start(&command, Duration::from_secs(30)).expect("starts");
    let summary = run_match(&config, &mut giver, &mut taker, None, &mut |_| {});
    let record = &summary.records[0];
    assert!(record.errors.is_empty(), "{:?}", record.errors);
    assert!(!record.a_is_black);
    assert_eq!(record.handicap, fixed_handicap_points(size, 3).unwrap());
    assert_eq!(record.moves[0].0, yeoul::rules::Color::White);
    assert!(record.result.winner().is_some(), "{record}");
}
