//! The learned model: one strength γ per feature, and a move's strength the product of
//! the γ of its features (a generalised Bradley-Terry model, Coulom 2007), so that the
//! probability of a move is its strength over the sum of the strengths of all moves.
//!
//! File format (little-endian), version 1:
//!
//! | field | bytes |
//! |---|---|
//! | magic `YEOULMOD` | 8 |
//! | format version (1), feature version ([`FEATURES_VERSION`]) | 4 + 4 |
//! | fixed groups (7), then the levels of each | 4 + 7 x 4 |
//! | tactical shapes: count, then each canonical code | 4 + 4 n |
//! | shapes: count, then each one's size (0..8) and packed points | 4 + n x (1 + 2..18) |
//! | γ: count, then each (fixed groups; unknown tactical shape, tactical shapes, then both again for a move next to the last one; no shape, shapes) | 4 + 4 n |
//! | a note: length, UTF-8 text | 4 + n |
//! | FNV-1a 64 of everything before | 8 |

use super::features::{DISTANCE_LAST, LEVEL_GROUPS, LEVELS, NONE, Position};
use super::shape::{
    Geometry, SIZES, TACTICAL_BITS, canonical_tactical, orient_tactical, pack, packed_len, unpack,
};
use crate::rules::Point;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

const MAGIC: &[u8; 8] = b"YEOULMOD";
const FORMAT_VERSION: u32 = 1;
/// Changes whenever a feature's meaning changes: a model trained on other features is
/// refused rather than misread.
pub const FEATURES_VERSION: u32 = 2;

/// All groups: the fixed ones, then the tactical 3x3 shapes, then the large shapes.
pub const GROUPS: usize = LEVEL_GROUPS + 2;
pub const TACTICAL_GROUP: usize = LEVEL_GROUPS;
pub const SHAPE_GROUP: usize = LEVEL_GROUPS + 1;

/// The model trained on the 9-dan games, compiled in.
const BUILTIN: &[u8] = include_bytes!("../../models/yeoul.model");

/// Why a model file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    Io(String),
    NotAModel,
    UnsupportedVersion(u32),
    /// Trained for other features (`found`, `expected`).
    ForeignFeatures {
        found: u32,
        expected: u32,
    },
    Truncated,
    Corrupt,
    Invalid(String),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Io(e) => write!(f, "cannot read the model file: {e}"),
            ModelError::NotAModel => f.write_str("not a yeoul model file (bad magic number)"),
            ModelError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "model file format version {v} is not supported (expected {FORMAT_VERSION})"
                )
            }
            ModelError::ForeignFeatures { found, expected } => write!(
                f,
                "the model was trained for feature version {found}, this engine uses {expected}: train it again"
            ),
            ModelError::Truncated => f.write_str("the model file is truncated"),
            ModelError::Corrupt => f.write_str("the model file is corrupt (checksum mismatch)"),
            ModelError::Invalid(what) => write!(f, "the model file is invalid: {what}"),
        }
    }
}

impl std::error::Error for ModelError {}

/// The features of one move, group by group: a level per fixed group ([`NONE`] where it
/// does not apply), then the tactical shape and the shape, as indices within their groups
/// (0: unknown tactical shape, no known shape; the tactical shapes of moves next to the
/// last move, d <= 3, come after all the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Team {
    pub levels: [u8; LEVEL_GROUPS],
    pub tactical: u32,
    pub shape: u32,
}

impl Team {
    /// The feature of group `g` as an index within the group, if the group applies.
    #[inline]
    pub fn local(&self, g: usize) -> Option<u32> {
        match g {
            TACTICAL_GROUP => Some(self.tactical),
            SHAPE_GROUP => Some(self.shape),
            _ => (self.levels[g] != NONE).then_some(self.levels[g] as u32),
        }
    }
}

/// Shapes by hash (every orientation of every known shape), open addressing.
struct ShapeTable {
    keys: Vec<u64>,
    ids: Vec<u32>,
    mask: usize,
}

