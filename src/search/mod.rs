//! Search: playouts (and, later, the tree).

pub mod patterns;
pub mod playout;
pub mod policy;
