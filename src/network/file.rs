//! The network file: safetensors with the trainer's metadata (format, version, input
//! planes, sizes, a checksum of the weights), read and checked before any weight is used.

use super::forward::{Conv, Tiles};
use super::heads::{MOST_HIDDEN, OwnershipHead, ValueHead};
use super::planes::{PLANES, PLANES_VERSION};
use super::{EDGE_DISTANCES, FILTERS, Network, edge_distance};
use safetensors::{Dtype, SafeTensorError, SafeTensors};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The `format` the trainer writes in a network file's metadata.
pub const FORMAT: &str = "yeoul-policy";
/// The file layout's version the trainer writes for a policy alone: the head's bias by
/// distance to the nearest edge (`policy.edge_bias`). This build reads version 1 too,
/// whose head has a bias per point of its one size (`policy.bias`), and version 3.
pub const VERSION: &str = "2";
/// Version 2 with a value head (`value.*`) and, where the trainer taught one, an
/// ownership head (`ownership.*`).
pub const VALUE_VERSION: &str = "3";

/// The network compiled into the binary (`models/policy.safetensors`).
const BUILTIN: &[u8] = include_bytes!("../../models/policy.safetensors");

/// Why a network file cannot be used.
#[derive(Clone, Debug, PartialEq)]
pub enum NetworkError {
    Io(String),
    /// Shorter than its header says.
    Truncated,
    /// Not a safetensors file, or one that holds something else.
    NotANetwork(String),
    UnsupportedVersion(String),
    /// Trained on other input planes than this build computes.
    ForeignPlanes {
        planes: String,
        version: String,
    },
    /// The weights do not match the checksum the trainer wrote.
    Corrupt,
    /// A tensor missing or of the wrong shape, or an impossible setting.
    Invalid(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "cannot read the network file: {e}"),
            NetworkError::Truncated => f.write_str("the network file is truncated"),
            NetworkError::NotANetwork(why) => write!(f, "not a yeoul policy network: {why}"),
            NetworkError::UnsupportedVersion(v) => write!(
                f,
                "network file version {v:?}; this build reads versions 1 to {VALUE_VERSION}"
            ),
            NetworkError::ForeignPlanes { planes, version } => write!(
                f,
                "the network was trained on {planes} input planes of version {version}; this \
                 build computes {PLANES} planes of version {PLANES_VERSION}"
            ),
            NetworkError::Corrupt => {
                f.write_str("the network file is corrupt (its weights fail the checksum)")
            }
            NetworkError::Invalid(why) => write!(f, "the network file is invalid: {why}"),
        }
    }
}

impl std::error::Error for NetworkError {}