impl ShapeTable {
    /// Slots for `entries` keys: at most half full, so that probes stay short.
    fn capacity(entries: usize) -> usize {
        (entries * 2).next_power_of_two().max(16)
    }

    /// The memory a table for `entries` keys takes.
    fn bytes(entries: usize) -> usize {
        ShapeTable::capacity(entries) * (std::mem::size_of::<u64>() + std::mem::size_of::<u32>())
    }

    /// Every orientation of every shape of the dictionary (about 0.6 billion
    /// instructions for the built-in model's 160,000 shapes, hence built on first use).
    fn build(shapes: &[ShapeEntry]) -> ShapeTable {
        let geometry = Geometry::get();
        let mut table = ShapeTable::new(shapes.len() * 8);
        for (i, entry) in shapes.iter().enumerate() {
            let size = entry.size as usize;
            let states = unpack(size, &entry.packed);
            for t in 0..8 {
                table.insert(geometry.hash_oriented(t, size, &states), i as u32 + 1);
            }
        }
        table
    }

    fn new(entries: usize) -> ShapeTable {
        let capacity = ShapeTable::capacity(entries);
        ShapeTable {
            keys: vec![0; capacity],
            ids: vec![0; capacity],
            mask: capacity - 1,
        }
    }

    fn insert(&mut self, key: u64, id: u32) {
        let mut i = key as usize & self.mask;
        while self.keys[i] != 0 && self.keys[i] != key {
            i = (i + 1) & self.mask;
        }
        self.keys[i] = key;
        self.ids[i] = id;
    }

    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        let mut i = key as usize & self.mask;
        loop {
            match self.keys[i] {
                0 => return None,
                k if k == key => return Some(self.ids[i]),
                _ => i = (i + 1) & self.mask,
            }
        }
    }
}

/// A shape of the dictionary: its size and its points in the canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeEntry {
    pub size: u8,
    pub packed: Vec<u8>,
}

/// The known shapes: what the trainer harvests, what a model is built on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dictionary {
    /// Canonical tactical codes.
    pub tactical: Vec<u32>,
    pub shapes: Vec<ShapeEntry>,
}

pub struct Model {
    gammas: Vec<f32>,
    /// Where each group's γ start in `gammas`.
    offsets: [usize; GROUPS + 1],
    dictionary: Dictionary,
    /// Raw tactical code -> index within the tactical group.
    tactical_lookup: Box<[u32]>,
    /// Built on first use ([`Model::prepare`]): a process that never rates a move, or
    /// answers before it does, does not wait for it.
    shape_table: OnceLock<ShapeTable>,
    note: String,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Model({} features, {} tactical shapes, {} shapes)",
            self.gammas.len(),
            self.dictionary.tactical.len(),
            self.dictionary.shapes.len()
        )
    }
}

impl Model {
    /// A model over a dictionary with every γ 1 (the trainer's start).
    pub fn untrained(dictionary: Dictionary) -> Result<Model, ModelError> {
        let mut offsets = [0usize; GROUPS + 1];
        for g in 0..GROUPS {
            let len = match g {
                // Each known code twice: with the last move inside the 3x3 or not.
                TACTICAL_GROUP => 2 * (dictionary.tactical.len() + 1),
                SHAPE_GROUP => dictionary.shapes.len() + 1,
                _ => LEVELS[g],
            };
            offsets[g + 1] = offsets[g] + len;
        }
        let geometry = Geometry::get();
        let mut tactical_lookup = vec![0u32; 1 << TACTICAL_BITS].into_boxed_slice();
        for (i, &code) in dictionary.tactical.iter().enumerate() {
            if code >= 1 << TACTICAL_BITS || canonical_tactical(geometry, code) != code {
                return Err(ModelError::Invalid(format!("tactical shape {code:#x}")));
            }
            for t in 0..8 {
                tactical_lookup[orient_tactical(geometry, t, code) as usize] = i as u32 + 1;
            }
        }
        for (i, entry) in dictionary.shapes.iter().enumerate() {
            let size = entry.size as usize;
            if size >= SIZES || entry.packed.len() != packed_len(size) {
                return Err(ModelError::Invalid(format!("shape {i}")));
            }
        }
        Ok(Model {
            gammas: vec![1.0; offsets[GROUPS]],
            offsets,
            dictionary,
            tactical_lookup,
            shape_table: OnceLock::new(),
            note: String::new(),
        })
    }

