//! The forward pass. A 3x3 convolution is Winograd's F(2x2, 3x3) (Lavin and Gray 2015):
//! the board cut into 2x2 output tiles, each tile's 4x4 input window transformed by
//! additions, 16 matrix products (one per element of the transformed window: where the
//! CPU has AVX-512, plain loops compiled for it, a block of tiles at a time; elsewhere
//! the `gemm` crate, over every tile of the batch at once) against weights transformed at
//! load, and the results transformed back by additions into the output, where bias,
//! residual and ReLU are added in the same pass: 2.25 times fewer multiplications than a
//! direct convolution. Nothing is allocated per evaluation: every buffer lives in a
//! [`Scratch`] sized once for the largest batch.

// The transforms' loops index several arrays by the same counters, as the formulas do.
#![allow(clippy::needless_range_loop)]

use super::Network;
use super::planes::{InputPlanes, LEGAL, PLANES};

/// One 3x3 convolution: weights as the trainer wrote them (HWIO: index `(tap · inputs +
/// input) · outputs + output`), the same transformed for Winograd (`U = G g Gᵀ`, 16
/// matrices of inputs x outputs), and a bias per output.
pub(super) struct Conv {
    inputs: usize,
    outputs: usize,
    /// Read only by the tests' direct convolution, the slow reference.
    #[cfg_attr(not(test), allow(dead_code))]
    weight: Vec<f32>,
    transformed: Vec<f32>,
    bias: Vec<f32>,
}

impl Conv {
    pub(super) fn new(inputs: usize, outputs: usize, weight: Vec<f32>, bias: Vec<f32>) -> Conv {
        const G: [[f32; 3]; 4] = [
            [1.0, 0.0, 0.0],
            [0.5, 0.5, 0.5],
            [0.5, -0.5, 0.5],
            [0.0, 0.0, 1.0],
        ];
        let mut transformed = vec![0.0; 16 * inputs * outputs];
        for i in 0..inputs {
            for o in 0..outputs {
                let g = |ky: usize, kx: usize| weight[((ky * 3 + kx) * inputs + i) * outputs + o];
                for (r, gr) in G.iter().enumerate() {
                    for (c, gc) in G.iter().enumerate() {
                        let mut u = 0.0;
                        for ky in 0..3 {
                            for kx in 0..3 {
                                u += gr[ky] * g(ky, kx) * gc[kx];
                            }
                        }
                        transformed[((r * 4 + c) * inputs + i) * outputs + o] = u;
                    }
                }
            }
        }
        Conv {
            inputs,
            outputs,
            weight,
            transformed,
            bias,
        }
    }
}

#[derive(Clone)]
/// The 2x2 output tiles of the board: for each, the 16 points of its 4x4 input window
/// and its 4 output points, row by row (`OFF` beyond the edge).
pub(super) struct Tiles {
    count: usize,
    window: Vec<u16>,
    outputs: Vec<u16>,
}

impl Tiles {
    pub(super) fn new(size: usize) -> Tiles {
        let side = size.div_ceil(2);
        let point = |row: i32, col: i32| {
            let inside = (0..size as i32).contains(&row) && (0..size as i32).contains(&col);
            if inside {
                (row * size as i32 + col) as u16
            } else {
                OFF
            }
        };
        let (mut window, mut outputs) = (Vec::new(), Vec::new());
        for tr in 0..side as i32 {
            for tc in 0..side as i32 {
                for y in 0..4 {
                    for x in 0..4 {
                        window.push(point(2 * tr - 1 + y, 2 * tc - 1 + x));
                    }
                }
                for y in 0..2 {
                    for x in 0..2 {
                        outputs.push(point(2 * tr + y, 2 * tc + x));
                    }
                }
            }
        }
        Tiles {
            count: side * side,
            window,
            outputs,
        }
    }
}

const OFF: u16 = u16::MAX;

/// Buffers for evaluating up to `batch` positions at once (one per evaluating thread).
pub struct Scratch {
    batch: usize,
    threads: usize,
    input: Vec<f32>,
    /// The transformed input windows, 16 vectors of inputs a tile, tile after tile.
    windows: Vec<f32>,
    /// The 16 products a tile, vectors of outputs, tile after tile.
    products: Vec<f32>,
    current: Vec<f32>,
    middle: Vec<f32>,
    next: Vec<f32>,
    output: Vec<f32>,
    /// The value heads' outputs, one a position (empty without a value head).
    values: Vec<f32>,
    /// The ownership heads' outputs, a row a point (empty without an ownership head).
    ownership: Vec<f32>,
    /// How the convolutions multiply (tests choose both on a CPU that has AVX-512).
    kernel: Kernel,
}

/// What one evaluation gives for each of its positions.
pub struct Evaluation<'s> {
    /// The move probabilities, laid out as [`Network::policy`] gives them.
    pub policy: &'s [f32],
    /// The expected result for the side to move, -1 (a loss) to +1 (a win), one a
    /// position; empty where the network has no value head.
    pub value: &'s [f32],
    /// Each point's expected final owner, +1 the side to move's and -1 the opponent's,
    /// laid out as the policy; empty where the network has no ownership head.
    pub ownership: &'s [f32],
}

