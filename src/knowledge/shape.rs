//! Shapes around a candidate move: nested "gridcular" patterns (Pachi's and Coulom's
//! shapes: the points within distance d = |dx| + |dy| + max(|dx|, |dy|) of the move, for
//! d = 3..=10, that is 8 to 72 points around it) and the 3x3 tactical shape (the eight
//! neighbours, with the liberties of the chains next to the move).
//!
//! Points are seen relative to the mover (own stone, opponent stone, empty, off the
//! board), so a shape and its colour-swapped twin with the other side to move are the same
//! shape. A shape's *id* is the least of the hashes of its eight rotations and
//! reflections; the runtime never computes it: it hashes the shape as it lies, and the
//! dictionary holds all eight orientations of every shape it knows.

use std::sync::OnceLock;

/// Nested shape sizes: diameters 3..=10.
pub const SIZES: usize = 8;
/// Offsets of the largest shape (the centre, always empty, is left out).
pub const POINTS: usize = 72;
/// Shape `k` covers the offsets `0..RING_END[k]`: 8, 12, 20, ... 72 points.
pub const RING_END: [usize; SIZES] = [8, 12, 20, 28, 36, 48, 60, 72];

/// Point states relative to the mover.
pub const EMPTY: u8 = 0;
pub const OWN: u8 = 1;
pub const OPPONENT: u8 = 2;
pub const OFF: u8 = 3;

/// Width of the padded state grid: the largest board with room for the largest shape
/// (|dx| <= 5) on every side.
pub const GRID_WIDTH: usize = 19 + 2 * MARGIN;
pub const MARGIN: usize = 5;
pub const GRID_CELLS: usize = GRID_WIDTH * GRID_WIDTH;

/// Offsets, orientations and hash keys, computed once.
pub struct Geometry {
    /// (dx, dy) of each offset, by distance, then row, then column.
    pub offsets: [(i8, i8); POINTS],
    /// The same offsets as steps in the padded grid.
    pub steps: [isize; POINTS],
    /// `perm[t][k]`: the offset that orientation `t` sends offset `k` to.
    pub perm: [[u8; POINTS]; 8],
    keys: [[u64; 4]; POINTS],
    salt: [u64; SIZES],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The gridcular distance.
pub fn distance(dx: i32, dy: i32) -> i32 {
    let (x, y) = (dx.abs(), dy.abs());
    x + y + x.max(y)
}

/// Orientation `t` (rotation by `t % 4` quarter turns, after a mirror when `t >= 4`).
pub fn orient(t: usize, dx: i32, dy: i32) -> (i32, i32) {
    let (mut x, mut y) = if t >= 4 { (-dx, dy) } else { (dx, dy) };
    for _ in 0..t % 4 {
        (x, y) = (-y, x);
    }
    (x, y)
}

impl Geometry {
    pub fn get() -> &'static Geometry {
        static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
        GEOMETRY.get_or_init(Geometry::build)
    }

    fn build() -> Geometry {
        let mut list: Vec<(i32, i32)> = Vec::new();
        for dy in -5..=5 {
            for dx in -5..=5 {
                let d = distance(dx, dy);
                if (1..=10).contains(&d) {
                    list.push((dx, dy));
                }
            }
        }
        list.sort_by_key(|&(dx, dy)| (distance(dx, dy), dy, dx));
        assert_eq!(list.len(), POINTS);
        let mut offsets = [(0i8, 0i8); POINTS];
        let mut steps = [0isize; POINTS];
        for (k, &(dx, dy)) in list.iter().enumerate() {
            offsets[k] = (dx as i8, dy as i8);
            steps[k] = dy as isize * GRID_WIDTH as isize + dx as isize;
        }
        let mut perm = [[0u8; POINTS]; 8];
        for (t, row) in perm.iter_mut().enumerate() {
            for (k, &(dx, dy)) in list.iter().enumerate() {
                let image = orient(t, dx, dy);
                row[k] = list.iter().position(|&o| o == image).expect("closed") as u8;
            }
        }
        let mut state = 0x7965_6F75_6C53_6861; // "yeoulSha"
        let mut keys = [[0u64; 4]; POINTS];
        for k in keys.iter_mut().flatten() {
            *k = splitmix64(&mut state);
        }
        let mut salt = [0u64; SIZES];
        for s in salt.iter_mut() {
            *s = splitmix64(&mut state);
        }
        Geometry {
            offsets,
            steps,
            perm,
            keys,
            salt,
        }
    }