    /// The compiled-in model (decoded once per process).
    pub fn builtin() -> Result<Arc<Model>, ModelError> {
        static MODEL: OnceLock<Result<Arc<Model>, ModelError>> = OnceLock::new();
        MODEL
            .get_or_init(|| Model::from_bytes(BUILTIN).map(Arc::new))
            .clone()
    }

    pub fn load(path: &Path) -> Result<Model, ModelError> {
        let bytes =
            std::fs::read(path).map_err(|e| ModelError::Io(format!("{}: {e}", path.display())))?;
        Model::from_bytes(&bytes)
    }

    fn shapes(&self) -> &ShapeTable {
        self.shape_table
            .get_or_init(|| ShapeTable::build(&self.dictionary.shapes))
    }

    /// Builds the shape table now (a thread at start-up does, while GTP answers).
    pub fn prepare(&self) {
        self.shapes();
    }

    /// Whether the shape table is built (and so in the process's memory).
    pub fn is_prepared(&self) -> bool {
        self.shape_table.get().is_some()
    }

    /// The memory the shape table takes once built.
    pub fn table_bytes(&self) -> usize {
        ShapeTable::bytes(self.dictionary.shapes.len() * 8)
    }

    pub fn dictionary(&self) -> &Dictionary {
        &self.dictionary
    }

    pub fn note(&self) -> &str {
        &self.note
    }

    pub fn set_note(&mut self, note: &str) {
        self.note = note.to_string();
    }

    /// Number of features (γ values).
    pub fn len(&self) -> usize {
        self.gammas.len()
    }

    pub fn is_empty(&self) -> bool {
        self.gammas.is_empty()
    }

    /// Features of group `g`.
    pub fn group_len(&self, g: usize) -> usize {
        self.offsets[g + 1] - self.offsets[g]
    }

    /// The index of a group's feature among all features.
    #[inline]
    pub fn global(&self, g: usize, local: u32) -> usize {
        self.offsets[g] + local as usize
    }

    pub fn gammas(&self) -> &[f32] {
        &self.gammas
    }

    /// Replaces every γ (the trainer's result); they must be finite and positive.
    pub fn set_gammas(&mut self, gammas: Vec<f32>) -> Result<(), ModelError> {
        if gammas.len() != self.gammas.len() {
            return Err(ModelError::Invalid("wrong number of strengths".into()));
        }
        if let Some(i) = gammas.iter().position(|g| !(g.is_finite() && *g > 0.0)) {
            return Err(ModelError::Invalid(format!(
                "strength {i} is {}",
                gammas[i]
            )));
        }
        self.check_extremes(&gammas)?;
        self.gammas = gammas;
        Ok(())
    }

    /// Refuses strengths so extreme that a move's (a product of one γ a group at most)
    /// could leave `f32`'s range, or the sum over a board's moves overflow: the products
    /// must stay within 2^±64 (the shipped model's reach 2^38.8 and 2^-28.1).
    fn check_extremes(&self, gammas: &[f32]) -> Result<(), ModelError> {
        let (mut high, mut low) = (0.0f64, 0.0f64);
        for g in 0..GROUPS {
            let group = &gammas[self.offsets[g]..self.offsets[g + 1]];
            let log2 = |f: fn(f32, f32) -> f32, start| {
                (group.iter().copied().fold(start, f) as f64).log2()
            };
            high += log2(f32::max, 1.0);
            low += log2(f32::min, 1.0);
        }
        if high > 64.0 || low < -64.0 {
            return Err(ModelError::Invalid(format!(
                "strengths so extreme that a move's reaches 2^{high:.1} or 2^{low:.1}"
            )));
        }
        Ok(())
    }