impl Scratch {
    /// Threads an evaluation may use: a batch's positions are shared out among them, a
    /// single position's board in bands of tile rows (1: the caller's thread alone).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn batch(&self) -> usize {
        self.batch
    }
}

impl Network {
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

    /// Bytes of the buffers of [`Network::scratch`] for `batch` positions.
    pub fn scratch_bytes(&self, batch: usize) -> usize {
        let batch = batch.max(1);
        let rows = batch * self.size * self.size;
        let tiles = batch * self.tiles.count;
        let floats = rows * PLANES
            + 16 * tiles * (PLANES.max(self.filters) + self.filters)
            + 3 * rows * self.filters
            + rows
            + if self.has_value() { batch } else { 0 }
            + if self.has_ownership() { rows } else { 0 };
        floats * std::mem::size_of::<f32>()
    }

    /// Buffers to evaluate up to `batch` positions at once.
    pub fn scratch(&self, batch: usize) -> Scratch {
        let batch = batch.max(1);
        let rows = batch * self.size * self.size;
        let widest = PLANES.max(self.filters);
        let tiles = batch * self.tiles.count;
        Scratch {
            batch,
            threads: 1,
            input: vec![0.0; rows * PLANES],
            windows: vec![0.0; 16 * tiles * widest],
            products: vec![0.0; 16 * tiles * self.filters],
            current: vec![0.0; rows * self.filters],
            middle: vec![0.0; rows * self.filters],
            next: vec![0.0; rows * self.filters],
            output: vec![0.0; rows],
            values: vec![0.0; if self.has_value() { batch } else { 0 }],
            ownership: vec![0.0; if self.has_ownership() { rows } else { 0 }],
            kernel: Kernel::detect(),
        }
    }

