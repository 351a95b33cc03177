//! `--max-memory` for the whole process: what the process holds besides its search
//! tree, and the nodes the tree may take.

use super::{EngineConfig, NetworkSizes};
use crate::knowledge::Model;
use crate::referee;
use crate::search::tree::Tree;

/// Room for what the engine holds besides its tree while it thinks: the referee's
/// searches, GTP's lines and answers; and each thread's stack and buffers.
const WORKING_MARGIN: usize = (8 << 20) + referee::SEARCH_NODES * Tree::NODE_BYTES;

const THREAD_MARGIN: usize = 1 << 20;

/// Bytes the process holds besides the search tree: what it held when the first engine
/// asked (the code, the model's tables, the network's weights), and room for the
/// threads, GTP's strings and the network's buffers (each worker's, and the evaluating
/// thread's).
fn fixed_memory(config: &EngineConfig) -> usize {
    let at_start = memory_at_start(config);
    let threads = config.threads.max(1);
    // The buffers of the largest size the network is used on.
    let largest = (2..=19)
        .rev()
        .find(|&n| NetworkSizes::on(config.network_sizes, n));
    let network = config.network.as_deref().and_then(|n| n.for_size(largest?));
    let network = network.map_or(0, |n| {
        threads * n.scratch_bytes(1) + n.scratch_bytes(crate::search::network_priors::BATCH)
    });
    at_start + WORKING_MARGIN + THREAD_MARGIN * threads + network
}

/// What the process held when first asked, the model's shape table counted whole even
/// when it is not built yet (it is asked before the resident set is read).
fn memory_at_start(config: &EngineConfig) -> usize {
    static AT_START: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *AT_START.get_or_init(|| {
        let pending = config
            .knowledge
            .as_deref()
            .filter(|m| !m.is_prepared())
            .map_or(0, Model::table_bytes);
        // Where the system does not say, what a release build holds on Linux, doubled.
        resident_bytes().unwrap_or(140 << 20) + pending
    })
}

/// Builds the model's shape table on a thread of its own, so that the engine answers
/// at once (about 0.2 s of start-up otherwise); a move that needs the table first waits
/// for it. The memory is taken before the thread starts, so that `--max-memory` does not
/// depend on how far it got.
pub fn prepare_in_background(config: &EngineConfig) {
    memory_at_start(config);
    if let Some(model) = config.knowledge.clone() {
        std::thread::spawn(move || model.prepare());
    }
}

/// The resident set size of this process (from Linux's /proc; `None` elsewhere).
fn resident_bytes() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib << 10)
}

/// The nodes the search tree may hold so that the whole process stays within
/// `--max-memory`: half of what the fixed part leaves, because tree reuse copies the
/// subtree it keeps before it drops the old tree, and both are held for that moment.
/// Whole chunks, since a tree allocates a chunk at a time.
pub fn tree_nodes(config: &EngineConfig) -> usize {
    let limit = config.max_memory_mb << 20;
    let chunks = limit.saturating_sub(fixed_memory(config)) / 2 / Tree::MIN_BYTES;
    chunks.max(1) * (Tree::MIN_BYTES / Tree::NODE_BYTES)
}

/// Checks at start that `--max-memory` leaves room for a tree that can search.
pub fn check_memory(config: &EngineConfig) -> Result<(), String> {
    let fixed = fixed_memory(config);
    let needed = fixed + 2 * Tree::MIN_BYTES;
    let mib = |bytes: usize| bytes.div_ceil(1 << 20);
    if config.max_memory_mb << 20 < needed {
        return Err(format!(
            "--max-memory {} MiB is too small: the engine holds {} MiB besides its search tree \
             and needs at least {} MiB",
            config.max_memory_mb,
            mib(fixed),
            mib(needed)
        ));
    }
    Ok(())
}
