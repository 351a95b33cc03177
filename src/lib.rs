//! yeoul: a Go engine that speaks GTP.
//!
//! Reading order: [`rules`] (the rules core: board, game, scoring), then [`search`]
//! (playouts), then [`bench`] (the playout benchmark behind `yeoul bench`).
#![deny(unsafe_code)]

pub mod bench;
pub mod engine;
pub mod gtp;
pub mod knowledge;
pub mod match_runner;
pub mod network;
pub mod referee;
pub mod rules;
pub mod search;
pub mod sgf;
pub mod train;