    /// The move probabilities of each position: a softmax over its legal points (the
    /// legal plane), 0 elsewhere; position k's are `[k * n² .. (k + 1) * n²]`, row-major
    /// from the bottom left like the planes. At most `scratch.batch()` positions, each
    /// made for this network's board size.
    pub fn policy<'s>(&self, positions: &[InputPlanes], scratch: &'s mut Scratch) -> &'s [f32] {
        self.evaluate(positions, scratch).policy
    }

    /// The move probabilities of each position (as [`Network::policy`]) and, where the
    /// network has those heads, its value and the points' final owners, all from one pass.
    pub fn evaluate<'s>(
        &self,
        positions: &[InputPlanes],
        scratch: &'s mut Scratch,
    ) -> Evaluation<'s> {
        let points = self.size * self.size;
        let n = self.logits(positions, scratch).len() / points;
        // Huge weights (finite, from a file) can overflow the sums: a NaN score counts as
        // the lowest and an infinite one as the largest finite, so that the priors stay a
        // distribution whatever the file holds.
        let finite = |v: f32| {
            if v.is_nan() {
                f32::MIN
            } else {
                v.clamp(f32::MIN, f32::MAX)
            }
        };
        for (k, planes) in positions.iter().take(n).enumerate() {
            let row = &mut scratch.output[k * points..(k + 1) * points];
            let most = (0..points)
                .filter(|&p| planes.get(LEGAL, p))
                .map(|p| finite(row[p]))
                .fold(f32::NEG_INFINITY, f32::max);
            let mut total = 0.0;
            for (p, v) in row.iter_mut().enumerate() {
                *v = if planes.get(LEGAL, p) {
                    (finite(*v) - most).exp()
                } else {
                    0.0
                };
                total += *v;
            }
            if total > 0.0 {
                row.iter_mut().for_each(|v| *v /= total);
            }
        }
        Evaluation {
            policy: &scratch.output[..n * points],
            value: &scratch.values[..n.min(scratch.values.len())],
            ownership: &scratch.ownership[..(n * points).min(scratch.ownership.len())],
        }
    }

    /// The raw scores (before the softmax) of each position, laid out as [`Network::policy`].
    pub fn logits<'s>(&self, positions: &[InputPlanes], scratch: &'s mut Scratch) -> &'s [f32] {
        let points = self.size * self.size;
        let batch = positions.len().min(scratch.batch);
        let rows = batch * points;
        if batch == 0 {
            return &[];
        }
        for (k, planes) in positions.iter().take(batch).enumerate() {
            assert_eq!(planes.points(), points, "planes of another board size");
            planes.write_input(&mut scratch.input[k * points * PLANES..(k + 1) * points * PLANES]);
        }
        let whole = Buffers {
            input: &scratch.input,
            windows: &mut scratch.windows,
            products: &mut scratch.products,
            current: &mut scratch.current,
            middle: &mut scratch.middle,
            next: &mut scratch.next,
            output: &mut scratch.output,
            values: &mut scratch.values,
            ownership: &mut scratch.ownership,
        };
        let kernel = scratch.kernel;
        let parts = scratch.threads.min(batch);
        if parts <= 1 {
            self.forward(batch, scratch.threads, kernel, whole);
        } else {
            // Several positions: each thread takes its share of them and of the buffers.
            let share = batch.div_ceil(parts);
            rayon::scope(|scope| {
                let mut rest = whole;
                let mut left = batch;
                while left > 0 {
                    let count = share.min(left);
                    let (part, tail) = rest.split(count, self);
                    scope.spawn(move |_| self.forward(count, 1, kernel, part));
                    rest = tail;
                    left -= count;
                }
            });
        }
        &scratch.output[..rows]
    }

    /// The logits of `count` positions whose input is in `buffers`, and their values and
    /// owners where the network has those heads.
    fn forward(&self, count: usize, threads: usize, kernel: Kernel, buffers: Buffers<'_>) {
        let points = self.size * self.size;
        let rows = count * points;
        let Buffers {
            input,
            windows,
            products,
            current,
            middle,
            next,
            output,
            values,
            ownership,
        } = buffers;
        let (mut current, mut next) = (current, next);
        let mut work = Work {
            batch: count,
            threads,
            windows,
            products,
            kernel,
        };
        self.convolve(
            &self.input,
            &input[..rows * PLANES],
            &mut work,
            current,
            None,
        );
        for [first, second] in self.blocks.iter() {
            self.convolve(first, current, &mut work, middle, None);
            self.convolve(second, middle, &mut work, next, Some(current));
            std::mem::swap(&mut current, &mut next);
        }
        self.policy_head(current, &mut output[..rows]);
        let trunk_of =
            |k: usize| &current[k * points * self.filters..(k + 1) * points * self.filters];
        if let Some(head) = &self.value {
            for (k, value) in values[..count].iter_mut().enumerate() {
                *value = head.evaluate(trunk_of(k), self.filters);
            }
        }
        if let Some(head) = &self.ownership {
            head.evaluate(&current[..rows * self.filters], &mut ownership[..rows]);
        }
    }

    /// The head: each point's score from the trunk's output at that point (a 1x1
    /// convolution) and its bias, for the positions of `output` (row after row).
    fn policy_head(&self, trunk: &[f32], output: &mut [f32]) {
        let (f, points) = (self.filters, self.size * self.size);
        for (r, out) in output.iter_mut().enumerate() {
            let h = &trunk[r * f..(r + 1) * f];
            *out = h
                .iter()
                .zip(self.policy_weight.iter())
                .map(|(a, b)| a * b)
                .sum::<f32>()
                + self.policy_bias[r % points];
        }
    }

    /// `out = relu(conv(src) + bias [+ residual])` for the batch's positions, by
    /// Winograd's F(2x2, 3x3), with the channel counts known at compile time (`CIN`,
    /// `COUT`: every loop over channels unrolls and vectorises, with no bounds check).
    fn convolve(
        &self,
        conv: &Conv,
        src: &[f32],
        work: &mut Work<'_>,
        out: &mut [f32],
        residual: Option<&[f32]>,
    ) {
        macro_rules! dispatch {
            ($($c:literal)*) => {
                match (conv.inputs, conv.outputs) {
                    $( (PLANES, $c) => self.convolve_fixed::<PLANES, $c>(conv, src, work, out, residual), )*
                    $( ($c, $c) => self.convolve_fixed::<$c, $c>(conv, src, work, out, residual), )*
                    _ => unreachable!("filter counts are checked at load"),
                }
            };
        }
        dispatch!(8 16 32 48 64 96 128 192 256)
    }

    fn convolve_fixed<const CIN: usize, const COUT: usize>(
        &self,
        conv: &Conv,
        src: &[f32],
        work: &mut Work<'_>,
        out: &mut [f32],
        residual: Option<&[f32]>,
    ) {
        let all = work.batch * self.tiles.count;
        let side = self.size.div_ceil(2);
        let windows = &mut work.windows[..16 * all * CIN];
        let products = &mut work.products[..16 * all * COUT];
        let parts = work.threads.min(all / side).max(1);
        if parts == 1 {
            let rows = 0..all;
            let args = (conv, src, residual, rows, windows, products, out, 0);
            return self.convolve_rows::<CIN, COUT>(work.kernel, args);
        }
        // Whole rows of tiles to each thread: each writes its own band of the board.
        let band = (all / side).div_ceil(parts) * side;
        let kernel = work.kernel;
        rayon::scope(|scope| {
            let (mut windows, mut products, mut out) = (windows, products, out);
            let (mut first, mut first_point) = (0, 0);
            while first < all {
                let end = (first + band).min(all);
                let end_point = self.band_end(end - 1);
                let (w, w_rest) = windows.split_at_mut((end - first) * 16 * CIN);
                let (p, p_rest) = products.split_at_mut((end - first) * 16 * COUT);
                let (o, o_rest) = out.split_at_mut((end_point - first_point) * COUT);
                (windows, products, out) = (w_rest, p_rest, o_rest);
                let start = first_point;
                let args = (conv, src, residual, first..end, w, p, o, start);
                scope.spawn(move |_| self.convolve_rows::<CIN, COUT>(kernel, args));
                (first, first_point) = (end, end_point);
            }
        });
    }

    /// The end (exclusive) of the points whose outputs the rows of tiles up to `row`
    /// (counted over the whole batch) hold: the board row after its band of two.
    fn band_end(&self, row: usize) -> usize {
        let (n, side) = (self.size, self.size.div_ceil(2));
        let (k, t) = (row / self.tiles.count, row % self.tiles.count);
        k * n * n + (2 * (t / side + 1)).min(n) * n
    }

    /// The convolution for the tiles `rows` of the batch (position `row / tiles` and
    /// tile `row % tiles`): their windows and products in `windows` and `products`, their
    /// outputs into `out`, which starts at point `out_start` of the batch.
    #[allow(unsafe_code)]
    fn convolve_rows<const CIN: usize, const COUT: usize>(
        &self,
        kernel: Kernel,
        args: RowsArgs<'_>,
    ) {
        match kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512F and FMA (asked again here, whoever made the
            // `Kernel`: a cached load), which is all the function's target features ask.
            Kernel::Avx512 if Kernel::detect() == Kernel::Avx512 => unsafe {
                self.convolve_rows_avx512::<CIN, COUT>(args)
            },
            _ => self.convolve_rows_with::<CIN, COUT, false>(args),
        }
    }

    /// [`Network::convolve_rows`] with the products by tiles, all of it compiled for
    /// AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,fma")]
    fn convolve_rows_avx512<const CIN: usize, const COUT: usize>(&self, args: RowsArgs<'_>) {
        self.convolve_rows_with::<CIN, COUT, true>(args)
    }

    /// [`Network::convolve_rows`], its products by the `gemm` crate over all the rows
    /// at once or, `BY_TILES`, by [`products_by_tiles`] a block of tiles at a time, whose
    /// windows and products stay in the cache from transform to product to output
    /// (inlined into its caller, which says what it is compiled for).
    #[inline(always)]
    fn convolve_rows_with<const CIN: usize, const COUT: usize, const BY_TILES: bool>(
        &self,
        args: RowsArgs<'_>,
    ) {
        if !BY_TILES {
            return self.convolve_tiles::<CIN, COUT, false>(args);
        }
        let (conv, src, residual, rows, windows, products, out, out_start) = args;
        for first in rows.clone().step_by(TILES_A_BLOCK) {
            let block = first..(first + TILES_A_BLOCK).min(rows.end);
            let (w, p, o) = (&mut *windows, &mut *products, &mut *out);
            self.convolve_tiles::<CIN, COUT, true>((
                conv, src, residual, block, w, p, o, out_start,
            ));
        }
    }

    /// [`Network::convolve_rows_with`] for the tiles `rows`, all at once.
    #[inline(always)]
    fn convolve_tiles<const CIN: usize, const COUT: usize, const BY_TILES: bool>(
        &self,
        (conv, src, residual, rows, windows, products, out, out_start): RowsArgs<'_>,
    ) {
        let points = self.size * self.size;
        let tiles = &self.tiles;
        let count = rows.len();
        let zeros = [0.0f32; CIN];
        let no_residual = [0.0f32; COUT];
        let (image, _) = src.as_chunks::<CIN>();
        // Input windows Bᵀ d B, one tile's 16 vectors after another.
        let (vectors, _) = windows.as_chunks_mut::<CIN>();
        for (i, row) in rows.clone().enumerate() {
            let (k, t) = (row / tiles.count, row % tiles.count);
            let d: [&[f32; CIN]; 16] = std::array::from_fn(|e| match tiles.window[t * 16 + e] {
                OFF => &zeros,
                q => &image[k * points + q as usize],
            });
            input_window(&d, &mut vectors[i * 16..(i + 1) * 16]);
        }
        // The 16 products, each over every tile of the rows (16 vectors apart).
        if BY_TILES {
            products_by_tiles::<CIN, COUT>(windows, products, &conv.transformed, count);
        } else {
            for e in 0..16 {
                matmul(
                    (&mut products[e * COUT..], 16 * COUT),
                    (&windows[e * CIN..], 16 * CIN),
                    &conv.transformed[e * CIN * COUT..(e + 1) * CIN * COUT],
                    (count, CIN, COUT),
                );
            }
        }
        // Outputs Aᵀ m A, plus bias and residual, through ReLU.
        let (products, _) = products.as_chunks::<COUT>();
        let bias: &[f32; COUT] = conv.bias[..COUT].try_into().expect("COUT biases");
        let (out, _) = out.as_chunks_mut::<COUT>();
        let residual = residual.map(|r| r.as_chunks::<COUT>().0);
        for (i, row) in rows.enumerate() {
            let (k, t) = (row / tiles.count, row % tiles.count);
            let y = output_tile(&products[i * 16..(i + 1) * 16]);
            for (j, y) in y.iter().enumerate() {
                let p = tiles.outputs[t * 4 + j];
                if p == OFF {
                    continue;
                }
                let at = k * points + p as usize;
                let skip = residual.map_or(&no_residual, |r| &r[at]);
                let target = &mut out[at - out_start];
                for c in 0..COUT {
                    target[c] = (y[c] + bias[c] + skip[c]).max(0.0);
                }
            }
        }
    }
}