    /// The key of state `s` at offset `k`.
    #[inline]
    pub fn key(&self, k: usize, s: u8) -> u64 {
        self.keys[k][s as usize]
    }

    /// What distinguishes shape size `size` from the others with the same points.
    #[inline]
    pub fn salt(&self, size: usize) -> u64 {
        self.salt[size]
    }

    /// The hash of a shape of size `size` as it lies (`states[k]` for offset `k`).
    pub fn hash(&self, size: usize, states: &[u8]) -> u64 {
        (0..RING_END[size]).fold(self.salt[size], |h, k| h ^ self.key(k, states[k]))
    }

    /// The hash of orientation `t` of a shape.
    pub fn hash_oriented(&self, t: usize, size: usize, states: &[u8]) -> u64 {
        (0..RING_END[size]).fold(self.salt[size], |h, k| {
            h ^ self.key(self.perm[t][k] as usize, states[k])
        })
    }

    /// The shape's id and the orientation of it that has that hash.
    pub fn canonical(&self, size: usize, states: &[u8]) -> (u64, [u8; POINTS]) {
        let (t, id) = (0..8)
            .map(|t| (t, self.hash_oriented(t, size, states)))
            .min_by_key(|&(t, h)| (h, t))
            .expect("eight orientations");
        (id, self.orient_states(t, size, states))
    }

    /// The id of every size of a shape at once, with the orientation that has it.
    pub fn canonical_ids(&self, states: &[u8]) -> [(u64, u8); SIZES] {
        let mut hashes = [0u64; 8];
        let mut out = [(0u64, 0u8); SIZES];
        let mut k = 0;
        for (size, &end) in RING_END.iter().enumerate() {
            while k < end {
                for (t, h) in hashes.iter_mut().enumerate() {
                    *h ^= self.key(self.perm[t][k] as usize, states[k]);
                }
                k += 1;
            }
            let (t, id) = (0..8)
                .map(|t| (t, hashes[t] ^ self.salt[size]))
                .min_by_key(|&(t, h)| (h, t))
                .expect("eight orientations");
            out[size] = (id, t as u8);
        }
        out
    }

    /// The states of orientation `t` of a shape.
    pub fn orient_states(&self, t: usize, size: usize, states: &[u8]) -> [u8; POINTS] {
        let mut out = [OFF; POINTS];
        for k in 0..RING_END[size] {
            out[self.perm[t][k] as usize] = states[k];
        }
        out
    }
}

/// Bytes a packed shape of size `size` takes (2 bits a point).
pub fn packed_len(size: usize) -> usize {
    (2 * RING_END[size]).div_ceil(8)
}

/// Packs the first `RING_END[size]` states, 2 bits each, low bits first.
pub fn pack(size: usize, states: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + packed_len(size), 0);
    for k in 0..RING_END[size] {
        out[start + k / 4] |= (states[k] & 3) << (2 * (k % 4));
    }
}

/// The states of a packed shape.
pub fn unpack(size: usize, bytes: &[u8]) -> [u8; POINTS] {
    let mut states = [OFF; POINTS];
    for (k, s) in states.iter_mut().enumerate().take(RING_END[size]) {
        *s = bytes[k / 4] >> (2 * (k % 4)) & 3;
    }
    states
}

/// The 3x3 tactical shape: the four neighbours (offsets 0..4) with the liberties of their
/// chains, 3 bits each (empty, off, own with 1, 2, 3+ liberties, opponent with 1, 2, 3+),
/// then the four diagonals (offsets 4..8), 2 bits each (as [`EMPTY`], [`OWN`], ...).
pub const TACTICAL_BITS: u32 = 20;

/// Neighbour codes of the tactical shape.
pub const NEIGHBOUR_EMPTY: u8 = 0;
pub const NEIGHBOUR_OFF: u8 = 1;
/// Own chain with 1, 2, 3+ liberties: 2, 3, 4; the opponent's: 5, 6, 7.
pub fn neighbour_code(own: bool, liberties: u8) -> u8 {
    (if own { 2 } else { 5 }) + liberties.clamp(1, 3) - 1
}

/// The code of a tactical shape from its eight parts.
pub fn tactical_code(parts: &[u8; 8]) -> u32 {
    let mut code = 0u32;
    for (k, &s) in parts.iter().enumerate() {
        code |= if k < 4 {
            (s as u32 & 7) << (3 * k)
        } else {
            (s as u32 & 3) << (12 + 2 * (k - 4))
        };
    }
    code
}