impl Network {
    /// The network built into the binary.
    pub fn builtin() -> Result<Arc<Network>, NetworkError> {
        static NETWORK: OnceLock<Result<Arc<Network>, NetworkError>> = OnceLock::new();
        NETWORK
            .get_or_init(|| Network::from_bytes(BUILTIN).map(Arc::new))
            .clone()
    }

    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path)
            .map_err(|e| NetworkError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    /// Reads and checks a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(header_error)?;
        let meta = header.metadata().clone().unwrap_or_default();
        let field = |name: &str| meta.get(name).cloned().unwrap_or_default();
        if field("format") != FORMAT {
            return Err(NetworkError::NotANetwork(format!(
                "its metadata names the format {:?}",
                field("format")
            )));
        }
        let (per_point_bias, with_value) = match field("version").as_str() {
            "1" => (true, false),
            VERSION => (false, false),
            VALUE_VERSION => (false, true),
            other => return Err(NetworkError::UnsupportedVersion(other.to_string())),
        };
        if field("planes") != PLANES.to_string()
            || field("planes_version") != PLANES_VERSION.to_string()
        {
            return Err(NetworkError::ForeignPlanes {
                planes: field("planes"),
                version: field("planes_version"),
            });
        }
        let number = |name: &str, range: std::ops::RangeInclusive<usize>| {
            field(name)
                .parse::<usize>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(|| {
                    NetworkError::Invalid(format!("{name} {:?} is not in {range:?}", field(name)))
                })
        };
        let size = number("board_size", 2..=19)?;
        let blocks = number("blocks", 0..=64)?;
        let filters = number("filters", 1..=1024)?;
        if !FILTERS.contains(&filters) {
            return Err(NetworkError::Invalid(format!(
                "{filters} filters; this build evaluates {FILTERS:?}"
            )));
        }
        let tensors = SafeTensors::deserialize(bytes).map_err(header_error)?;
        let mut names: Vec<String> = tensors.names().into_iter().map(String::from).collect();
        names.sort();
        let mut crc = 0u32;
        for name in &names {
            let view = tensors
                .tensor(name)
                .map_err(|e| NetworkError::Invalid(e.to_string()))?;
            crc = crc32(crc, view.data());
        }
        // Fuzzing builds skip the checksum, so that mutated weights reach the forward pass.
        if field("crc32") != format!("{crc:08x}") && !cfg!(fuzzing) {
            return Err(NetworkError::Corrupt);
        }
        let mut read = Reader {
            tensors: &tensors,
            seen: HashMap::new(),
        };
        let points = size * size;
        let input = read.conv("conv_in", PLANES, filters)?;
        let mut tower = Vec::with_capacity(blocks);
        for i in 0..blocks {
            tower.push([
                read.conv(&format!("blocks.{i}.conv1"), filters, filters)?,
                read.conv(&format!("blocks.{i}.conv2"), filters, filters)?,
            ]);
        }
        let policy_weight = read.tensor("policy.weight", &[filters])?;
        let (policy_bias, edge_bias) = if per_point_bias {
            (read.tensor("policy.bias", &[points])?, None)
        } else {
            let by_distance = read.tensor("policy.edge_bias", &[EDGE_DISTANCES])?;
            let bias = (0..points)
                .map(|p| by_distance[edge_distance(size, p)])
                .collect();
            (bias, Some(by_distance.into()))
        };
        let value = if with_value {
            Some(Arc::new(read.value_head(filters)?))
        } else {
            None
        };
        // The ownership head comes only with a value head (the trainer teaches it beside one).
        let ownership = if with_value && names.iter().any(|n| n.starts_with("ownership.")) {
            Some(Arc::new(OwnershipHead {
                weight: read.tensor("ownership.weight", &[filters])?,
                bias: read.tensor("ownership.bias", &[1])?[0],
            }))
        } else {
            None
        };
        if let Some(extra) = names.iter().find(|n| !read.seen.contains_key(*n)) {
            return Err(NetworkError::Invalid(format!(
                "an unexpected tensor {extra:?} for {blocks} blocks"
            )));
        }
        Ok(Network {
            size,
            filters,
            input: Arc::new(input),
            blocks: tower.into(),
            policy_weight: policy_weight.into(),
            policy_bias,
            edge_bias,
            value,
            ownership,
            tiles: Tiles::new(size),
            note: field("note"),
        })
    }
}

struct Reader<'a, 'data> {
    tensors: &'a SafeTensors<'data>,
    seen: HashMap<String, ()>,
}