/// What [`Network::convolve_rows`] works on: the convolution, its source and residual,
/// the rows of tiles (counted over the batch), the windows and products buffers, the
/// output and the point of the batch where it starts.
type RowsArgs<'a> = (
    &'a Conv,
    &'a [f32],
    Option<&'a [f32]>,
    std::ops::Range<usize>,
    &'a mut [f32],
    &'a mut [f32],
    &'a mut [f32],
    usize,
);

/// Tiles a block of [`Network::convolve_rows_with`] takes from transform to output, by
/// [`products_by_tiles`]: their windows and products (16 KB each at 32 channels) stay in
/// the first level of cache.
const TILES_A_BLOCK: usize = 8;

/// Tiles a block of [`products_by_tiles`] multiplies at once: their accumulators and a
/// row of the weights fit the registers (4 x 2 of AVX-512's 32 at 32 outputs).
const TILES_AT_ONCE: usize = 4;

/// The 16 products of `count` tiles: `products[16·i + e] = windows[16·i + e] · U_e`, for
/// each tile `i` and window element `e`, `U_e` the `CIN` x `COUT` matrix `e` of
/// `transformed`. Four tiles at a time, the outputs in chunks of 32 (or 16, or 8):
/// plain loops over arrays of known length, which the compiler vectorises for what its
/// caller is compiled for (no packing, no dispatch: the `gemm` crate's overhead on the
/// network's small products).
#[inline(always)]
fn products_by_tiles<const CIN: usize, const COUT: usize>(
    windows: &[f32],
    products: &mut [f32],
    transformed: &[f32],
    count: usize,
) {
    let (windows, _) = windows.as_chunks::<CIN>();
    let (products, _) = products.as_chunks_mut::<COUT>();
    let whole = count - count % TILES_AT_ONCE;
    for e in 0..16 {
        let (u, _) = transformed[e * CIN * COUT..(e + 1) * CIN * COUT].as_chunks::<COUT>();
        for first in (0..whole).step_by(TILES_AT_ONCE) {
            tiles_product::<CIN, COUT, TILES_AT_ONCE>(windows, products, u, first, e);
        }
        for first in whole..count {
            tiles_product::<CIN, COUT, 1>(windows, products, u, first, e);
        }
    }
}

