//! Playouts: a position played out to the end with a simple random policy.

use super::policy::PlayoutPolicy;
use crate::rules::{Bitboard, Board, Color, FixedStride, Point, Stride, Suicide, area_points};
use rand::RngCore;
use rand_pcg::Pcg32;

/// How a light playout starts and when it stops.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutLimits {
    /// Whether multi-stone suicide is a legal move (the game's rule set decides).
    pub suicide: Suicide,
    /// Moves already played in the game, passes included.
    pub moves_played: usize,
    /// Moves after which the game is scored as it stands (three per point).
    pub move_limit: usize,
    /// Consecutive passes already at the end of the game.
    pub passes: u32,
}

impl PlayoutLimits {
    /// A game of `size` without suicide, `moves_played` moves in, no pass pending.
    pub fn for_game_at(size: crate::rules::BoardSize, moves_played: usize) -> PlayoutLimits {
        PlayoutLimits {
            suicide: Suicide::Forbidden,
            moves_played,
            move_limit: 3 * size.points(),
            passes: 0,
        }
    }
}

/// The end of a playout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutResult {
    /// Black's area count minus White's (komi not included).
    pub area_margin: i32,
    /// Moves the playout made, passes included.
    pub moves: u32,
}

/// Draws a uniform index below `n` (`n > 0`) by multiply-shift: no division and no
/// rejection loop; its bias is below n / 2^32 (under 1e-7 on 19x19).
#[inline(always)]
fn draw_below(rng: &mut Pcg32, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

/// A uniformly random empty point that `acceptable` accepts, or `None` when it accepts
/// none. Each empty point is tried at most once: a rejected point is swapped out of the
/// range still to draw from (a partial Fisher–Yates shuffle), so the choice is uniform
/// over the acceptable points.
#[inline]
pub fn sample_empty_point(
    board: &mut Board,
    rng: &mut Pcg32,
    mut acceptable: impl Acceptable,
) -> Option<Point> {
    let mut remaining = board.empty_count();
    while remaining > 0 {
        let i = draw_below(rng, remaining);
        let p = board.empty_at(i);
        if acceptable.accepts(board, p) {
            return Some(p);
        }
        remaining -= 1;
        board.swap_empty(i, remaining);
    }
    None
}

/// The test a sampled point must pass: any `FnMut(&Board, Point) -> bool`, or a type whose
/// test is always inlined into the sampler's loop (the light playout's: a closure's call
/// was left out of line there).
pub trait Acceptable {
    fn accepts(&mut self, board: &Board, p: Point) -> bool;
}

impl<F: FnMut(&Board, Point) -> bool> Acceptable for F {
    #[inline]
    fn accepts(&mut self, board: &Board, p: Point) -> bool {
        self(board, p)
    }
}

/// The light playout's test: legal for `color` and not one of its true eyes.
struct LightTest<S: Stride> {
    stride: S,
    color: Color,
    suicide: Suicide,
}

impl<S: Stride> Acceptable for LightTest<S> {
    #[inline(always)]
    fn accepts(&mut self, board: &Board, p: Point) -> bool {
        board.is_playable_in(self.stride, p, self.color, self.suicide)
    }
}

/// A uniformly random legal move for `color` that does not fill one of its own true eyes.
#[inline]
pub fn random_light_move(
    board: &mut Board,
    color: Color,
    suicide: Suicide,
    rng: &mut Pcg32,
) -> Option<Point> {
    random_light_move_in(board.stride(), board, color, suicide, rng)
}

#[inline(always)]
fn random_light_move_in<S: Stride>(
    stride: S,
    board: &mut Board,
    color: Color,
    suicide: Suicide,
    rng: &mut Pcg32,
) -> Option<Point> {
    let test = LightTest {
        stride,
        color,
        suicide,
    };
    sample_empty_point(board, rng, test)
}

/// Plays uniformly random legal moves that never fill the mover's own true eye, from
/// `to_move`, until two passes in a row or the move limit, then counts the area. The
/// simple-ko ban is respected; superko is not checked (RULES.md leaves it to the tree).
/// The same board and seed always give the same playout.
pub fn light_playout(
    board: &mut Board,
    to_move: Color,
    limits: PlayoutLimits,
    rng: &mut Pcg32,
) -> PlayoutResult {
    // The common sizes get their stride at compile time; one dispatch per playout.
    match board.size().stride() {
        10 => light_playout_in(FixedStride::<10>, board, to_move, limits, rng),
        14 => light_playout_in(FixedStride::<14>, board, to_move, limits, rng),
        20 => light_playout_in(FixedStride::<20>, board, to_move, limits, rng),
        _ => light_playout_in(board.stride(), board, to_move, limits, rng),
    }
}

fn light_playout_in<S: Stride>(
    stride: S,
    board: &mut Board,
    mut to_move: Color,
    limits: PlayoutLimits,
    rng: &mut Pcg32,
) -> PlayoutResult {
    let mut passes = limits.passes;
    let mut moves = 0u32;
    let budget = limits.move_limit.saturating_sub(limits.moves_played);
    while passes < 2 && (moves as usize) < budget {
        match random_light_move_in(stride, board, to_move, limits.suicide, rng) {
            Some(p) => {
                board.play_unchecked_in(stride, p, to_move);
                passes = 0;
            }
            None => {
                board.clear_ko();
                passes += 1;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    let area = area_points(board, &Bitboard::EMPTY);
    PlayoutResult {
        area_margin: area.black as i32 - area.white as i32,
        moves,
    }
}

/// Plays `policy`'s moves from `to_move` (after the opponent's `last` move) until two
/// passes in a row or the move limit, then counts the area. Every stone played is appended
/// to `trace` (for AMAF statistics); reserve its capacity once to keep the loop free of
/// allocation.
pub fn playout(
    board: &mut Board,
    mut to_move: Color,
    limits: PlayoutLimits,
    policy: &PlayoutPolicy,
    mut last: Option<Point>,
    rng: &mut Pcg32,
    trace: &mut Vec<(Point, Color)>,
) -> PlayoutResult {
    let mut passes = limits.passes;
    let mut moves = 0u32;
    let budget = limits.move_limit.saturating_sub(limits.moves_played);
    while passes < 2 && (moves as usize) < budget {
        match policy.choose(board, to_move, last, limits.suicide, rng) {
            Some(p) => {
                board.play_unchecked(p, to_move);
                trace.push((p, to_move));
                passes = 0;
                last = Some(p);
            }
            None => {
                board.clear_ko();
                passes += 1;
                last = None;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    let area = area_points(board, &Bitboard::EMPTY);
    PlayoutResult {
        area_margin: area.black as i32 - area.white as i32,
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, Game, Ruleset};
    use rand::SeedableRng;

    fn limits(size: BoardSize) -> PlayoutLimits {
        PlayoutLimits::for_game_at(size, 0)
    }

    #[test]
    fn a_playout_is_reproducible_for_a_given_seed() {
        let size = BoardSize::NINE;
        let run = |seed| {
            let mut b = Board::new(size);
            let r = light_playout(
                &mut b,
                Color::Black,
                limits(size),
                &mut Pcg32::seed_from_u64(seed),
            );
            (r, b.hash())
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn a_playout_ends_when_the_last_passer_has_no_acceptable_move() {
        for seed in 0..50 {
            let size = BoardSize::NINE;
            let mut b = Board::new(size);
            let r = light_playout(
                &mut b,
                Color::Black,
                limits(size),
                &mut Pcg32::seed_from_u64(seed),
            );
            assert!(
                (r.moves as usize) < 3 * size.points(),
                "seed {seed} hit the move cap"
            );
            b.check_invariants().unwrap();
            let last_passer = if r.moves % 2 == 1 {
                Color::Black
            } else {
                Color::White
            };
            for p in size.all_points() {
                let playable = b.is_legal(p, last_passer, Suicide::Forbidden)
                    && !b.is_true_eye(p, last_passer);
                assert!(
                    !playable,
                    "seed {seed}: {} was still playable",
                    size.name(p)
                );
            }
        }
    }

    #[test]
    fn the_playout_never_fills_its_own_true_eye_and_plays_only_legal_moves() {
        let size = BoardSize::new(7).unwrap();
        for seed in 0..200 {
            let mut game = Game::new(size, Ruleset::Japanese);
            let mut rng = Pcg32::seed_from_u64(seed);
            while !game.is_over() {
                let color = game.to_move();
                let mut scratch = *game.board();
                let mv = random_light_move(&mut scratch, color, Suicide::Forbidden, &mut rng);
                match mv {
                    Some(p) => {
                        assert!(!game.board().is_true_eye(p, color));
                        game.play(color, crate::rules::Move::Play(p))
                            .expect("legal");
                    }
                    None => {
                        for p in size.all_points() {
                            let b = game.board();
                            assert!(
                                !b.is_legal(p, color, Suicide::Forbidden)
                                    || b.is_true_eye(p, color)
                            );
                        }
                        game.play(color, crate::rules::Move::Pass).unwrap();
                    }
                }
            }
        }
    }
}