    /// The features of a legal move at `p`.
    #[inline]
    pub fn team(&self, position: &Position<'_>, p: Point) -> Team {
        let mut shape = 0;
        let shapes = self.shapes();
        position.shape_hashes(p, |_, hash| match shapes.get(hash) {
            Some(id) => {
                shape = id;
                true
            }
            // Every shape's smaller part is known too (it was seen at least as often).
            None => false,
        });
        let levels = position.levels(p);
        let near = levels[DISTANCE_LAST] <= 1;
        Team {
            levels,
            tactical: self.tactical_lookup[position.tactical(p) as usize]
                + if near { self.tactical_span() } else { 0 },
            shape,
        }
    }

    /// Tactical features of each kind: the known codes and the unknown one.
    fn tactical_span(&self) -> u32 {
        self.dictionary.tactical.len() as u32 + 1
    }

    /// The γ of every tactical shape code as it lies, for a move next to the last one
    /// (for the playouts: one load).
    pub fn tactical_gammas(&self) -> Box<[f32]> {
        let base = self.offsets[TACTICAL_GROUP] + self.tactical_span() as usize;
        self.tactical_lookup
            .iter()
            .map(|&local| self.gammas[base + local as usize])
            .collect()
    }

    /// A team's strength: the product of its γ.
    #[inline]
    pub fn strength(&self, team: &Team) -> f32 {
        let mut s = 1.0;
        for g in 0..GROUPS {
            if let Some(local) = team.local(g) {
                s *= self.gammas[self.global(g, local)];
            }
        }
        s
    }

    /// The strength of a legal move at `p`.
    #[inline]
    pub fn move_strength(&self, position: &Position<'_>, p: Point) -> f32 {
        self.strength(&self.team(position, p))
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put(&mut out, FORMAT_VERSION);
        put(&mut out, FEATURES_VERSION);
        put(&mut out, LEVEL_GROUPS as u32);
        for &levels in &LEVELS {
            put(&mut out, levels as u32);
        }
        put(&mut out, self.dictionary.tactical.len() as u32);
        for &code in &self.dictionary.tactical {
            put(&mut out, code);
        }
        put(&mut out, self.dictionary.shapes.len() as u32);
        for entry in &self.dictionary.shapes {
            out.push(entry.size);
            out.extend_from_slice(&entry.packed);
        }
        put(&mut out, self.gammas.len() as u32);
        for &g in &self.gammas {
            out.extend_from_slice(&g.to_le_bytes());
        }
        put(&mut out, self.note.len() as u32);
        out.extend_from_slice(self.note.as_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(ModelError::NotAModel);
        }
        let mut header = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = header.u32()?;
        if version != FORMAT_VERSION {
            return Err(ModelError::UnsupportedVersion(version));
        }
        let features = header.u32()?;
        if features != FEATURES_VERSION {
            return Err(ModelError::ForeignFeatures {
                found: features,
                expected: FEATURES_VERSION,
            });
        }
        let (body, sum) = bytes.split_at(bytes.len().saturating_sub(8).max(header.at));
        // Fuzzing builds skip the checksum, so that mutations reach the fields behind it.
        let summed = sum.len() == 8
            && (cfg!(fuzzing)
                || u64::from_le_bytes(sum.try_into().expect("8 bytes")) == fnv1a(body));
        if summed {
            return Model::parse(body, header.at);
        }
        // A cut file does not hold the whole layout; anything else is damage.
        match Model::parse(bytes, header.at) {
            Err(ModelError::Truncated) => Err(ModelError::Truncated),
            _ => Err(ModelError::Corrupt),
        }
    }