/// Element `e`'s products of the `N` tiles from `first` (see [`products_by_tiles`]).
#[inline(always)]
fn tiles_product<const CIN: usize, const COUT: usize, const N: usize>(
    windows: &[[f32; CIN]],
    products: &mut [[f32; COUT]],
    u: &[[f32; COUT]],
    first: usize,
    e: usize,
) {
    let chunk = [32, 16, 8]
        .into_iter()
        .find(|&w| COUT.is_multiple_of(w))
        .unwrap_or(1);
    let a: [&[f32; CIN]; N] = std::array::from_fn(|t| &windows[16 * (first + t) + e]);
    for start in (0..COUT).step_by(chunk) {
        let mut sums = [[0.0f32; 32]; N];
        for k in 0..CIN {
            let row = &u[k][start..start + chunk];
            for t in 0..N {
                let x = a[t][k];
                for (sum, w) in sums[t][..chunk].iter_mut().zip(row) {
                    *sum = x.mul_add(*w, *sum);
                }
            }
        }
        for t in 0..N {
            let out = &mut products[16 * (first + t) + e][start..start + chunk];
            out.copy_from_slice(&sums[t][..chunk]);
        }
    }
}

/// One tile's input window `d` (4x4 vectors, row by row) as Bᵀ d B.
#[inline(always)]
fn input_window<const C: usize>(d: &[&[f32; C]; 16], out: &mut [[f32; C]]) {
    let mut rows = [[0.0f32; C]; 16];
    for x in 0..4 {
        for c in 0..C {
            rows[x][c] = d[x][c] - d[8 + x][c];
            rows[4 + x][c] = d[4 + x][c] + d[8 + x][c];
            rows[8 + x][c] = d[8 + x][c] - d[4 + x][c];
            rows[12 + x][c] = d[4 + x][c] - d[12 + x][c];
        }
    }
    let out: &mut [[f32; C]; 16] = out.try_into().expect("16 vectors");
    for r in 0..4 {
        let v = &rows[4 * r..4 * r + 4];
        for c in 0..C {
            out[4 * r][c] = v[0][c] - v[2][c];
            out[4 * r + 1][c] = v[1][c] + v[2][c];
            out[4 * r + 2][c] = v[2][c] - v[1][c];
            out[4 * r + 3][c] = v[1][c] - v[3][c];
        }
    }
}

/// One tile's 16 products `m` as Aᵀ m A: its 2x2 outputs, row by row.
#[inline(always)]
fn output_tile<const C: usize>(m: &[[f32; C]]) -> [[f32; C]; 4] {
    let m: &[[f32; C]; 16] = m.try_into().expect("16 vectors");
    let mut half = [[0.0f32; C]; 8];
    for s in 0..4 {
        for c in 0..C {
            half[s][c] = m[s][c] + m[4 + s][c] + m[8 + s][c];
            half[4 + s][c] = m[4 + s][c] - m[8 + s][c] - m[12 + s][c];
        }
    }
    let mut y = [[0.0f32; C]; 4];
    for a in 0..2 {
        let u = &half[4 * a..4 * a + 4];
        for c in 0..C {
            y[2 * a][c] = u[0][c] + u[1][c] + u[2][c];
            y[2 * a + 1][c] = u[1][c] - u[2][c] - u[3][c];
        }
    }
    y
}

/// A [`Scratch`]'s buffers for some of its positions (all of them, or a thread's share).
struct Buffers<'a> {
    input: &'a [f32],
    windows: &'a mut [f32],
    products: &'a mut [f32],
    current: &'a mut [f32],
    middle: &'a mut [f32],
    next: &'a mut [f32],
    output: &'a mut [f32],
    values: &'a mut [f32],
    ownership: &'a mut [f32],
}

