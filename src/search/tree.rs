//! The search tree: nodes in an arena of fixed-size chunks, shared by all threads through
//! atomics (relaxed counters; a child block is published with release/acquire), with
//! Monte-Carlo, RAVE and prior statistics per node.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Move code of a pass (points are mailbox indices, never 0).
pub const PASS: u16 = 0;
/// The root's index.
pub const ROOT: u32 = 0;

const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;
/// `first_child` of a leaf (0 is the root, never anybody's child).
const LEAF: u32 = 0;
/// `first_child` while one thread creates the children.
const EXPANDING: u32 = u32::MAX;
/// Flag in `info`: the move repeats an earlier position under simple ko (a no-result cycle).
const CYCLE: u32 = 1 << 16;
/// Flag in `info`: the policy network rates this node's children (done or under way).
const NETWORK: u32 = 1 << 17;

/// One node: the move that led to it and the statistics of the player who made it.
#[derive(Default)]
pub struct Node {
    /// Move code (low 16 bits) and flags.
    info: AtomicU32,
    /// Visits (low 32 bits) and their results for the player who made the move (high 32
    /// bits; 2 a win, 1 a draw or no result): one word, so that a visit is recorded by one
    /// atomic addition, not two.
    stats: AtomicU64,
    /// AMAF visits and results, packed likewise.
    amaf: AtomicU64,
    /// The prior: visits (low 16 bits) and their half-wins (high 16 bits) in one word, so
    /// that the network's replacement lands whole and the node keeps to 40 bytes.
    prior: AtomicU32,
    /// The value network's judgement of this node's position, packed as the prior:
    /// counted as that many visits with that result (Oakfoam's prior wins; see
    /// `NetworkUse`).
    value: AtomicU32,
    /// Descents in progress through this node (each counts as a loss: virtual loss).
    in_flight: AtomicU32,
    first_child: AtomicU32,
    child_count: AtomicU32,
}

/// What a new child starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildSpec {
    pub mv: u16,
    pub prior_visits: u32,
    pub prior_half_wins: u32,
    pub cycle: bool,
}

impl Node {
    #[inline]
    pub fn mv(&self) -> u16 {
        self.info.load(Ordering::Relaxed) as u16
    }

    #[inline]
    pub fn is_cycle(&self) -> bool {
        self.info.load(Ordering::Relaxed) & CYCLE != 0
    }

    /// Claims the network's evaluation of this node's children: true for the one caller
    /// that gets it, false when it is done or under way.
    #[inline]
    pub fn claim_network(&self) -> bool {
        self.info.fetch_or(NETWORK, Ordering::Relaxed) & NETWORK == 0
    }

    /// Gives a claim back (the evaluation was dropped): a later visit may claim it again.
    pub fn release_network(&self) {
        self.info.fetch_and(!NETWORK, Ordering::Relaxed);
    }

    pub fn has_network(&self) -> bool {
        self.info.load(Ordering::Relaxed) & NETWORK != 0
    }

    /// Replaces the prior (the network's, arriving after the node's creation).
    pub fn set_prior(&self, visits: u32, half_wins: u32) {
        self.prior
            .store(pack16(visits, half_wins), Ordering::Relaxed);
    }

    #[inline]
    pub fn visits(&self) -> u32 {
        unpack(self.stats.load(Ordering::Relaxed)).0
    }

    /// Sets the value network's judgement: `visits` visits (at most `MOST_PACKED`) with
    /// `half_wins` for the mover.
    pub fn set_value(&self, visits: u32, half_wins: u32) {
        self.value
            .store(pack16(visits, half_wins), Ordering::Relaxed);
    }

    /// The value network's judgement: the visits it counts for (0: none) and their
    /// half-wins for the mover.
    pub fn value_stats(&self) -> (u32, u32) {
        unpack16(self.value.load(Ordering::Relaxed))
    }

    /// The mover's win rate as the search estimates it: the playouts' results and the
    /// value network's judgement at its weight (0.5 before either).
    pub fn win_rate(&self) -> f32 {
        let (visits, half_wins) = unpack(self.stats.load(Ordering::Relaxed));
        let (value_visits, value_half_wins) = unpack16(self.value.load(Ordering::Relaxed));
        let n = visits + value_visits;
        if n == 0 {
            0.5
        } else {
            (half_wins + value_half_wins) as f32 / (2.0 * n as f32)
        }
    }

    /// The prior's value, as the search started it (0.5 when none).
    pub fn prior_value(&self) -> f32 {
        let (n, half_wins) = unpack16(self.prior.load(Ordering::Relaxed));
        if n == 0 {
            0.5
        } else {
            half_wins as f32 / (2.0 * n as f32)
        }
    }

