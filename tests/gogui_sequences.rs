//! GoGui's attach and synchronisation sequence, and gogui-twogtp's game loop between two
//! engine processes, replayed as those tools send them
//! (`../shared/reference/gtp-anchors.md` §2.2, §2.3).

use std::io::Cursor;
use std::time::Duration;
use yeoul::engine::{Engine, EngineConfig, Level};
use yeoul::match_runner::GtpPlayer;
use yeoul::rules::{BoardSize, Ruleset};

#[test]
fn gogui_attaches_synchronises_and_scores_without_an_error() {
    let input = "name\nprotocol_version\nversion\nlist_commands\ngogui-interrupt\nname\nprotocol_version\n\
                 gogui-analyze_commands\nboardsize 9\nclear_board\nkomi 6.5\ntime_settings 0 1 0\n\
                 set_free_handicap C3 G7\ngogui-play_sequence W E5 B E3\ntime_left b 600 0\ngenmove w\n\
                 gg-undo 1\nkgs-genmove_cleanup w\nfinal_status_list dead\nfinal_score\ncputime\n";
    let config = EngineConfig {
        level: Level::EASY,
        threads: 1,
        playouts: Some(300),
        ..EngineConfig::default()
    };
    let mut out = Vec::new();
    yeoul::gtp::run(
        Engine::new(BoardSize::NINETEEN, Ruleset::Chinese, config),
        Cursor::new(input.as_bytes().to_vec()),
        &mut out,
    );
    let out = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), input.lines().count(), "{out}");
    for (command, answer) in input.lines().zip(&answers) {
        assert!(answer.starts_with("= "), "{command}: {answer}");
    }
    assert!(
        answers[19].starts_with("= W+") || answers[19].starts_with("= B+"),
        "{}",
        answers[19]
    );
    assert!(
        answers[20].trim_start_matches("= ").parse::<f64>().is_ok(),
        "{}",
        answers[20]
    );
}

#[test]
fn a_gogui_twogtp_game_loop_between_two_engine_processes_ends_and_scores() {
    let engine = env!("CARGO_BIN_EXE_yeoul");
    let command = format!("{engine} --level easy --threads 1 --playouts 150");
    let mut black = GtpPlayer::start(&command, Duration::from_secs(30)).expect("black starts");
    let mut white = GtpPlayer::start(&command, Duration::from_secs(30)).expect("white starts");
    for program in [&mut black, &mut white] {
        for c in [
            "protocol_version",
            "name",
            "version",
            "list_commands",
            "gogui-interrupt",
        ] {
            program.send(c).expect(c);
        }
        for c in [
            "boardsize 7",
            "clear_board",
            "komi 6.5",
            "time_settings 0 1 0",
        ] {
            program.send(c).expect(c);
        }
    }
    let mut passes = 0;
    let mut moves = 0;
    let mut resigned = false;
    while passes < 2 && moves < 1000 {
        let (mover, other, colour) = if moves % 2 == 0 {
            (&mut black, &mut white, "b")
        } else {
            (&mut white, &mut black, "w")
        };
        let answer = mover.send(&format!("genmove {colour}")).expect("genmove");
        if answer.eq_ignore_ascii_case("resign") {
            resigned = true;
            break;
        }
        passes = if answer.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        other
            .send(&format!("play {} {answer}", colour.to_uppercase()))
            .expect("the other engine accepts the move");
        moves += 1;
    }
    assert!(moves < 1000, "the game ended");
    if !resigned {
        for program in [&mut black, &mut white] {
            let score = program.send("final_score").expect("final_score");
            let well_formed = score == "0"
                || ((score.starts_with("B+") || score.starts_with("W+"))
                    && score[2..].parse::<f64>().is_ok());
            assert!(well_formed, "{score}");
        }
    }
    for program in [&mut black, &mut white] {
        assert!(
            program
                .send("cputime")
                .expect("cputime")
                .parse::<f64>()
                .is_ok()
        );
    }
}
