//! Zobrist keys: stable 64-bit values from a fixed seed, made at compile time, so that
//! tests can pin hashes and every thread shares one read-only table.

use super::color::Color;
use super::point::{CELLS, Point};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; CELLS]; 2], [u64; 2]) {
    let mut stones = [[0; CELLS]; 2];
    let mut state = 0x7965_6F75_6C5A_6F62; // "yeoulZob"
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, key) = splitmix64(state);
            state = s;
            stones[color][i] = key;
            i += 1;
        }
        color += 1;
    }
    let (s, black) = splitmix64(state);
    let (_, white) = splitmix64(s);
    (stones, [black, white])
}

const KEYS: ([[u64; CELLS]; 2], [u64; 2]) = make_keys();

/// The key of a stone of `color` on `p`.
#[inline]
pub fn stone_key(color: Color, p: Point) -> u64 {
    KEYS.0[color.index()][p.index()]
}

/// The key XORed into a positional hash to make a situational one: whose turn it is.
#[inline]
pub fn to_move_key(color: Color) -> u64 {
    KEYS.1[color.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.0.iter().flatten().copied().collect();
        all.extend(KEYS.1);
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * CELLS + 2);
    }
}
