//! Move knowledge learned from strong players' games (Coulom 2007): the features of a
//! candidate move ([`features`], with [`shape`] and [`ladder`]), and the model that rates
//! them ([`model`]). Depends on the rules core only; the search, the trainer and GTP's
//! `yeoul-policy` use it.

pub mod features;
pub mod ladder;
pub mod model;
pub mod shape;

pub use features::{Position, Recent};
pub use model::{Model, ModelError, Team};

use crate::rules::{Board, Color, Point, Suicide};

/// The probability of every legal move of `color` (filling an own true eye included),
/// best first; they sum to 1.
pub fn move_probabilities(
    model: &Model,
    board: &Board,
    color: Color,
    recent: Recent,
) -> Vec<(Point, f32)> {
    let position = Position::new(board, color, recent);
    let mut rated: Vec<(Point, f32)> = board
        .empty_points()
        .iter()
        .filter(|&p| board.is_legal(p, color, Suicide::Forbidden))
        .map(|p| (p, model.move_strength(&position, p)))
        .collect();
    let total: f32 = rated.iter().map(|r| r.1).sum();
    if total > 0.0 {
        for r in &mut rated {
            r.1 /= total;
        }
    }
    rated.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.index().cmp(&b.0.index())));
    rated
}
