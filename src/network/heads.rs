//! The heads a version-3 network adds on the trunk (`training/net.py` documents them):
//! the value, the expected result for the side to move, and the final ownership, who is
//! expected to own each point at the end. Both read the trunk's output where the policy
//! head does, so they cost little beside it: the value about 2F·H multiply-adds and a
//! pass over the trunk's output, the ownership one 1x1 convolution like the policy's.

/// The widest hidden layer a value head may have: its activations live on the stack.
pub const MOST_HIDDEN: usize = 256;
/// Twice the most filters a trunk has (`FILTERS`, in increasing order): the pooled
/// features live on the stack.
const MOST_POOLED: usize = 2 * super::FILTERS[super::FILTERS.len() - 1];
const _: () = {
    let mut i = 1;
    while i < super::FILTERS.len() {
        assert!(
            super::FILTERS[i - 1] < super::FILTERS[i],
            "FILTERS in increasing order"
        );
        i += 1;
    }
};

/// Global pooling (each filter's mean and maximum over the board), standardised by the
/// fixed mean and scale the head was made with, a dense layer with ReLU and one output
/// through tanh.
pub(super) struct ValueHead {
    pub(super) input_mean: Vec<f32>,
    pub(super) input_scale: Vec<f32>,
    /// `[2F][hidden]`, row-major.
    pub(super) fc1_weight: Vec<f32>,
    pub(super) fc1_bias: Vec<f32>,
    pub(super) fc2_weight: Vec<f32>,
    pub(super) fc2_bias: f32,
}

impl ValueHead {
    /// The value of one position from its trunk output (`points` rows of `filters`).
    pub(super) fn evaluate(&self, trunk: &[f32], filters: usize) -> f32 {
        let points = trunk.len() / filters;
        let mut pooled = [0.0f32; MOST_POOLED];
        let (mean, most) = pooled[..2 * filters].split_at_mut(filters);
        most.fill(f32::NEG_INFINITY);
        for row in trunk.chunks_exact(filters) {
            for ((m, x), &h) in mean.iter_mut().zip(most.iter_mut()).zip(row) {
                *m += h;
                *x = x.max(h);
            }
        }
        mean.iter_mut().for_each(|m| *m /= points as f32);
        let features = &mut pooled[..2 * filters];
        for ((f, m), s) in features
            .iter_mut()
            .zip(&self.input_mean)
            .zip(&self.input_scale)
        {
            *f = (*f - m) / s;
        }
        let width = self.fc1_bias.len();
        let mut hidden = [0.0f32; MOST_HIDDEN];
        let hidden = &mut hidden[..width];
        hidden.copy_from_slice(&self.fc1_bias);
        for (f, weights) in features.iter().zip(self.fc1_weight.chunks_exact(width)) {
            for (h, w) in hidden.iter_mut().zip(weights) {
                *h += f * w;
            }
        }
        let out = hidden
            .iter()
            .zip(&self.fc2_weight)
            .map(|(h, w)| h.max(0.0) * w)
            .sum::<f32>()
            + self.fc2_bias;
        // A NaN from weights that overflow reads as even, not as a result.
        if out.is_nan() { 0.0 } else { out.tanh() }
    }
}

/// A 1x1 convolution to one plane through tanh: +1 the side to move's point at the end,
/// -1 the opponent's.
pub(super) struct OwnershipHead {
    pub(super) weight: Vec<f32>,
    pub(super) bias: f32,
}

impl OwnershipHead {
    /// Each point's expected owner, for the points of `output` (row after row of `trunk`).
    pub(super) fn evaluate(&self, trunk: &[f32], output: &mut [f32]) {
        let filters = self.weight.len();
        for (out, row) in output.iter_mut().zip(trunk.chunks_exact(filters)) {
            let sum = row
                .iter()
                .zip(&self.weight)
                .map(|(a, b)| a * b)
                .sum::<f32>()
                + self.bias;
            *out = if sum.is_nan() { 0.0 } else { sum.tanh() };
        }
    }
}
