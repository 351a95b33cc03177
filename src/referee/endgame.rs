//! The last moves by miai counting. When everything else on the board is settled, what is
//! left are small local games (spaces a side encloses, chains in atari), and each is read
//! out exactly: the biggest is played, sente before gote. A search that plays to win sees
//! no difference between moves that all win (or all lose), and its playouts misjudge
//! sekis and kos by a point or two; the reading counts every point.

use super::eye_space::{self, Counting, LocalGame, MAX_POINTS, Verdict};
use crate::rules::{Bitboard, Board, Color, Game, Move, Point, Scoring};
use std::time::Instant;

/// Chains of up to this many stones, with nothing but small spaces around them, lie inside
/// a space rather than around it.
const INSIDE_CHAIN_STONES: u32 = 3;

/// An empty space of this many points makes two eyes whoever moves first (and is the
/// costliest to read: an empty twelve spends the reader's whole budget).
const ALIVE_SPACE_POINTS: u32 = 11;

/// Playout ownership at least this strong settles a point.
const FIRMLY: f32 = 0.6;

/// The small local games of the board: the spaces of at most `MAX_POINTS` points that
/// one side's chains enclose (small areas without its stones, joined through the chains
/// whose liberties all lie in them and the small chains that lie inside them), then the
/// chains in atari outside them whose liberty touches no empty point outside.
pub fn local_games(board: &Board) -> Vec<LocalGame> {
    let size = board.size();
    let on = board.on_board();
    let mut games = Vec::new();
    let mut covered = Bitboard::EMPTY;
    for defender in Color::BOTH {
        let own = board.stones(defender);
        let small: Vec<Bitboard> = (on & !own)
            .components(size)
            .into_iter()
            .filter(|c| c.count() as usize <= MAX_POINTS)
            .collect();
        let small_union = small.iter().fold(Bitboard::EMPTY, |acc, &c| acc | c);
        // Spaces: small areas joined through the chains between them.
        let mut spaces = small;
        for chain in board.chains() {
            let stone = chain.iter().next().expect("a chain has a stone");
            if board.color_at(stone) != Some(defender) {
                continue;
            }
            let around = chain.neighbours(size, &on) & !chain;
            let inside = chain.count() <= INSIDE_CHAIN_STONES && (around & !small_union).is_empty();
            let links = if inside {
                around
            } else {
                board.chain_liberties(stone)
            };
            if links.is_empty() || !(links & !small_union).is_empty() {
                continue;
            }
            let (joined, rest): (Vec<Bitboard>, Vec<Bitboard>) =
                spaces.into_iter().partition(|s| !(*s & links).is_empty());
            let mut space = joined.into_iter().fold(Bitboard::EMPTY, |acc, s| acc | s);
            if inside {
                space |= chain;
            }
            spaces = rest;
            spaces.push(space);
        }
        for region in spaces {
            let walls = region.neighbours(size, &on) & !region;
            if region.count() as usize > MAX_POINTS
                || (region & board.empty_points()).is_empty()
                || !((region | walls) & covered).is_empty()
            {
                continue;
            }
            let enclosing: Bitboard = walls
                .iter()
                .map(|p| board.chain_stones(p))
                .filter(|chain| {
                    let stone = chain.iter().next().expect("a chain has a stone");
                    (board.chain_liberties(stone) & !region).is_empty()
                })
                .fold(Bitboard::EMPTY, |acc, c| acc | c);
            games.push(LocalGame {
                region,
                enclosing,
                defender,
            });
            covered |= region | enclosing;
        }
    }
    for chain in board.chains() {
        let stone = chain.iter().next().expect("a chain has a stone");
        let liberties = board.chain_liberties(stone);
        let region = chain | liberties;
        let open = region.neighbours(size, &on) & !region & board.empty_points();
        if liberties.count() == 1
            && region.count() as usize <= MAX_POINTS
            && (region & covered).is_empty()
            && open.is_empty()
            && let Some(defender) = board.color_at(stone)
        {
            games.push(LocalGame {
                region,
                enclosing: Bitboard::EMPTY,
                defender,
            });
            covered |= region;
        }
    }
    games
}

/// How urgent a local game is for the side to move, as (class, value in half points):
/// class 3 double sente, 2 sente, 1 gote (worth half its gain) or reverse sente (worth
/// its whole gain); `None` when moving first gains nothing.
fn priority(verdict: &Verdict) -> Option<(u8, i32)> {
    let gain = verdict.gain();
    if gain <= 0 || verdict.best.is_none() {
        return None;
    }
    let class = match (verdict.sente(), verdict.reverse_sente()) {
        (true, true) => 3,
        (true, false) => 2,
        _ => 1,
    };
    let value = if verdict.reverse_sente() {
        2 * gain
    } else {
        gain
    };
    Some((class, value))
}