    pub fn prior_visits(&self) -> u32 {
        unpack16(self.prior.load(Ordering::Relaxed)).0
    }

    /// The selection value for the mover: Monte-Carlo mean with priors, the value
    /// network's judgement and virtual losses,
    /// blended with the AMAF mean by β = ñ / (ñ + n + n·ñ/k) (Pachi's and Gelly–Silver's
    /// schedule); no exploration term, as the priors and RAVE explore. `inv_k` is 1 / k.
    ///
    /// (1 − β)·w/n + β·ã/ñ with c = 1 + ñ/k is (w·c + ã) / (ñ + n·c): one division per
    /// child instead of four, on the search's hottest loop.
    #[inline]
    pub fn rave_value(&self, inv_k: f32) -> f32 {
        let (visits, half_wins) = unpack(self.stats.load(Ordering::Relaxed));
        let (value_visits, value_half_wins) = unpack16(self.value.load(Ordering::Relaxed));
        let (prior_visits, prior_half_wins) = unpack16(self.prior.load(Ordering::Relaxed));
        let n =
            (prior_visits + visits + value_visits + self.in_flight.load(Ordering::Relaxed)) as f32;
        let w = (prior_half_wins + half_wins + value_half_wins) as f32 * 0.5;
        let (amaf_visits, amaf_half_wins) = unpack(self.amaf.load(Ordering::Relaxed));
        let an = amaf_visits as f32;
        if an == 0.0 {
            return if n > 0.0 { w / n } else { 0.5 };
        }
        let aw = amaf_half_wins as f32 * 0.5;
        let c = 1.0 + an * inv_k;
        (w * c + aw) / (an + n * c)
    }