impl Reader<'_, '_> {
    fn tensor(&mut self, name: &str, shape: &[usize]) -> Result<Vec<f32>, NetworkError> {
        let view = self
            .tensors
            .tensor(name)
            .map_err(|_| NetworkError::Invalid(format!("the tensor {name:?} is missing")))?;
        if view.dtype() != Dtype::F32 || view.shape() != shape {
            return Err(NetworkError::Invalid(format!(
                "the tensor {name:?} is {:?} {:?}, expected F32 {shape:?}",
                view.dtype(),
                view.shape()
            )));
        }
        let values: Vec<f32> = view
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err(NetworkError::Invalid(format!(
                "the tensor {name:?} holds a value that is not a finite number"
            )));
        }
        self.seen.insert(name.to_string(), ());
        Ok(values)
    }

    /// The value head on a trunk of `filters` filters, its hidden width that of
    /// `value.fc1.weight`.
    fn value_head(&mut self, filters: usize) -> Result<ValueHead, NetworkError> {
        let pooled = 2 * filters;
        let first = "value.fc1.weight";
        let hidden = match self.tensors.tensor(first).map(|view| view.shape().to_vec()) {
            Ok(shape) => match shape[..] {
                [rows, hidden] if rows == pooled && (1..=MOST_HIDDEN).contains(&hidden) => hidden,
                _ => {
                    return Err(NetworkError::Invalid(format!(
                        "the tensor {first:?} is {shape:?}, expected [{pooled}, hidden] with \
                         hidden from 1 to {MOST_HIDDEN}"
                    )));
                }
            },
            Err(_) => {
                return Err(NetworkError::Invalid(format!(
                    "the tensor {first:?} is missing"
                )));
            }
        };
        let shape = [pooled, hidden];
        let input_scale = self.tensor("value.input_scale", &[pooled])?;
        if input_scale.contains(&0.0) {
            return Err(NetworkError::Invalid(
                "the tensor \"value.input_scale\" holds a 0 (it divides)".to_string(),
            ));
        }
        Ok(ValueHead {
            input_mean: self.tensor("value.input_mean", &[pooled])?,
            input_scale,
            fc1_weight: self.tensor("value.fc1.weight", &shape)?,
            fc1_bias: self.tensor("value.fc1.bias", &[hidden])?,
            fc2_weight: self.tensor("value.fc2.weight", &[hidden])?,
            fc2_bias: self.tensor("value.fc2.bias", &[1])?[0],
        })
    }

    fn conv(&mut self, name: &str, inputs: usize, outputs: usize) -> Result<Conv, NetworkError> {
        let weight = self.tensor(&format!("{name}.weight"), &[3, 3, inputs, outputs])?;
        let bias = self.tensor(&format!("{name}.bias"), &[outputs])?;
        Ok(Conv::new(inputs, outputs, weight, bias))
    }
}

fn header_error(e: SafeTensorError) -> NetworkError {
    match e {
        SafeTensorError::HeaderTooSmall
        | SafeTensorError::InvalidHeaderLength
        | SafeTensorError::MetadataIncompleteBuffer => NetworkError::Truncated,
        SafeTensorError::HeaderTooLarge
        | SafeTensorError::InvalidHeader(_)
        | SafeTensorError::InvalidHeaderStart
        | SafeTensorError::InvalidHeaderDeserialization(_)
        | SafeTensorError::JsonError(_) => {
            NetworkError::NotANetwork("not a safetensors file".to_string())
        }
        other => NetworkError::Invalid(other.to_string()),
    }
}

