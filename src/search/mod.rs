//! Search: playouts (and, later, the tree).

pub mod playout;
