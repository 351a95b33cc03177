//! The policy network on the CPU: the file the trainer writes (`training/net.py` documents
//! it: safetensors, a residual tower of 3x3 convolutions and a 1x1 policy head), read and
//! checked ([`file`]), its input planes ([`planes`], one owner for the exporter and the
//! engine) and its forward pass ([`forward`]). Beside `knowledge/` (the Bradley-Terry
//! model, whose move features the planes use) and below the search, which asks it for
//! priors.

pub mod file;
pub mod forward;
pub mod planes;

pub use file::{FORMAT, NetworkError, VERSION, crc32};
pub use forward::Scratch;

use forward::{Conv, Tiles};
use std::fmt;

/// A policy network, read-only once loaded: share it between threads.
pub struct Network {
    size: usize,
    filters: usize,
    input: Conv,
    blocks: Vec<[Conv; 2]>,
    policy_weight: Vec<f32>,
    policy_bias: Vec<f32>,
    tiles: Tiles,
    note: String,
}

/// The filter counts the forward pass is compiled for (each its own unrolled code).
pub const FILTERS: [usize; 9] = [8, 16, 32, 48, 64, 96, 128, 192, 256];

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({} blocks x {} filters, {}x{})",
            self.blocks.len(),
            self.filters,
            self.size,
            self.size
        )
    }
}

impl Network {
    /// The side of the board the network was trained for.
    pub fn board_size(&self) -> usize {
        self.size
    }

    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    pub fn filters(&self) -> usize {
        self.filters
    }

    /// What the trainer wrote about the network.
    pub fn note(&self) -> &str {
        &self.note
    }
}

/// The tiny network the trainer's tests make (training/make_test_data.py).
#[cfg(test)]
const TINY: &[u8] = include_bytes!("../../tests/data/tiny-net.safetensors");