/// CRC-32 (zlib's, as Python's `zlib.crc32`) of `bytes`, continuing from `crc`.
pub fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut c = !crc;
    for &b in bytes {
        c = TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

#[cfg(test)]
mod tests {
    use super::super::planes::InputPlanes;
    use super::super::test_files::{TINY, TINY_V2, TINY_V3, v3_with};
    use super::*;

    /// The tiny network's file with its header's JSON edited (same length).
    fn with_header(edit: impl Fn(&str) -> String) -> Vec<u8> {
        with_header_of(TINY, edit)
    }

    /// The network file `file` with its header's JSON edited (same length).
    fn with_header_of(file: &[u8], edit: impl Fn(&str) -> String) -> Vec<u8> {
        let n = u64::from_le_bytes(file[..8].try_into().expect("8 bytes")) as usize;
        let header = std::str::from_utf8(&file[8..8 + n]).expect("JSON");
        let edited = edit(header);
        assert_eq!(edited.len(), n);
        let mut bytes = file[..8].to_vec();
        bytes.extend(edited.as_bytes());
        bytes.extend(&file[8 + n..]);
        bytes
    }

    #[test]
    fn broken_truncated_and_foreign_files_are_refused_with_the_reason() {
        let error = |bytes: &[u8]| Network::from_bytes(bytes).expect_err("refused");
        assert_eq!(error(&TINY[..TINY.len() - 100]), NetworkError::Truncated);
        assert_eq!(error(&TINY[..5]), NetworkError::Truncated);
        assert_eq!(error(&TINY[..200]), NetworkError::Truncated);
        let mut flipped = TINY.to_vec();
        let last = flipped.len() - 10;
        flipped[last] ^= 0x40;
        assert_eq!(error(&flipped), NetworkError::Corrupt);
        assert!(matches!(
            error(b"(;GM[1]SZ[19];B[pd])"),
            NetworkError::NotANetwork(_)
        ));
        let model = include_bytes!("../../models/yeoul.model");
        assert!(matches!(error(model), NetworkError::NotANetwork(_)));
        let other = with_header(|h| h.replace("yeoul-policy", "other-policy"));
        assert!(matches!(error(&other), NetworkError::NotANetwork(_)));
        let planes =
            with_header(|h| h.replace("\"planes_version\":\"1\"", "\"planes_version\":\"7\""));
        assert_eq!(
            error(&planes),
            NetworkError::ForeignPlanes {
                planes: "20".into(),
                version: "7".into()
            }
        );
        let version = with_header(|h| h.replace("\"version\":\"1\"", "\"version\":\"9\""));
        assert_eq!(
            error(&version),
            NetworkError::UnsupportedVersion("9".into())
        );
        let blocks = with_header(|h| h.replace("\"blocks\":\"2\"", "\"blocks\":\"3\""));
        assert!(
            matches!(error(&blocks), NetworkError::Invalid(m) if m.contains("blocks.2.conv1.weight"))
        );
        for e in [error(&TINY[..100]), error(&flipped), error(&planes)] {
            assert!(!e.to_string().is_empty());
        }
        assert!(Network::from_bytes(TINY).is_ok());
    }

    #[test]
    fn both_versions_are_read_and_only_version_2_plays_every_size() {
        let v1 = Network::from_bytes(TINY).expect("version 1");
        assert!(!v1.plays_every_size());
        assert_eq!(v1.for_size(19).map(|n| n.board_size()), Some(19));
        assert!(v1.for_size(9).is_none() && v1.for_size(13).is_none());
        let v2 = Network::from_bytes(TINY_V2).expect("version 2");
        assert!(v2.plays_every_size());
        for size in [2, 5, 9, 13, 19] {
            let net = v2.for_size(size).expect("every size");
            assert_eq!(net.board_size(), size);
            assert_eq!(net.policy_bias.len(), size * size);
        }
        assert!(v2.for_size(1).is_none() && v2.for_size(20).is_none());
        // Each version's head under the other's name is refused, naming the tensor.
        let v1_as_v2 = with_header(|h| h.replace("\"version\":\"1\"", "\"version\":\"2\""));
        assert!(
            matches!(Network::from_bytes(&v1_as_v2), Err(NetworkError::Invalid(m)) if m.contains("policy.edge_bias")),
        );
        let v4 = with_header_of(TINY_V2, |h| {
            h.replace("\"version\":\"2\"", "\"version\":\"4\"")
        });
        let error = Network::from_bytes(&v4).expect_err("refused");
        assert_eq!(error, NetworkError::UnsupportedVersion("4".into()));
        assert!(error.to_string().contains("versions 1 to 3"), "{error}");
        // Version 2 has no value: a file of version 2 with one is refused, and version 3
        // without one.
        assert!(!v2.has_value() && !v2.has_ownership());
        let v3_as_v2 = with_header_of(TINY_V3, |h| {
            h.replace("\"version\":\"3\"", "\"version\":\"2\"")
        });
        assert!(
            matches!(Network::from_bytes(&v3_as_v2), Err(NetworkError::Invalid(m)) if m.contains("an unexpected tensor \"ownership.")),
        );
        let v2_as_v3 = with_header_of(TINY_V2, |h| {
            h.replace("\"version\":\"2\"", "\"version\":\"3\"")
        });
        assert!(
            matches!(Network::from_bytes(&v2_as_v3), Err(NetworkError::Invalid(m)) if m.contains("value.fc1.weight")),
        );
    }

    #[test]
    fn version_3_is_read_with_its_heads_and_a_bad_head_is_refused_naming_the_tensor() {
        let net = Network::from_bytes(TINY_V3).expect("version 3");
        assert!(net.has_value() && net.has_ownership() && net.plays_every_size());
        // The ownership head is optional: the value's is not.
        let without_ownership = v3_with(|t| t.retain(|(name, ..)| !name.starts_with("ownership.")));
        let net = Network::from_bytes(&without_ownership).expect("no ownership head");
        assert!(net.has_value() && !net.has_ownership());
        let refused = |bytes: Vec<u8>, tensor: &str| match Network::from_bytes(&bytes) {
            Err(NetworkError::Invalid(message)) => {
                assert!(message.contains(tensor), "{message} names {tensor}")
            }
            other => panic!("{tensor}: {other:?}"),
        };
        let value_tensors = [
            "value.input_mean",
            "value.input_scale",
            "value.fc1.weight",
            "value.fc1.bias",
            "value.fc2.weight",
            "value.fc2.bias",
            "ownership.weight",
            "ownership.bias",
        ];
        for tensor in value_tensors {
            refused(v3_with(|t| t.retain(|(name, ..)| name != tensor)), tensor);
            // A row short.
            refused(
                v3_with(|t| {
                    for (_, shape, data) in t.iter_mut().filter(|(name, ..)| name == tensor) {
                        shape[0] -= 1;
                        data.truncate(4 * shape.iter().product::<usize>());
                    }
                }),
                tensor,
            );
        }
        // The first layer flattened, too wide, or dividing by zero.
        let reshaped = |tensor: &'static str, to: Vec<usize>| {
            v3_with(move |t| {
                for (_, shape, _) in t.iter_mut().filter(|(name, ..)| name == tensor) {
                    *shape = to.clone();
                }
            })
        };
        let flat = Network::from_bytes(&reshaped("value.fc1.weight", vec![16 * 32])).err();
        assert!(matches!(flat, Some(NetworkError::Invalid(m)) if m.contains("value.fc1.weight")));
        let wide = Network::from_bytes(&reshaped("value.fc1.weight", vec![1, 512])).err();
        assert!(matches!(wide, Some(NetworkError::Invalid(m)) if m.contains("from 1 to 256")));
        let zero = v3_with(|t| {
            for (_, _, data) in t.iter_mut().filter(|(n, ..)| n == "value.input_scale") {
                data[..4].copy_from_slice(&0.0f32.to_le_bytes());
            }
        });
        refused(zero, "value.input_scale");
        let infinite = v3_with(|t| {
            for (_, _, data) in t.iter_mut().filter(|(n, ..)| n == "value.fc2.bias") {
                data.copy_from_slice(&f32::INFINITY.to_le_bytes());
            }
        });
        refused(infinite, "value.fc2.bias");
    }

    #[test]
    fn the_built_in_network_loads_and_rates_the_legal_moves_of_an_empty_board() {
        let net = Network::builtin().expect("the built-in network");
        assert_eq!(net.board_size(), 19);
        let board = crate::rules::Board::new(crate::rules::BoardSize::NINETEEN);
        let planes = InputPlanes::encode(&board, crate::rules::Color::Black, &[None; 4]);
        let policy = net.policy(&[planes], &mut net.scratch(1)).to_vec();
        assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-3);
        // Trained on 9-dan games: the corners' 4-4 and 3-4 points beat the centre's edge.
        let size = board.size();
        let at = |name: &str| policy[size.row_major(size.parse_point(name).expect("point"))];
        assert!(at("D4") > 10.0 * at("A1") && at("Q16") > 10.0 * at("K1"));
    }

    #[test]
    fn the_checksum_is_zlibs_crc32() {
        assert_eq!(crc32(0, b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(crc32(0, b"12345"), b"6789"), 0xCBF4_3926);
    }
}