/// The eight parts of a tactical shape code.
pub fn tactical_parts(code: u32) -> [u8; 8] {
    let mut parts = [0u8; 8];
    for (k, s) in parts.iter_mut().enumerate() {
        *s = if k < 4 {
            (code >> (3 * k) & 7) as u8
        } else {
            (code >> (12 + 2 * (k - 4)) & 3) as u8
        };
    }
    parts
}

/// Orientation `t` of a tactical shape code.
pub fn orient_tactical(geometry: &Geometry, t: usize, code: u32) -> u32 {
    let parts = tactical_parts(code);
    let mut out = [0u8; 8];
    for k in 0..8 {
        out[geometry.perm[t][k] as usize] = parts[k];
    }
    tactical_code(&out)
}

/// The least code among the eight orientations.
pub fn canonical_tactical(geometry: &Geometry, code: u32) -> u32 {
    (0..8)
        .map(|t| orient_tactical(geometry, t, code))
        .min()
        .expect("eight orientations")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shapes_nest_like_pachis() {
        let g = Geometry::get();
        for (size, &end) in RING_END.iter().enumerate() {
            let d = size as i32 + 3;
            let inside = g.offsets[..end]
                .iter()
                .all(|&(x, y)| distance(x as i32, y as i32) <= d);
            let beyond = g.offsets[end..]
                .iter()
                .all(|&(x, y)| distance(x as i32, y as i32) > d);
            assert!(inside && beyond, "size {size}");
        }
        // The four neighbours come first, then the diagonals.
        assert!(g.offsets[..4].iter().all(|&(x, y)| x.abs() + y.abs() == 1));
        assert!(
            g.offsets[4..8]
                .iter()
                .all(|&(x, y)| x.abs() == 1 && y.abs() == 1)
        );
    }

    #[test]
    fn orientations_are_permutations_that_compose_into_a_group() {
        let g = Geometry::get();
        for t in 0..8 {
            let mut seen = [false; POINTS];
            for k in 0..POINTS {
                seen[g.perm[t][k] as usize] = true;
            }
            assert!(seen.iter().all(|&s| s), "orientation {t}");
        }
        // A quarter turn four times and a mirror twice are the identity.
        for k in 0..POINTS {
            let mut q = k;
            for _ in 0..4 {
                q = g.perm[1][q] as usize;
            }
            assert_eq!(q, k);
            assert_eq!(g.perm[4][g.perm[4][k] as usize] as usize, k);
        }
    }

    #[test]
    fn packing_round_trips() {
        let states: Vec<u8> = (0..POINTS).map(|k| (k * 7 % 4) as u8).collect();
        for size in 0..SIZES {
            let mut bytes = Vec::new();
            pack(size, &states, &mut bytes);
            assert_eq!(bytes.len(), packed_len(size));
            let back = unpack(size, &bytes);
            assert_eq!(&back[..RING_END[size]], &states[..RING_END[size]]);
        }
    }

    #[test]
    fn every_orientation_of_a_shape_has_its_id_and_another_shape_does_not() {
        let g = Geometry::get();
        let states: Vec<u8> = (0..POINTS).map(|k| ((k * k + 3 * k) % 4) as u8).collect();
        for size in 0..SIZES {
            let (id, canonical) = g.canonical(size, &states);
            for t in 0..8 {
                let turned = g.orient_states(t, size, &states);
                assert_eq!(g.canonical(size, &turned).0, id);
            }
            // The canonical orientation, hashed as it lies, has the id.
            assert_eq!(g.hash(size, &canonical), id);
            let mut other = states.clone();
            other[RING_END[size] - 1] ^= 1;
            assert_ne!(g.canonical(size, &other).0, id);
            assert_eq!(g.canonical_ids(&states)[size].0, id);
        }
    }

    #[test]
    fn tactical_codes_round_trip_and_canonicalise() {
        let g = Geometry::get();
        let parts = [2, 0, 7, 1, 1, 3, 0, 2];
        let code = tactical_code(&parts);
        assert_eq!(tactical_parts(code), parts);
        let id = canonical_tactical(g, code);
        for t in 0..8 {
            assert_eq!(canonical_tactical(g, orient_tactical(g, t, code)), id);
        }
        assert_ne!(
            canonical_tactical(g, tactical_code(&[3, 0, 7, 1, 1, 3, 0, 2])),
            id
        );
    }
}