    #[inline]
    pub fn add_in_flight(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    /// Records a finished descent: one visit with `half_wins` for the mover.
    #[inline]
    pub fn record(&self, half_wins: u32) {
        self.stats.fetch_add(pack(1, half_wins), Ordering::Relaxed);
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    /// Records an AMAF result of `half_wins` (of 2) for the mover, counted `weight` times.
    #[inline]
    pub fn record_amaf(&self, half_wins: u32, weight: u32) {
        self.amaf
            .fetch_add(pack(weight, half_wins * weight), Ordering::Relaxed);
    }

    fn copy_stats_from(&self, other: &Node) {
        for (to, from) in [
            (&self.info, &other.info),
            (&self.prior, &other.prior),
            (&self.value, &other.value),
        ] {
            to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        for (to, from) in [(&self.stats, &other.stats), (&self.amaf, &other.amaf)] {
            to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }
}

/// Visits and half-wins in one word (visits low). Half-wins are at most twice the visits,
/// so both fit while a node has fewer than 2^31 visits, far beyond any search.
#[inline]
fn pack(visits: u32, half_wins: u32) -> u64 {
    u64::from(visits) | u64::from(half_wins) << 32
}

#[inline]
fn unpack(word: u64) -> (u32, u32) {
    (word as u32, (word >> 32) as u32)
}

/// The most visits a prior or a judgement may count for: their half-wins, at most twice
/// as many, fit in 16 bits.
pub const MOST_PACKED: u32 = u16::MAX as u32 / 2;

/// Visits (at most `MOST_PACKED`) and half-wins (at most twice the visits) in 32 bits.
#[inline]
fn pack16(visits: u32, half_wins: u32) -> u32 {
    let visits = visits.min(MOST_PACKED);
    visits | half_wins.min(2 * visits) << 16
}

#[inline]
fn unpack16(word: u32) -> (u32, u32) {
    (word & 0xFFFF, word >> 16)
}

/// Chunks of dropped trees, kept for the trees to come: the memory the process holds for
/// trees is then never more than the most that was ever live at once (`--max-memory`
/// counts on that). Handed back to the allocator, they stayed in glibc's per-thread
/// arenas, where the next tree, built on another thread, could not reuse them: an evening
/// of pondering peaked at 1,242 MiB under `--max-memory 1024`.
static SPARE_CHUNKS: Mutex<Vec<Box<[Node]>>> = Mutex::new(Vec::new());

/// A chunk of default nodes: a spare one cleared, else a new one.
fn new_chunk() -> Box<[Node]> {
    let spare = SPARE_CHUNKS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .pop();
    match spare {
        Some(mut chunk) => {
            chunk.fill_with(Node::default);
            chunk
        }
        None => (0..CHUNK).map(|_| Node::default()).collect(),
    }
}

/// The node arena. Memory is bounded by `max_nodes`; when it is full, leaves stay leaves.
pub struct Tree {
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    len: AtomicUsize,
    max_nodes: usize,
    full: AtomicBool,
}

impl Tree {
    /// A tree holding only a root, with room for about `max_nodes` nodes.
    pub fn new(max_nodes: usize) -> Tree {
        let max_nodes = max_nodes.max(CHUNK);
        let chunks = (0..max_nodes.div_ceil(CHUNK))
            .map(|_| OnceLock::new())
            .collect();
        let tree = Tree {
            chunks,
            len: AtomicUsize::new(0),
            max_nodes,
            full: AtomicBool::new(false),
        };
        let root = tree.allocate(1).expect("room for the root");
        debug_assert_eq!(root, ROOT);
        tree
    }

    /// Bytes one node takes.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
    /// Bytes of the smallest tree (one chunk, however small `max_nodes` is).
    pub const MIN_BYTES: usize = CHUNK * Self::NODE_BYTES;

    #[inline]
    pub fn node(&self, i: u32) -> &Node {
        &self.chunk_of(i)[i as usize & (CHUNK - 1)]
    }

    /// The chunk that holds node `i`.
    #[inline]
    fn chunk_of(&self, i: u32) -> &[Node] {
        self.chunks[(i >> CHUNK_BITS) as usize]
            .get()
            .expect("allocated chunk")
    }

    /// Nodes handed out so far.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed).min(self.max_nodes)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of the chunks in use.
    pub fn memory_bytes(&self) -> usize {
        self.chunks.iter().filter(|c| c.get().is_some()).count() * CHUNK * Self::NODE_BYTES
    }

    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// A block of `k` consecutive nodes inside one chunk.
    fn allocate(&self, k: usize) -> Option<u32> {
        debug_assert!(k <= CHUNK);
        let mut start = self.len.load(Ordering::Relaxed);
        loop {
            let mut s = start;
            if s % CHUNK + k > CHUNK {
                s = (s / CHUNK + 1) * CHUNK;
            }
            if s + k > self.max_nodes.min(self.chunks.len() * CHUNK) {
                self.full.store(true, Ordering::Relaxed);
                return None;
            }
            match self
                .len
                .compare_exchange_weak(start, s + k, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => {
                    self.chunks[s / CHUNK].get_or_init(new_chunk);
                    return Some(s as u32);
                }
                Err(now) => start = now,
            }
        }
    }

    /// The children of `i`, once they are published.
    #[inline]
    pub fn children(&self, i: u32) -> Option<Range<u32>> {
        let node = self.node(i);
        match node.first_child.load(Ordering::Acquire) {
            LEAF | EXPANDING => None,
            first => Some(first..first + node.child_count.load(Ordering::Relaxed)),
        }
    }

    /// The children of `i` as one slice (a block never straddles chunks), with the first
    /// one's index: the selection and the AMAF update walk them without a chunk lookup
    /// per child.
    #[inline]
    pub fn child_nodes(&self, i: u32) -> Option<(u32, &[Node])> {
        let range = self.children(i)?;
        let start = range.start as usize & (CHUNK - 1);
        Some((
            range.start,
            &self.chunk_of(range.start)[start..start + range.len()],
        ))
    }

    /// Claims the right to expand leaf `i`; false when another thread has it or did it.
    pub fn try_begin_expansion(&self, i: u32) -> bool {
        self.node(i)
            .first_child
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// Creates and publishes the children of `i` (after [`Tree::try_begin_expansion`]).
    /// Without room, or without children, `i` stays a leaf for good.
    pub fn finish_expansion(&self, i: u32, children: &[ChildSpec]) {
        let node = self.node(i);
        let Some(first) = (!children.is_empty())
            .then(|| self.allocate(children.len()))
            .flatten()
        else {
            // Stay "expanding" for good: nobody retries a node that cannot grow.
            return;
        };
        for (k, spec) in children.iter().enumerate() {
            let child = self.node(first + k as u32);
            child.info.store(
                spec.mv as u32 | if spec.cycle { CYCLE } else { 0 },
                Ordering::Relaxed,
            );
            child.set_prior(spec.prior_visits, spec.prior_half_wins);
        }
        node.child_count
            .store(children.len() as u32, Ordering::Relaxed);
        node.first_child.store(first, Ordering::Release);
    }

    /// The child of `i` for move `mv`.
    pub fn child_with_move(&self, i: u32, mv: u16) -> Option<u32> {
        self.children(i)?.find(|&c| self.node(c).mv() == mv)
    }

    /// A new tree holding a copy of the subtree under `i` (the recycling step of tree
    /// reuse): everything else is dropped.
    pub fn subtree(&self, i: u32, max_nodes: usize) -> Tree {
        let tree = Tree::new(max_nodes);
        tree.node(ROOT).copy_stats_from(self.node(i));
        let mut queue = vec![(i, ROOT)];
        while let Some((from, to)) = queue.pop() {
            let Some(children) = self.children(from) else {
                continue;
            };
            let Some(first) = tree.allocate(children.len()) else {
                break;
            };
            for (k, c) in children.enumerate() {
                tree.node(first + k as u32).copy_stats_from(self.node(c));
                queue.push((c, first + k as u32));
            }
            let node = tree.node(to);
            node.child_count.store(
                self.node(from).child_count.load(Ordering::Relaxed),
                Ordering::Relaxed,
            );
            node.first_child.store(first, Ordering::Release);
        }
        tree
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let mut spare = SPARE_CHUNKS.lock().unwrap_or_else(PoisonError::into_inner);
        spare.extend(self.chunks.iter_mut().filter_map(OnceLock::take));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    fn spec(mv: u16, visits: u32, half_wins: u32) -> ChildSpec {
        ChildSpec {
            mv,
            prior_visits: visits,
            prior_half_wins: half_wins,
            cycle: false,
        }
    }

    #[test]
    fn the_values_judgement_counts_beside_the_playouts_and_moves_with_the_subtree() {
        let tree = Tree::new(1000);
        assert!(tree.try_begin_expansion(ROOT));
        tree.finish_expansion(ROOT, &[spec(5, 0, 0), spec(6, 0, 0)]);
        let (first, _) = tree.child_nodes(ROOT).expect("children");
        let node = tree.node(first);
        // Ten playouts, 3 won, then the value's 10 visits at 0.9.
        for won in [
            true, true, true, false, false, false, false, false, false, false,
        ] {
            node.add_in_flight();
            node.record(if won { 2 } else { 0 });
        }
        assert_eq!(node.win_rate(), 0.3);
        assert_eq!(node.rave_value(1.0 / 3000.0), 0.3);
        node.set_value(10, 18);
        assert_eq!(node.value_stats(), (10, 18));
        assert!((node.win_rate() - 0.6).abs() < 1e-6);
        assert!((node.rave_value(1.0 / 3000.0) - 0.6).abs() < 1e-6);
        // Alone (no playout yet), the judgement is the estimate.
        let other = tree.node(first + 1);
        other.set_value(40, 20);
        assert_eq!(other.win_rate(), 0.25);
        assert_eq!(other.visits(), 0);
        let kept = tree.subtree(ROOT, 1000);
        let (kept_first, _) = kept.child_nodes(ROOT).expect("children kept");
        assert_eq!(kept.node(kept_first).value_stats(), (10, 18));
        assert!((kept.node(kept_first).win_rate() - 0.6).abs() < 1e-6);
    }

    #[test]
    fn a_node_keeps_to_40_bytes_and_its_packed_counts_saturate() {
        // 40 bytes: a chunk of 65,536 nodes is 2.5 MiB (`--max-memory`'s arithmetic and
        // the memory tests count on it).
        assert_eq!(Tree::NODE_BYTES, 40);
        let node = Node::default();
        node.set_prior(100_000, 300_000);
        assert_eq!(node.prior_visits(), MOST_PACKED);
        assert_eq!(node.prior_value(), 1.0);
        node.set_value(20, 41);
        assert_eq!(node.value_stats(), (20, 40));
        node.set_value(MOST_PACKED, 0);
        assert_eq!(node.value_stats(), (MOST_PACKED, 0));
        assert_eq!(node.win_rate(), 0.0);
    }

    #[test]
    fn children_are_published_once_and_found_by_move() {
        let tree = Tree::new(1000);
        assert!(tree.children(ROOT).is_none());
        assert!(tree.try_begin_expansion(ROOT));
        assert!(!tree.try_begin_expansion(ROOT));
        tree.finish_expansion(ROOT, &[spec(PASS, 1, 1), spec(12, 2, 4)]);
        let kids = tree.children(ROOT).unwrap();
        assert_eq!(kids.len(), 2);
        let c = tree.child_with_move(ROOT, 12).unwrap();
        assert_eq!(tree.node(c).prior_value(), 1.0);
        assert!(tree.child_with_move(ROOT, 13).is_none());
    }

    #[test]
    fn rave_blends_towards_the_amaf_mean_while_visits_are_few() {
        let tree = Tree::new(100);
        tree.try_begin_expansion(ROOT);
        tree.finish_expansion(ROOT, &[spec(5, 10, 10)]);
        let c = tree.node(tree.children(ROOT).unwrap().start);
        assert_eq!(c.rave_value(1.0 / 3000.0), 0.5);
        for _ in 0..100 {
            c.record_amaf(2, 1);
        }
        // Many AMAF wins, few real visits: the value moves most of the way to 1.
        assert!(c.rave_value(1.0 / 3000.0) > 0.85);
        for _ in 0..10_000 {
            c.add_in_flight();
            c.record(0);
        }
        // Many real losses: the Monte-Carlo mean dominates.
        assert!(c.rave_value(1.0 / 3000.0) < 0.1);
    }

    #[test]
    fn the_one_division_rave_value_agrees_with_the_textbook_blend() {
        let mut rng = Pcg32::seed_from_u64(7);
        let tree = Tree::new(100);
        tree.try_begin_expansion(ROOT);
        tree.finish_expansion(ROOT, &[spec(5, 0, 0)]);
        let c = tree.node(tree.children(ROOT).unwrap().start);
        for _ in 0..2_000 {
            let (n, an) = (rng.random_range(0..5_000u32), rng.random_range(0..5_000u32));
            let (half_wins, amaf_half_wins) =
                (rng.random_range(0..=2 * n), rng.random_range(0..=2 * an));
            c.stats.store(pack(n, half_wins), Ordering::Relaxed);
            c.amaf.store(pack(an, amaf_half_wins), Ordering::Relaxed);
            let k = 3000.0f64;
            let (n, w, an, aw) = (
                n as f64,
                half_wins as f64 / 2.0,
                an as f64,
                amaf_half_wins as f64 / 2.0,
            );
            let mc = if n > 0.0 { w / n } else { 0.5 };
            let textbook = if an == 0.0 {
                mc
            } else {
                let beta = an / (an + n + n * an / k);
                (1.0 - beta) * mc + beta * (aw / an)
            };
            let fast = c.rave_value(1.0 / 3000.0) as f64;
            assert!((fast - textbook).abs() < 1e-5, "{fast} vs {textbook}");
        }
    }

    #[test]
    fn a_full_arena_refuses_to_grow_and_says_so() {
        let tree = Tree::new(1);
        let many: Vec<ChildSpec> = (1..=60_000).map(|m| spec(m as u16, 1, 1)).collect();
        assert!(tree.try_begin_expansion(ROOT));
        tree.finish_expansion(ROOT, &many);
        let c = tree.children(ROOT).unwrap().start;
        assert!(tree.try_begin_expansion(c));
        tree.finish_expansion(c, &many);
        assert!(tree.is_full());
        assert!(tree.children(c).is_none());
        assert!(tree.memory_bytes() <= CHUNK * Tree::NODE_BYTES);
    }

    #[test]
    fn a_subtree_copy_keeps_statistics_and_shape() {
        let tree = Tree::new(1000);
        tree.try_begin_expansion(ROOT);
        tree.finish_expansion(ROOT, &[spec(1, 1, 1), spec(2, 1, 1)]);
        let c = tree.child_with_move(ROOT, 2).unwrap();
        tree.node(c).add_in_flight();
        tree.node(c).record(2);
        tree.try_begin_expansion(c);
        tree.finish_expansion(c, &[spec(7, 3, 6)]);
        let sub = tree.subtree(c, 1000);
        assert_eq!(sub.node(ROOT).visits(), 1);
        assert_eq!(sub.node(ROOT).mv(), 2);
        let g = sub.child_with_move(ROOT, 7).unwrap();
        assert_eq!(sub.node(g).prior_visits(), 3);
        assert!(sub.children(g).is_none());
        assert_eq!(sub.len(), 2);
    }

    #[test]
    fn a_tree_built_from_spare_chunks_starts_clean() {
        // Dropped trees leave their chunks for the next; each next tree must see only
        // default nodes, whichever chunks it gets.
        for round in 0..4u32 {
            let tree = Tree::new(1000);
            assert_eq!(tree.node(ROOT).visits(), 0, "round {round}");
            assert!(tree.children(ROOT).is_none(), "round {round}");
            assert!(tree.try_begin_expansion(ROOT));
            tree.finish_expansion(ROOT, &[spec(12, 3, 6), spec(13, 1, 0)]);
            for c in tree.children(ROOT).unwrap() {
                let node = tree.node(c);
                node.add_in_flight();
                node.record(2);
                node.record_amaf(2, 5);
            }
            let first = tree.children(ROOT).unwrap().start;
            // The nodes after the children were never written in this round.
            assert_eq!(tree.node(first + 2).visits(), 0, "round {round}");
            assert_eq!(tree.node(first + 2).prior_visits(), 0, "round {round}");
        }
    }
}
