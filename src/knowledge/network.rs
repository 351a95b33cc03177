//! The policy network on the CPU: the file the trainer writes (`training/net.py` documents
//! it: safetensors, a residual tower of 3x3 convolutions and a 1x1 policy head), read and
//! checked, and its forward pass.
//!
//! A convolution is an im2col copy (each point's 3x3 neighbourhood of activations in one
//! row) and one matrix product by the `gemm` crate, for a whole batch at once; bias,
//! residual and ReLU are one pass over the output. Nothing is allocated per evaluation:
//! every buffer lives in a [`Scratch`] sized once for the largest batch.

use super::planes::{InputPlanes, LEGAL, PLANES, PLANES_VERSION};
use safetensors::{Dtype, SafeTensorError, SafeTensors};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The `format` the trainer writes in a network file's metadata.
pub const FORMAT: &str = "yeoul-policy";
/// The file layout's version this build reads.
pub const VERSION: &str = "1";

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
                "network file version {v:?}; this build reads version {VERSION}"
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

/// One 3x3 convolution: weights as a (9 · inputs) x outputs matrix, row `tap · inputs +
/// input` (the trainer's HWIO layout), and a bias per output.
struct Conv {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// A policy network, read-only once loaded: share it between threads.
pub struct Network {
    size: usize,
    filters: usize,
    input: Conv,
    blocks: Vec<[Conv; 2]>,
    policy_weight: Vec<f32>,
    policy_bias: Vec<f32>,
    /// For each point and each of the 9 taps of a 3x3 kernel, the point it reads, or
    /// `OFF` beyond the edge (zero padding).
    taps: Vec<u16>,
    note: String,
}

const OFF: u16 = u16::MAX;

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

/// Buffers for evaluating up to `batch` positions at once (one per evaluating thread).
pub struct Scratch {
    batch: usize,
    threads: usize,
    input: Vec<f32>,
    columns: Vec<f32>,
    current: Vec<f32>,
    middle: Vec<f32>,
    next: Vec<f32>,
    output: Vec<f32>,
}

impl Scratch {
    /// Threads one evaluation's matrix products may use (1: none besides the caller).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn batch(&self) -> usize {
        self.batch
    }
}

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
        if field("version") != VERSION {
            return Err(NetworkError::UnsupportedVersion(field("version")));
        }
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
        if field("crc32") != format!("{crc:08x}") {
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
        let policy_bias = read.tensor("policy.bias", &[points])?;
        if let Some(extra) = names.iter().find(|n| !read.seen.contains_key(*n)) {
            return Err(NetworkError::Invalid(format!(
                "an unexpected tensor {extra:?} for {blocks} blocks"
            )));
        }
        Ok(Network {
            size,
            filters,
            input,
            blocks: tower,
            policy_weight,
            policy_bias,
            taps: taps(size),
            note: field("note"),
        })
    }

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

    /// Multiply-adds of one evaluation, times two: its floating-point operations.
    pub fn flops(&self) -> u64 {
        let points = (self.size * self.size) as u64;
        let conv = |c: &Conv| 2 * points * 9 * (c.inputs * c.outputs) as u64;
        conv(&self.input)
            + self
                .blocks
                .iter()
                .map(|b| conv(&b[0]) + conv(&b[1]))
                .sum::<u64>()
            + 2 * points * self.filters as u64
    }

    /// Buffers to evaluate up to `batch` positions at once.
    pub fn scratch(&self, batch: usize) -> Scratch {
        let batch = batch.max(1);
        let rows = batch * self.size * self.size;
        let widest = PLANES.max(self.filters);
        Scratch {
            batch,
            threads: 1,
            input: vec![0.0; rows * PLANES],
            columns: vec![0.0; rows * 9 * widest],
            current: vec![0.0; rows * self.filters],
            middle: vec![0.0; rows * self.filters],
            next: vec![0.0; rows * self.filters],
            output: vec![0.0; rows],
        }
    }

    /// The move probabilities of each position: a softmax over its legal points (the
    /// legal plane), 0 elsewhere; position k's are `[k * n² .. (k + 1) * n²]`, row-major
    /// from the bottom left like the planes. At most `scratch.batch()` positions, each
    /// made for this network's board size.
    pub fn policy<'s>(&self, positions: &[InputPlanes], scratch: &'s mut Scratch) -> &'s [f32] {
        let points = self.size * self.size;
        let n = self.logits(positions, scratch).len() / points;
        for (k, planes) in positions.iter().take(n).enumerate() {
            let row = &mut scratch.output[k * points..(k + 1) * points];
            let most = (0..points)
                .filter(|&p| planes.get(LEGAL, p))
                .map(|p| row[p])
                .fold(f32::NEG_INFINITY, f32::max);
            let mut total = 0.0;
            for (p, v) in row.iter_mut().enumerate() {
                *v = if planes.get(LEGAL, p) {
                    (*v - most).exp()
                } else {
                    0.0
                };
                total += *v;
            }
            if total > 0.0 {
                row.iter_mut().for_each(|v| *v /= total);
            }
        }
        &scratch.output[..n * points]
    }

    /// The raw scores (before the softmax) of each position, laid out as [`Network::policy`].
    pub fn logits<'s>(&self, positions: &[InputPlanes], scratch: &'s mut Scratch) -> &'s [f32] {
        let points = self.size * self.size;
        let batch = positions.len().min(scratch.batch);
        let rows = batch * points;
        for (k, planes) in positions.iter().take(batch).enumerate() {
            debug_assert_eq!(planes.points(), points, "planes of another board size");
            planes.write_input(&mut scratch.input[k * points * PLANES..(k + 1) * points * PLANES]);
        }
        let threads = scratch.threads;
        let Scratch {
            input,
            columns,
            current,
            middle,
            next,
            output,
            ..
        } = scratch;
        self.convolve(
            &self.input,
            &input[..rows * PLANES],
            batch,
            columns,
            current,
            None,
            threads,
        );
        for [first, second] in &self.blocks {
            self.convolve(first, current, batch, columns, middle, None, threads);
            self.convolve(second, middle, batch, columns, next, Some(current), threads);
            std::mem::swap(current, next);
        }
        let f = self.filters;
        for (r, out) in output[..rows].iter_mut().enumerate() {
            let h = &current[r * f..(r + 1) * f];
            *out = h
                .iter()
                .zip(&self.policy_weight)
                .map(|(a, b)| a * b)
                .sum::<f32>()
                + self.policy_bias[r % points];
        }
        &output[..rows]
    }

    /// `out = relu(conv(src) + bias [+ residual])` for `batch` positions.
    #[allow(clippy::too_many_arguments)]
    fn convolve(
        &self,
        conv: &Conv,
        src: &[f32],
        batch: usize,
        columns: &mut [f32],
        out: &mut [f32],
        residual: Option<&[f32]>,
        threads: usize,
    ) {
        let points = self.size * self.size;
        let (cin, cout) = (conv.inputs, conv.outputs);
        let rows = batch * points;
        let width = 9 * cin;
        for k in 0..batch {
            let image = &src[k * points * cin..(k + 1) * points * cin];
            for p in 0..points {
                let row = &mut columns[(k * points + p) * width..(k * points + p + 1) * width];
                for (t, cell) in row.chunks_exact_mut(cin).enumerate() {
                    match self.taps[p * 9 + t] {
                        OFF => cell.fill(0.0),
                        q => cell.copy_from_slice(&image[q as usize * cin..(q as usize + 1) * cin]),
                    }
                }
            }
        }
        let out = &mut out[..rows * cout];
        match residual {
            Some(res) => {
                for (o, r) in out.chunks_exact_mut(cout).zip(res.chunks_exact(cout)) {
                    for ((o, r), b) in o.iter_mut().zip(r).zip(&conv.bias) {
                        *o = r + b;
                    }
                }
            }
            None => {
                for o in out.chunks_exact_mut(cout) {
                    o.copy_from_slice(&conv.bias);
                }
            }
        }
        matmul_add(
            out,
            &columns[..rows * width],
            &conv.weight,
            (rows, width, cout),
            threads,
        );
        for v in out.iter_mut() {
            *v = v.max(0.0);
        }
    }
}