    /// The fields after the header, which must fill `body` exactly.
    fn parse(body: &[u8], from: usize) -> Result<Model, ModelError> {
        let mut r = Reader {
            bytes: body,
            at: from,
        };
        if r.u32()? as usize != LEVEL_GROUPS {
            return Err(ModelError::Invalid("number of feature groups".into()));
        }
        for (g, &levels) in LEVELS.iter().enumerate() {
            if r.u32()? as usize != levels {
                return Err(ModelError::Invalid(format!("levels of group {g}")));
            }
        }
        let tactical_count = r.count(4)?;
        let tactical = (0..tactical_count)
            .map(|_| r.u32())
            .collect::<Result<Vec<_>, _>>()?;
        let shape_count = r.count(3)?;
        let mut shapes = Vec::with_capacity(shape_count);
        for _ in 0..shape_count {
            let size = r.take(1)?[0];
            if size as usize >= SIZES {
                return Err(ModelError::Invalid(format!("shape size {size}")));
            }
            let packed = r.take(packed_len(size as usize))?.to_vec();
            shapes.push(ShapeEntry { size, packed });
        }
        let mut model = Model::untrained(Dictionary { tactical, shapes })?;
        let gamma_count = r.count(4)?;
        if gamma_count != model.len() {
            return Err(ModelError::Invalid(format!(
                "{gamma_count} strengths for {} features",
                model.len()
            )));
        }
        let gammas = (0..gamma_count)
            .map(|_| r.u32().map(f32::from_bits))
            .collect::<Result<Vec<_>, _>>()?;
        model.set_gammas(gammas)?;
        let note_len = r.count(1)?;
        model.note = String::from_utf8(r.take(note_len)?.to_vec())
            .map_err(|_| ModelError::Invalid("note is not UTF-8".into()))?;
        if r.at != body.len() {
            return Err(ModelError::Invalid("bytes after the note".into()));
        }
        Ok(model)
    }
}

/// Packs states into a dictionary entry.
pub fn shape_entry(size: usize, states: &[u8]) -> ShapeEntry {
    let mut packed = Vec::with_capacity(packed_len(size));
    pack(size, states, &mut packed);
    ShapeEntry {
        size: size as u8,
        packed,
    }
}

