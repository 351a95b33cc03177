//! The rules core (RULES.md): board, game, ko and superko, scoring. Depends on std only;
//! no randomness, threads, logging or I/O.

mod bitboard;
mod board;
mod color;
pub mod diagram;
mod eyes;
mod game;
mod handicap;
mod point;
mod ruleset;
mod score;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{
    Board, Cell, FixedStride, IllegalMove, RuntimeStride, Stride, Suicide, neighbour_key_of,
};
pub use color::{ByColor, Color};
pub use diagram::{DiagramError, parse_diagram, to_diagram};
pub use game::{CannotUndo, Game, PlayOutcome, Setup, StartKey};
pub use handicap::{
    HandicapError, check_free_handicap, fixed_handicap_points, max_fixed_handicap,
    max_free_handicap,
};
pub use point::{
    BadBoardSize, BoardSize, CELLS, MAX_POINTS, MAX_SIZE, MIN_SIZE, Move, OffBoard, Point,
};
pub use ruleset::{KoRule, Ruleset, Scoring, UnknownRuleset};
pub use score::{Score, area_points, owned_regions, territory_points};
pub use zobrist::{stone_key, to_move_key};
