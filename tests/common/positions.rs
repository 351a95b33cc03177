//! Positions from ASCII diagrams for the search and engine tests, and a fixed-seed search.
//!
//! Diagrams: `X` black, `O` white, `.` empty, top row first (the last line is row 1, the
//! first column A, in GTP coordinates).

use std::sync::atomic::AtomicBool;
use yeoul::rules::{BoardSize, Color, Game, Move, Ruleset, parse_diagram, to_diagram};
use yeoul::search::policy::PlayoutPolicy;
use yeoul::search::{Search, SearchParams, SearchResult};

/// A quiet middle game on 9x9.
pub const MIDDLE_GAME: &str = "
    . . . . . . . . .
    . . O O . X . . .
    . . O X X . X . .
    . O X . . . . . .
    . . O X . . O . .
    . . . O X X O . .
    . . . O . X O . .
    . . . . . . . . .
    . . . . . . . . .
";

/// A Chinese-rules game that reaches `diagram` with `to_move` to play: every stone is
/// played (any colour may play at any time), the side to move's stones first, so that the
/// other side's stones come last and hand the turn over.
pub fn game_from(diagram: &str, to_move: Color, komi: f64) -> Game {
    let target = parse_diagram(diagram).expect("a valid diagram");
    let mut game = Game::new(target.size(), Ruleset::Chinese);
    game.set_komi(komi);
    for color in [to_move, to_move.opponent()] {
        for p in target.stones(color).iter() {
            let outcome = game
                .play(color, Move::Play(p))
                .unwrap_or_else(|e| panic!("setting up {diagram}: {e:?}"));
            assert_eq!(outcome.captured, 0, "setting up {diagram}: a capture");
        }
    }
    assert_eq!(to_diagram(game.board()), to_diagram(&target));
    assert_eq!(game.to_move(), to_move);
    game
}

/// The move at a GTP point name (`D4`) of the game's board.
pub fn mv(game: &Game, name: &str) -> Move {
    Move::Play(
        game.size()
            .parse_point(name)
            .expect("a point of this board"),
    )
}

/// A move's GTP name (`pass` for a pass).
pub fn name(size: BoardSize, mv: Move) -> String {
    match mv {
        Move::Play(p) => size.name(p),
        Move::Pass => "pass".to_string(),
    }
}

/// Fixed-budget, single-threaded, seeded search parameters: deterministic for a seed.
pub fn fixed_params(size: BoardSize, playouts: u64, seed: u64) -> SearchParams {
    let mut params = SearchParams::for_size(size, playouts);
    params.threads = 1;
    params.seed = seed;
    params.max_time = None;
    params.early_stop = false;
    params
}

/// Runs a fresh heavy-playout search for `color` with `fixed_params`.
pub fn search(game: &Game, color: Color, playouts: u64, seed: u64) -> SearchResult {
    let params = fixed_params(game.size(), playouts, seed);
    Search::new(PlayoutPolicy::heavy())
        .run(game, color, &params, &AtomicBool::new(false))
        .expect("search threads")
}

/// The leading candidates as text: move, visits, win rate.
pub fn summary(size: BoardSize, result: &SearchResult, count: usize) -> String {
    result
        .candidates
        .iter()
        .take(count)
        .map(|c| format!("{} {} {:.3}", name(size, c.mv), c.visits, c.win_rate))
        .collect::<Vec<_>>()
        .join(", ")
}
