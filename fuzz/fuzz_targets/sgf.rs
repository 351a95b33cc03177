//! SGF: the input is a file's bytes, read by every SGF reader the engine has: `loadsgf`'s
//! (the first game's main line into a game, whole or up to a move), and the training
//! readers' (`yeoul train`, `yeoul positions`: a collection split into games, each read
//! into a record, then replayed into the network's input planes as the exporter does).
//! Besides "no panic, no hang, no running out of memory", a game that loads must survive
//! `printsgf`: written and read back, it is the same position with the same player to
//! move, komi and rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yeoul::network::planes::{InputPlanes, history_of_moves};
use yeoul::rules::{Color, Ruleset};
use yeoul::sgf::{Until, game_text, read_game};
use yeoul::train::{records, replay};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);

    if let Ok(game) = read_game(&text, Ruleset::Japanese, Until::End) {
        let written = game_text(&game);
        let back = read_game(&written, Ruleset::Chinese, Until::End)
            .unwrap_or_else(|e| panic!("printsgf's text does not load: {e}\n{written}"));
        assert_eq!(
            back.board().hash(),
            game.board().hash(),
            "the position:\n{written}"
        );
        assert_eq!(
            back.to_move(),
            game.to_move(),
            "the player to move:\n{written}"
        );
        assert_eq!(back.komi(), game.komi(), "komi:\n{written}");
        assert_eq!(back.ruleset(), game.ruleset(), "rules:\n{written}");
    }
    let stop = data.first().map_or(0, |&b| b as usize % 64);
    let _ = read_game(&text, Ruleset::Chinese, Until::MoveNumber(stop));

    for record in records::read_collection(&text, "fuzz")
        .into_iter()
        .flatten()
    {
        assert!(
            record.moves.iter().any(Option::is_some),
            "a record without stones"
        );
        replay(&record, |i, board, _, _| {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let planes = InputPlanes::encode(board, color, &history_of_moves(&record.moves[..i]));
            let mut bytes = Vec::new();
            planes.packed(&mut bytes);
            assert_eq!(bytes.len(), InputPlanes::packed_len(board.size().points()));
        });
    }
});