/// `out += a · b` for row-major `a` (m x k), `b` (k x n) and `out` (m x n).
///
/// The one unsafe call of the crate: the `gemm` crate multiplies 1.3-1.6x as fast as
/// `matrixmultiply` (and the safe `ndarray` over it) on the network's shapes on this
/// project's machine (BENCHMARKS.md), and takes raw pointers. The asserts below are what
/// makes the call sound: every index it touches lies inside the three slices.
#[allow(unsafe_code)]
fn matmul_add(
    out: &mut [f32],
    a: &[f32],
    b: &[f32],
    (m, k, n): (usize, usize, usize),
    threads: usize,
) {
    assert!(a.len() >= m * k && b.len() >= k * n && out.len() >= m * n);
    let parallelism = if threads > 1 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: the slices hold m·k, k·n and m·n elements (asserted), laid out row-major
    // with the strides given; `out` is borrowed mutably, so it aliases neither input.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            n as isize,
            true,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            1.0,
            1.0,
            false,
            false,
            false,
            parallelism,
        );
    }
}

/// The point each tap of a 3x3 kernel reads, for every point of an n x n board.
fn taps(size: usize) -> Vec<u16> {
    let mut taps = Vec::with_capacity(size * size * 9);
    for row in 0..size as i32 {
        for col in 0..size as i32 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (r, c) = (row + dy, col + dx);
                    let inside = (0..size as i32).contains(&r) && (0..size as i32).contains(&c);
                    taps.push(if inside {
                        (r * size as i32 + c) as u16
                    } else {
                        OFF
                    });
                }
            }
        }
    }
    taps
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

    fn conv(&mut self, name: &str, inputs: usize, outputs: usize) -> Result<Conv, NetworkError> {
        Ok(Conv {
            inputs,
            outputs,
            weight: self.tensor(&format!("{name}.weight"), &[3, 3, inputs, outputs])?,
            bias: self.tensor(&format!("{name}.bias"), &[outputs])?,
        })
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
    use super::*;

    const TINY: &[u8] = include_bytes!("../../tests/data/tiny-net.safetensors");
    const EXPECTED: &[u8] = include_bytes!("../../tests/data/tiny-net-expected.safetensors");

    /// The trainer's inputs and outputs (training/make_test_data.py).
    fn expected() -> (Vec<InputPlanes>, Vec<f32>, Vec<f32>) {
        let file = SafeTensors::deserialize(EXPECTED).expect("test data");
        let bits = file.tensor("planes").expect("planes");
        let [count, planes, points] = bits.shape() else {
            panic!("planes of shape {:?}", bits.shape());
        };
        assert_eq!(*planes, PLANES);
        let data = bits.data();
        let positions = (0..*count)
            .map(|k| {
                InputPlanes::from_fn(*points, |plane, point| {
                    data[(k * planes + plane) * points + point] == 1
                })
            })
            .collect();
        let floats = |name: &str| -> Vec<f32> {
            file.tensor(name)
                .expect("tensor")
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        (positions, floats("logits"), floats("probabilities"))
    }

    fn assert_close(ours: &[f32], theirs: &[f32], what: &str) {
        assert_eq!(ours.len(), theirs.len());
        let worst = ours
            .iter()
            .zip(theirs)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-4, "{what}: off by {worst}");
    }

    #[test]
    fn the_forward_pass_equals_the_trainers_within_1e_4() {
        let net = Network::from_bytes(TINY).expect("the tiny network");
        assert_eq!((net.blocks(), net.filters(), net.board_size()), (2, 8, 19));
        let (positions, logits, probabilities) = expected();
        // One at a time, and all in one batch on two threads.
        let mut one = net.scratch(1);
        for (k, planes) in positions.iter().enumerate() {
            let range = k * 361..(k + 1) * 361;
            assert_close(
                net.logits(std::slice::from_ref(planes), &mut one),
                &logits[range.clone()],
                "logits",
            );
            assert_close(
                net.policy(std::slice::from_ref(planes), &mut one),
                &probabilities[range],
                "policy",
            );
        }
        let mut all = net.scratch(positions.len());
        all.set_threads(2);
        assert_close(net.logits(&positions, &mut all), &logits, "batch logits");
        let policy = net.policy(&positions, &mut all);
        assert_close(policy, &probabilities, "batch policy");
        for (k, planes) in positions.iter().enumerate() {
            let row = &policy[k * 361..(k + 1) * 361];
            assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            assert!((0..361).all(|p| planes.get(LEGAL, p) || row[p] == 0.0));
        }
    }

    /// The tiny network's file with its header's JSON edited (same length).
    fn with_header(edit: impl Fn(&str) -> String) -> Vec<u8> {
        let n = u64::from_le_bytes(TINY[..8].try_into().expect("8 bytes")) as usize;
        let header = std::str::from_utf8(&TINY[8..8 + n]).expect("JSON");
        let edited = edit(header);
        assert_eq!(edited.len(), n);
        let mut bytes = TINY[..8].to_vec();
        bytes.extend(edited.as_bytes());
        bytes.extend(&TINY[8 + n..]);
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