fn put(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ModelError> {
        let end = self.at.checked_add(n).ok_or(ModelError::Truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or(ModelError::Truncated)?;
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32, ModelError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A count of items of at least `min_bytes` each that must fit in what is left.
    fn count(&mut self, min_bytes: usize) -> Result<usize, ModelError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_bytes) > self.bytes.len() - self.at {
            return Err(ModelError::Truncated);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::features::Recent;
    use crate::rules::{Board, BoardSize, Color};

    fn small_model() -> Model {
        let geometry = Geometry::get();
        let board = Board::new(BoardSize::NINETEEN);
        let position = Position::new(&board, Color::Black, Recent::default());
        let p = BoardSize::NINETEEN.point(3, 3).expect("D4");
        let states = position.shape_states(p);
        let shapes = (0..SIZES)
            .map(|size| {
                let (_, canonical) = geometry.canonical(size, &states);
                shape_entry(size, &canonical)
            })
            .collect();
        let tactical = vec![canonical_tactical(geometry, position.tactical(p))];
        let mut model = Model::untrained(Dictionary { tactical, shapes }).expect("model");
        let gammas = (0..model.len()).map(|i| 0.5 + i as f32 / 7.0).collect();
        model.set_gammas(gammas).expect("positive");
        model.set_note("test");
        model
    }

    #[test]
    fn a_model_round_trips_through_its_bytes() {
        let model = small_model();
        let bytes = model.to_bytes();
        let back = Model::from_bytes(&bytes).expect("reads back");
        assert_eq!(back.gammas(), model.gammas());
        assert_eq!(back.dictionary(), model.dictionary());
        assert_eq!(back.note(), "test");
        assert_eq!(back.to_bytes(), bytes);
    }

    #[test]
    fn the_largest_known_shape_is_found_in_any_orientation() {
        let model = small_model();
        let board = Board::new(BoardSize::NINETEEN);
        let position = Position::new(&board, Color::White, Recent::default());
        // D4's shape (the 4-4 point) is known in all sizes; so are the other corners'.
        for (col, row) in [(3, 3), (15, 3), (3, 15), (15, 15)] {
            let p = BoardSize::NINETEEN.point(col, row).expect("on board");
            assert_eq!(model.team(&position, p).shape, SIZES as u32);
            assert_eq!(model.team(&position, p).tactical, 1);
        }
        // The 3-3 point shares only the small empty shapes.
        let p = BoardSize::NINETEEN.point(2, 2).expect("C3");
        let team = model.team(&position, p);
        assert!(team.shape >= 1 && team.shape < SIZES as u32);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let bytes = small_model().to_bytes();
        assert_eq!(
            Model::from_bytes(b"GIF89a and more bytes").unwrap_err(),
            ModelError::NotAModel
        );
        assert_eq!(
            Model::from_bytes(&bytes[..bytes.len() / 2]).unwrap_err(),
            ModelError::Truncated
        );
        let mut flipped = bytes.clone();
        let k = flipped.len() - 20;
        flipped[k] ^= 0x40;
        assert_eq!(
            Model::from_bytes(&flipped).unwrap_err(),
            ModelError::Corrupt
        );
        let mut foreign = bytes.clone();
        foreign[12..16].copy_from_slice(&(FEATURES_VERSION + 1).to_le_bytes());
        assert!(matches!(
            Model::from_bytes(&foreign).unwrap_err(),
            ModelError::ForeignFeatures { .. }
        ));
        assert!(matches!(
            Model::load(Path::new("/nonexistent/yeoul.model")).unwrap_err(),
            ModelError::Io(_)
        ));
        for e in [
            ModelError::Truncated,
            ModelError::Corrupt,
            ModelError::NotAModel,
        ] {
            assert!(e.to_string().contains("model"), "{e}");
        }
    }

    // Found while writing the model-file fuzz target's check: strengths each finite and positive whose
    // product, a move's strength, is infinite (and its prior NaN).
    #[test]
    fn strengths_whose_products_overflow_are_refused() {
        let mut model = small_model();
        let board = Board::new(BoardSize::NINETEEN);
        let position = Position::new(&board, Color::Black, Recent::default());
        let p = BoardSize::NINETEEN.point(3, 3).expect("D4");
        let team = model.team(&position, p);
        let mut gammas = model.gammas().to_vec();
        for g in [TACTICAL_GROUP, SHAPE_GROUP] {
            let local = team.local(g).expect("D4 has a shape of each kind");
            gammas[model.global(g, local)] = 1e30;
        }
        let refused = model.set_gammas(gammas.clone()).unwrap_err();
        assert!(refused.to_string().contains("extreme"), "{refused}");
        // Such strengths would have made D4's infinite; a file holding them is refused.
        model.gammas = gammas;
        assert!(model.move_strength(&position, p).is_infinite());
        let refused = Model::from_bytes(&model.to_bytes()).unwrap_err();
        assert!(refused.to_string().contains("extreme"), "{refused}");
    }

    #[test]
    fn the_shape_table_is_built_on_first_use_and_its_size_is_known_before() {
        let model = Model::from_bytes(BUILTIN).expect("the compiled-in model");
        assert!(!model.is_prepared());
        let promised = model.table_bytes();
        model.prepare();
        let table = model.shape_table.get().expect("built by prepare");
        assert_eq!(promised, table.keys.len() * 8 + table.ids.len() * 4);
        // A model rated before any preparation builds it itself.
        let lazy = Model::from_bytes(BUILTIN).expect("the compiled-in model");
        let board = Board::new(BoardSize::NINETEEN);
        let position = Position::new(&board, Color::Black, Recent::default());
        let p = BoardSize::NINETEEN.point(3, 3).expect("D4");
        assert_eq!(
            lazy.team(&position, p).shape,
            model.team(&position, p).shape
        );
        assert!(lazy.is_prepared());
    }

    #[test]
    fn the_builtin_model_loads() {
        let model = Model::builtin().expect("the compiled-in model");
        assert!(model.dictionary().shapes.len() > 100);
    }
}
