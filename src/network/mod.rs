//! The policy network on the CPU: the file the trainer writes (`training/net.py` documents
//! it: safetensors, a residual tower of 3x3 convolutions and a 1x1 policy head, and from
//! version 3 a value head and an ownership head, [`heads`]), read and checked ([`file`]),
//! its input planes ([`planes`], one owner for the exporter and the engine) and its
//! forward pass ([`forward`]). Beside `knowledge/` (the Bradley-Terry
//! model, whose move features the planes use) and below the search, which asks it for
//! priors.

pub mod file;
pub mod forward;
mod heads;
pub mod planes;

pub use file::{FORMAT, NetworkError, VALUE_VERSION, VERSION, crc32};
pub use forward::{Evaluation, Scratch};

use forward::{Conv, Tiles};
use heads::{OwnershipHead, ValueHead};
use std::fmt;
use std::sync::Arc;

/// A policy network for one board size, read-only once loaded: share it between threads.
/// A network whose head holds no absolute position (file version 2) gives the same
/// weights for every other size ([`Network::for_size`]).
#[derive(Clone)]
pub struct Network {
    size: usize,
    filters: usize,
    input: Arc<Conv>,
    blocks: Arc<[[Conv; 2]]>,
    policy_weight: Arc<[f32]>,
    /// The head's bias at each point of this size.
    policy_bias: Vec<f32>,
    /// The head's bias by distance to the nearest edge (version 2), which makes
    /// `policy_bias` on any size; `None`: a bias per point of the one size (version 1).
    edge_bias: Option<Arc<[f32]>>,
    /// The value head (version 3).
    value: Option<Arc<ValueHead>>,
    /// The final-ownership head (version 3, where the trainer taught one).
    ownership: Option<Arc<OwnershipHead>>,
    tiles: Tiles,
    note: String,
}

/// Distances to the nearest edge on boards up to 19x19 (the centre of 19x19 is 9 away):
/// the length of a version-2 head's bias.
pub const EDGE_DISTANCES: usize = 10;

/// Each point's distance to the nearest edge of a `size` x `size` board, row-major.
fn edge_distance(size: usize, point: usize) -> usize {
    let (row, col) = (point / size, point % size);
    row.min(col).min(size - 1 - row).min(size - 1 - col)
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
    /// The side of the board this network evaluates.
    pub fn board_size(&self) -> usize {
        self.size
    }

    /// Whether its head holds no absolute position, so that it evaluates every size.
    pub fn plays_every_size(&self) -> bool {
        self.edge_bias.is_some()
    }

    /// The network for boards of `size`: this one on its own size; with a head that
    /// holds no absolute position, the same weights on any size from 2 to 19; else none.
    pub fn for_size(&self, size: usize) -> Option<Network> {
        if size == self.size {
            return Some(self.clone());
        }
        let edge_bias = self
            .edge_bias
            .as_ref()
            .filter(|_| (2..=19).contains(&size))?;
        Some(Network {
            size,
            policy_bias: (0..size * size)
                .map(|p| edge_bias[edge_distance(size, p)])
                .collect(),
            tiles: Tiles::new(size),
            ..self.clone()
        })
    }

    /// Whether it values positions (file version 3).
    pub fn has_value(&self) -> bool {
        self.value.is_some()
    }

    /// Whether it foresees each point's final owner.
    pub fn has_ownership(&self) -> bool {
        self.ownership.is_some()
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

/// The tiny networks the trainer's tests make (training/make_test_data.py), for the
/// tests here and in the search.
#[cfg(test)]
pub(crate) mod test_files {
    use super::file::crc32;
    use safetensors::tensor::TensorView;
    use safetensors::{Dtype, SafeTensors};

    /// Version 1: a bias per point of 19x19.
    pub const TINY: &[u8] = include_bytes!("../../tests/data/tiny-net.safetensors");
    /// Version 2: a bias by distance to the edge.
    pub const TINY_V2: &[u8] = include_bytes!("../../tests/data/tiny-net-v2.safetensors");
    /// Version 2's tiny network with a value and an ownership head (version 3).
    pub const TINY_V3: &[u8] = include_bytes!("../../tests/data/tiny-net-v3.safetensors");

    /// A tensor of a file: name, shape, little-endian bytes.
    pub(crate) type Tensor = (String, Vec<usize>, Vec<u8>);

    /// The version-3 tiny network rebuilt with `edit` applied to its tensors, the
    /// checksum written anew (so that only the edit is wrong).
    pub(crate) fn v3_with(edit: impl Fn(&mut Vec<Tensor>)) -> Vec<u8> {
        let file = SafeTensors::deserialize(TINY_V3).expect("the tiny network");
        let (_, header) = SafeTensors::read_metadata(TINY_V3).expect("its header");
        let mut metadata = header.metadata().clone().expect("its metadata");
        let mut tensors: Vec<Tensor> = file
            .tensors()
            .into_iter()
            .map(|(name, view)| (name, view.shape().to_vec(), view.data().to_vec()))
            .collect();
        edit(&mut tensors);
        tensors.sort();
        let crc = tensors.iter().fold(0, |crc, t| crc32(crc, &t.2));
        metadata.insert("crc32".to_string(), format!("{crc:08x}"));
        let views = tensors.iter().map(|(name, shape, data)| {
            let view = TensorView::new(Dtype::F32, shape.clone(), data).expect("a tensor");
            (name.clone(), view)
        });
        safetensors::serialize(views, Some(metadata)).expect("serialised")
    }
}

#[cfg(test)]
mod tests {
    use super::edge_distance;

    #[test]
    fn the_distance_to_the_edge_is_the_nearest_sides() {
        // Corners and sides 0, the centre of 19x19 9 and of 9x9 4; row-major points.
        assert_eq!(edge_distance(19, 0), 0);
        assert_eq!(edge_distance(19, 18), 0);
        assert_eq!(edge_distance(19, 19 * 18 + 9), 0);
        assert_eq!(edge_distance(19, 180), 9);
        assert_eq!(edge_distance(19, 19 * 3 + 15), 3);
        assert_eq!(edge_distance(9, 40), 4);
        assert_eq!(edge_distance(9, 10), 1);
        assert_eq!(edge_distance(13, 13 * 2 + 11), 1);
        assert!((0..4).all(|p| edge_distance(2, p) == 0));
    }
}