impl<'a> Buffers<'a> {
    /// The buffers of the first `count` positions, and the rest.
    fn split(self, count: usize, net: &Network) -> (Buffers<'a>, Buffers<'a>) {
        let points = net.size * net.size;
        let tiles = count * net.tiles.count;
        let widest = PLANES.max(net.filters);
        let (input, input_rest) = self.input.split_at(count * points * PLANES);
        let (windows, windows_rest) = self.windows.split_at_mut(16 * tiles * widest);
        let (products, products_rest) = self.products.split_at_mut(16 * tiles * net.filters);
        let (current, current_rest) = self.current.split_at_mut(count * points * net.filters);
        let (middle, middle_rest) = self.middle.split_at_mut(count * points * net.filters);
        let (next, next_rest) = self.next.split_at_mut(count * points * net.filters);
        let (output, output_rest) = self.output.split_at_mut(count * points);
        // Empty without the head.
        let (values, values_rest) = self.values.split_at_mut(count.min(self.values.len()));
        let ownership_rows = (count * points).min(self.ownership.len());
        let (ownership, ownership_rest) = self.ownership.split_at_mut(ownership_rows);
        (
            Buffers {
                input,
                windows,
                products,
                current,
                middle,
                next,
                output,
                values,
                ownership,
            },
            Buffers {
                input: input_rest,
                windows: windows_rest,
                products: products_rest,
                current: current_rest,
                middle: middle_rest,
                next: next_rest,
                output: output_rest,
                values: values_rest,
                ownership: ownership_rest,
            },
        )
    }
}

/// The buffers and settings one evaluation's convolutions share.
struct Work<'a> {
    batch: usize,
    threads: usize,
    windows: &'a mut [f32],
    products: &'a mut [f32],
    kernel: Kernel,
}

/// How a convolution's 16 products are multiplied: by the `gemm` crate (AVX2 and FMA
/// where the CPU has them, and every CPU), or, where the CPU has AVX-512, by
/// [`products_by_tiles`] compiled for it, the transforms with it: the `gemm` crate uses
/// AVX-512 only on a nightly compiler, and ONNX Runtime does use it (BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kernel {
    Gemm,
    Avx512,
}

impl Kernel {
    /// The fastest this CPU runs (asked once and cached by the standard library).
    fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("fma")
        {
            return Kernel::Avx512;
        }
        Kernel::Gemm
    }
}