/// The move the local games ask of `color` given the search's `choice`, if they have a
/// say: where `choice` lies in a game that is worth playing, that game's best move (the
/// choice itself when as good); and when every point outside the games is `settled`
/// (owned by one side, or a dame) or the search would pass, the biggest game's move when
/// it beats the search's (a move in settled ground, or a pass, is worth nothing). Of
/// games equally big, the one whose move threatens most.
pub fn endgame_move(
    game: &Game,
    color: Color,
    choice: Move,
    ownership: impl Fn(Point) -> f32,
    deadline: Option<Instant>,
) -> Option<Point> {
    // The search's move when it lies in game `g`.
    let candidate_in = |g: &LocalGame| match choice {
        Move::Play(p) if g.region.contains(p) => Some(p),
        _ => None,
    };
    let chose = |g: &LocalGame| candidate_in(g).is_some();
    let board = game.board();
    let size = board.size();
    let on = board.on_board();
    let counting = match game.ruleset().scoring() {
        Scoring::Area => Counting::Area,
        Scoring::Territory => Counting::Territory,
    };
    let dame = super::neutral_points(board, Bitboard::EMPTY);
    let settled = |p: Point| ownership(p).abs() >= FIRMLY || dame.contains(p);
    // A wall that the playouts do not give to its owner may fall: not a closed game.
    let alive = |p: Point| {
        let sign = if board.color_at(p) == Some(Color::Black) {
            1.0
        } else {
            -1.0
        };
        sign * ownership(p) >= FIRMLY
    };
    // Not read, being worth nothing to either side: empty spaces inside walls that hold,
    // and empty spaces too big to kill in.
    let games: Vec<LocalGame> = local_games(board)
        .into_iter()
        .filter(|g| {
            let walls = g.region.neighbours(size, &on) & !g.region & !g.enclosing;
            let empty = (g.region & !board.empty_points()).is_empty();
            let contested =
                !empty || !g.enclosing.is_empty() && g.region.count() < ALIVE_SPACE_POINTS;
            contested && walls.iter().all(alive)
        })
        .collect();
    let read = |g: &LocalGame| {
        let verdict = eye_space::read_game(board, g, color, candidate_in(g), counting, deadline);
        log::debug!(
            "game {} enclosing {} ({:?}): {:?}",
            g.region.vertex_names(size),
            g.enclosing.vertex_names(size),
            g.defender,
            verdict
        );
        verdict.map(|v| (*g, v))
    };
    let chosen = games.iter().find(|g| chose(g)).and_then(read);
    // Within the game the search chose: its best move (of equal ones, the one that
    // leaves the opponent least and threatens most).
    let local_fix = chosen
        .filter(|(_, v)| v.gain() > 0 || v.first > v.candidate)
        .and_then(|(_, v)| v.best);
    let played: Bitboard = games
        .iter()
        .fold(Bitboard::EMPTY, |acc, g| acc | g.region | g.enclosing);
    // The search's move is compared with the biggest game when the reading knows its
    // worth (a pass, or a move in a game read out: one bigger than the search's best is
    // the biggest on the board), or when all else is settled. With a ko on, a move worth
    // nothing may be a ko threat.
    let known_worth = choice == Move::Pass
        || chosen.is_some_and(|(_, v)| board.ko().is_none() || priority(&v).is_some());
    if !known_worth && !(on & !played).iter().all(settled) {
        return local_fix;
    }
    let choice_priority = match chosen {
        Some((_, v)) => priority(&v).unwrap_or((1, 0)),
        None if matches!(choice, Move::Play(p) if !settled(p)) => return local_fix,
        None => (1, 0),
    };
    let biggest = games
        .iter()
        .filter(|g| !chose(g))
        .filter_map(read)
        .filter_map(|(g, v)| priority(&v).map(|p| (p, g, v)))
        .max_by_key(|(p, _, v)| (*p, v.threat));
    match biggest {
        Some((p, _, v)) if p > choice_priority => {
            log::debug!(
                "endgame: {:?} (class {}, {} half points) over the search's {:?}",
                v.best,
                p.0,
                p.1,
                choice
            );
            v.best
        }
        _ => local_fix,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, Ruleset, owned_regions, parse_diagram};

    /// Black's pair A9-B9 in atari (gote: four points under territory rules) and a corner
    /// where White's B2 makes a seki in sente: the rest is settled.
    const TWO_GAMES: &str = "X X . X . . X . .
                             O O O X X X X X X
                             O O O O O O O O O
                             . . . . . . . . .
                             O O O O O O O O O
                             X X O O . . . . .
                             . X X O O . . . .
                             . . X X O . . . .
                             . . . X O . . . .";

    fn game(diagram: &str) -> Game {
        let target = parse_diagram(diagram).unwrap();
        let mut game = Game::new(target.size(), Ruleset::Japanese);
        for color in Color::BOTH {
            for p in target.stones(color).iter() {
                game.play(color, Move::Play(p)).unwrap();
            }
        }
        game
    }

    /// Ownership as the board stands: stones and the empty regions one side encloses.
    fn settled_ownership(board: &Board) -> impl Fn(Point) -> f32 + '_ {
        let owned = owned_regions(board, &Bitboard::EMPTY);
        move |p| match board.color_at(p) {
            Some(Color::Black) => 1.0,
            Some(Color::White) => -1.0,
            None if owned.black.contains(p) => 1.0,
            None if owned.white.contains(p) => -1.0,
            None => 0.0,
        }
    }

    fn points(board: &Board, names: &str) -> Bitboard {
        names
            .split_whitespace()
            .map(|n| board.size().parse_point(n).unwrap())
            .collect()
    }

    #[test]
    fn the_games_are_a_corner_space_and_a_chain_in_atari() {
        let board = parse_diagram(TWO_GAMES).unwrap();
        let games = local_games(&board);
        let corner = LocalGame {
            region: points(&board, "A1 A2 A3 B1 B2 C1"),
            enclosing: points(&board, "A4 B4 B3 C3 C2 D2 D1"),
            defender: Color::Black,
        };
        let atari = LocalGame {
            region: points(&board, "A9 B9 C9"),
            enclosing: Bitboard::EMPTY,
            defender: Color::Black,
        };
        assert!(games.contains(&corner), "{games:?}");
        assert!(games.contains(&atari), "{games:?}");
    }

    #[test]
    fn a_space_that_two_chains_enclose_is_one_game() {
        let board = parse_diagram(
            ". . . . . . .
             . . . . . . .
             . . . . . . .
             O O O O . . .
             X X X O O O O
             . . . X X X O
             . . . . . X O",
        )
        .unwrap();
        let game = LocalGame {
            region: points(&board, "A1 B1 C1 D1 E1 A2 B2 C2"),
            enclosing: points(&board, "A3 B3 C3 D2 E2 F2 F1"),
            defender: Color::Black,
        };
        assert!(local_games(&board).contains(&game));
    }

    #[test]
    fn reverse_sente_outranks_a_bigger_gote_and_sente_comes_first() {
        let a1 = crate::rules::BoardSize::NINE.parse_point("A1").unwrap();
        let verdict = |first, second, threat, opponent_threat| Verdict {
            best: Some(a1),
            first,
            second,
            threat,
            opponent_threat,
            candidate: first,
        };
        // Gote worth 4 (half of it counts) against reverse sente worth 3.
        let gote = priority(&verdict(0, -4, 0, 0)).unwrap();
        let reverse_sente = priority(&verdict(3, 0, 0, 100)).unwrap();
        assert!(reverse_sente > gote);
        let sente = priority(&verdict(1, 0, 100, 0)).unwrap();
        assert!(sente > reverse_sente);
        assert!(priority(&verdict(2, 0, 100, 100)).unwrap() > sente);
        assert_eq!(priority(&verdict(0, 0, 100, 0)), None);
    }

    #[test]
    fn the_corner_comes_before_the_pair_in_atari_for_both_sides() {
        let game = game(TWO_GAMES);
        let board = game.board();
        let size = board.size();
        let c9 = size.parse_point("C9").unwrap();
        let play =
            |color| endgame_move(&game, color, Move::Play(c9), settled_ownership(board), None);
        assert_eq!(
            play(Color::Black).map(|p| size.name(p)).as_deref(),
            Some("B1")
        );
        assert_eq!(
            play(Color::White).map(|p| size.name(p)).as_deref(),
            Some("B2")
        );
        // With a point elsewhere still open, a move the reading can value (one in a game,
        // or a pass) still gives way to the bigger game; a move in the open stands.
        let e6 = size.parse_point("E6").unwrap();
        let unsettled = |p: Point| {
            if p == e6 {
                0.0
            } else {
                settled_ownership(board)(p)
            }
        };
        let b1 = size.parse_point("B1").ok();
        for choice in [Move::Play(c9), Move::Pass] {
            assert_eq!(
                endgame_move(&game, Color::Black, choice, unsettled, None),
                b1
            );
        }
        assert_eq!(
            endgame_move(&game, Color::Black, Move::Play(e6), unsettled, None),
            None
        );
    }
}