/// `out = a · b` for `a` (m x k, rows `a_stride` apart), `b` (k x n, row-major) and
/// `out` (m x n, rows `out_stride` apart).
///
/// One of the crate's two unsafe calls (the other runs the AVX-512 code where the CPU
/// has it, `Network::convolve_rows`): the `gemm` crate multiplies 1.3-1.6x as fast as
/// `matrixmultiply` (and the safe `ndarray` over it) on the network's shapes on this
/// project's machine (BENCHMARKS.md), and takes raw pointers. The asserts below are what
/// makes the call sound: every index it touches lies inside the three slices.
#[allow(unsafe_code)]
fn matmul(
    (out, out_stride): (&mut [f32], usize),
    (a, a_stride): (&[f32], usize),
    b: &[f32],
    (m, k, n): (usize, usize, usize),
) {
    let span = |rows: usize, stride: usize, width: usize| rows.saturating_sub(1) * stride + width;
    assert!(m > 0 && out_stride >= n && a_stride >= k);
    assert!(a.len() >= span(m, a_stride, k) && b.len() >= k * n);
    assert!(out.len() >= span(m, out_stride, n));
    // SAFETY: row i of `a` is a[i·a_stride..][..k] and of `out` out[i·out_stride..][..n],
    // inside the slices for every i < m (asserted), `b` holds k·n elements; `out` is
    // borrowed mutably, so it aliases neither input.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            out_stride as isize,
            false,
            a.as_ptr(),
            1,
            a_stride as isize,
            b.as_ptr(),
            1,
            n as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_files::{TINY, TINY_V2, TINY_V3};
    use super::*;
    use safetensors::SafeTensors;
    use std::sync::Arc;

    const EXPECTED: &[u8] = include_bytes!("../../tests/data/tiny-net-expected.safetensors");
    const EXPECTED_V2: &[u8] = include_bytes!("../../tests/data/tiny-net-v2-expected.safetensors");
    /// The version-3 network's logits, values and owners for `EXPECTED_V2`'s planes.
    const EXPECTED_V3: &[u8] = include_bytes!("../../tests/data/tiny-net-v3-expected.safetensors");

    /// The trainer's inputs and outputs (training/make_test_data.py) for the version-1
    /// network.
    fn expected() -> (Vec<InputPlanes>, Vec<f32>, Vec<f32>) {
        expected_in(EXPECTED, "")
    }

    /// The trainer's inputs and outputs in `data`, tensors named with `suffix`.
    fn expected_in(data: &[u8], suffix: &str) -> (Vec<InputPlanes>, Vec<f32>, Vec<f32>) {
        let file = SafeTensors::deserialize(data).expect("test data");
        let bits = file.tensor(&format!("planes{suffix}")).expect("planes");
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
        let logits = floats(&file, &format!("logits{suffix}"));
        let probabilities = floats(&file, &format!("probabilities{suffix}"));
        (positions, logits, probabilities)
    }

    /// A float tensor of the test data.
    fn floats(file: &SafeTensors<'_>, name: &str) -> Vec<f32> {
        file.tensor(name)
            .expect("tensor")
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }

    fn assert_close(ours: &[f32], theirs: &[f32], what: &str) {
        assert_eq!(ours.len(), theirs.len());
        assert!(
            ours.iter().all(|v| v.is_finite()),
            "{what}: a value not computed"
        );
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
        let mut one_on_two = net.scratch(1);
        one_on_two.set_threads(2);
        for (k, planes) in positions.iter().enumerate() {
            let range = k * 361..(k + 1) * 361;
            let on_two = net.logits(std::slice::from_ref(planes), &mut one_on_two);
            assert_close(
                on_two,
                &logits[range.clone()],
                "one position on two threads",
            );
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
        // Five positions shared out among three threads (two, two and one).
        let mut three = net.scratch(5);
        three.set_threads(3);
        assert_close(
            net.logits(&positions[..5], &mut three),
            &logits[..5 * 361],
            "three threads",
        );
        assert!(net.logits(&[], &mut three).is_empty());
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

    #[test]
    fn a_network_of_version_2_equals_the_trainers_within_1e_4_on_every_size() {
        let trained = Network::from_bytes(TINY_V2).expect("the tiny network of version 2");
        assert!(trained.plays_every_size());
        for size in [9, 13, 19] {
            let net = trained.for_size(size).expect("every size");
            assert_eq!(net.board_size(), size);
            let (positions, logits, probabilities) = expected_in(EXPECTED_V2, &format!("_{size}"));
            let points = size * size;
            let mut one = net.scratch(1);
            for (k, planes) in positions.iter().enumerate() {
                let range = k * points..(k + 1) * points;
                let what = format!("{size}x{size}, position {k}");
                let ours = net.logits(std::slice::from_ref(planes), &mut one);
                assert_close(ours, &logits[range.clone()], &what);
                let ours = net.policy(std::slice::from_ref(planes), &mut one);
                assert_close(ours, &probabilities[range], &what);
            }
            let mut all = net.scratch(positions.len());
            all.set_threads(2);
            let what = format!("{size}x{size}, a batch on two threads");
            assert_close(net.logits(&positions, &mut all), &logits, &what);
        }
    }

    #[test]
    fn the_value_and_ownership_heads_equal_the_trainers_on_both_kernels() {
        let trained = Network::from_bytes(TINY_V3).expect("the tiny network of version 3");
        assert!(trained.has_value() && trained.has_ownership() && trained.plays_every_size());
        let theirs = SafeTensors::deserialize(EXPECTED_V3).expect("test data");
        let kernels = [Kernel::Gemm, Kernel::detect()];
        for (size, kernel) in [9, 13, 19]
            .into_iter()
            .flat_map(|s| kernels.map(|k| (s, k)))
        {
            let net = trained.for_size(size).expect("every size");
            let (positions, _, _) = expected_in(EXPECTED_V2, &format!("_{size}"));
            let logits = floats(&theirs, &format!("logits_{size}"));
            let values = floats(&theirs, &format!("value_{size}"));
            let owners = floats(&theirs, &format!("ownership_{size}"));
            let points = size * size;
            let what = format!("{size}x{size} by {kernel:?}");
            // One at a time...
            let mut one = net.scratch(1);
            one.kernel = kernel;
            for (k, planes) in positions.iter().enumerate() {
                let ours = net.evaluate(std::slice::from_ref(planes), &mut one);
                assert_close(ours.value, &values[k..k + 1], &format!("{what}: value {k}"));
                let range = k * points..(k + 1) * points;
                assert_close(
                    ours.ownership,
                    &owners[range],
                    &format!("{what}: owners {k}"),
                );
            }
            // ...and all in one batch shared out among two threads.
            let mut all = net.scratch(positions.len());
            all.kernel = kernel;
            all.set_threads(2);
            assert_close(net.logits(&positions, &mut all), &logits, &what);
            let ours = net.evaluate(&positions, &mut all);
            assert_close(ours.value, &values, &format!("{what}: values"));
            assert_close(ours.ownership, &owners, &format!("{what}: owners"));
            let total: f32 = ours.policy.iter().sum();
            assert!(
                (total - positions.len() as f32).abs() < 1e-3,
                "{what}: {total}"
            );
        }
        // A network without the heads gives neither.
        let policy_only = Network::from_bytes(TINY_V2).expect("version 2");
        let (positions, _, _) = expected_in(EXPECTED_V2, "_19");
        let mut scratch = policy_only.scratch(2);
        let ours = policy_only.evaluate(&positions[..2], &mut scratch);
        assert!(ours.value.is_empty() && ours.ownership.is_empty());
        assert_eq!(ours.policy.len(), 2 * 361);
    }

    #[test]
    fn the_head_holds_no_absolute_position() {
        // Fed a trunk output that is the same at every point, a head gives the same score
        // to points the same distance from the edge: version 2 on every size...
        let equal_by_distance = |net: &Network| {
            let (size, points) = (net.size, net.size * net.size);
            let trunk: Vec<f32> = (0..points * net.filters)
                .map(|i| 0.5 + 0.1 * (i % net.filters) as f32)
                .collect();
            let mut scores = vec![f32::NAN; points];
            net.policy_head(&trunk, &mut scores);
            let mut by_distance = [None; super::super::EDGE_DISTANCES];
            (0..points).all(|p| {
                let seen =
                    by_distance[super::super::edge_distance(size, p)].get_or_insert(scores[p]);
                *seen == scores[p]
            })
        };
        let trained = Network::from_bytes(TINY_V2).expect("the tiny network of version 2");
        for size in [9, 13, 19] {
            let net = trained.for_size(size).expect("every size");
            assert!(equal_by_distance(&net), "{size}x{size}");
        }
        // ...and not version 1's bias per point.
        let per_point = Network::from_bytes(TINY).expect("the tiny network");
        assert!(!equal_by_distance(&per_point));
    }

    /// The obvious convolution, point by point and tap by tap.
    fn direct(net: &Network, conv: &Conv, src: &[f32], residual: Option<&[f32]>) -> Vec<f32> {
        let n = net.size as i32;
        let (cin, cout) = (conv.inputs, conv.outputs);
        let mut out = vec![0.0; (n * n) as usize * cout];
        for row in 0..n {
            for col in 0..n {
                let p = (row * n + col) as usize;
                for o in 0..cout {
                    let mut sum = conv.bias[o];
                    for ky in 0..3 {
                        for kx in 0..3 {
                            let (r, c) = (row + ky as i32 - 1, col + kx as i32 - 1);
                            if !(0..n).contains(&r) || !(0..n).contains(&c) {
                                continue;
                            }
                            let q = (r * n + c) as usize;
                            for i in 0..cin {
                                sum += src[q * cin + i]
                                    * conv.weight[((ky * 3 + kx) * cin + i) * cout + o];
                            }
                        }
                    }
                    out[p * cout + o] = (sum + residual.map_or(0.0, |r| r[p * cout + o])).max(0.0);
                }
            }
        }
        out
    }

    #[test]
    fn winograds_convolution_equals_the_direct_one() {
        let net = Network::from_bytes(TINY).expect("the tiny network");
        let mut state = 11u32;
        let mut random = move || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let input: Vec<f32> = (0..361 * PLANES).map(|_| random()).collect();
        let hidden: Vec<f32> = (0..361 * net.filters).map(|_| random()).collect();
        let mut scratch = net.scratch(1);
        let mut out = vec![0.0; 361 * net.filters];
        // On one thread, and on three: the board in bands of 4, 4 and 2 rows of tiles.
        // By the `gemm` crate and by what this CPU runs best (tiles where it has AVX-512).
        let cases = [
            (&*net.input, &input, None, 1),
            (&net.blocks[1][1], &hidden, Some(&hidden[..]), 1),
            (&*net.input, &input, None, 3),
            (&net.blocks[1][1], &hidden, Some(&hidden[..]), 3),
        ];
        let kernels = [Kernel::Gemm, Kernel::detect()];
        for (kernel, (conv, src, residual, threads)) in
            kernels.iter().flat_map(|&k| cases.map(|c| (k, c)))
        {
            out.fill(f32::NAN);
            let mut work = Work {
                batch: 1,
                threads,
                windows: &mut scratch.windows,
                products: &mut scratch.products,
                kernel,
            };
            net.convolve(conv, src, &mut work, &mut out, residual);
            assert_close(&out, &direct(&net, conv, src, residual), "a convolution");
        }
    }

    #[test]
    fn the_scratch_takes_the_bytes_it_is_said_to_take() {
        let nets = [TINY, TINY_V3].map(|file| Network::from_bytes(file).expect("tiny"));
        for (net, batch) in nets.iter().flat_map(|n| [1, 8].map(|b| (n, b))) {
            let s = net.scratch(batch);
            let floats = s.input.len()
                + s.windows.len()
                + s.products.len()
                + s.current.len()
                + s.middle.len()
                + s.next.len()
                + s.output.len()
                + s.values.len()
                + s.ownership.len();
            assert_eq!(net.scratch_bytes(batch), 4 * floats);
        }
    }

    // Found by the network-file fuzz target: finite but huge weights overflowed the
    // scores into NaN, and NaN priors.
    #[test]
    fn weights_that_overflow_still_give_a_distribution() {
        let mut net = Network::from_bytes(TINY).expect("the tiny network");
        let weights = Arc::get_mut(&mut net.policy_weight).expect("not shared");
        for (k, w) in weights.iter_mut().enumerate() {
            *w = if k % 2 == 0 { f32::MAX } else { -f32::MAX };
        }
        let (positions, _, _) = expected();
        let mut scratch = net.scratch(positions.len());
        let logits = net.logits(&positions, &mut scratch).to_vec();
        assert!(logits.iter().any(|v| !v.is_finite()), "the scores overflow");
        let points = net.size * net.size;
        let policy = net.policy(&positions, &mut scratch);
        for (planes, row) in positions.iter().zip(policy.chunks(points)) {
            assert!(row.iter().all(|v| v.is_finite() && *v >= 0.0));
            assert!((0..points).all(|p| planes.get(LEGAL, p) || row[p] == 0.0));
            let total: f32 = row.iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
        }
    }
}
