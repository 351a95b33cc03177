//! The searches' worker threads: rayon pools built once per thread count and lent out,
//! so that a move does not start threads of its own, and a pool the system refuses is an
//! error for the caller to answer, not a panic.

use rayon::ThreadPool;
use std::fmt;
use std::ops::Deref;
use std::sync::{Mutex, PoisonError};

/// Pools not lent at the moment. Two searches at once (tests, the arbiter beside a
/// search) each get a pool of their own instead of queueing behind the other.
static IDLE: Mutex<Vec<ThreadPool>> = Mutex::new(Vec::new());

/// Idle pools of one size kept (two: a search and the arbiter beside it).
const IDLE_OF_A_SIZE: usize = 2;

/// Idle threads kept in all: a pool returned beyond this is let go (a benchmark's
/// thousand threads are not kept).
const IDLE_THREADS: usize = 256;

/// The system would not start a search's threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadsError {
    pub threads: usize,
    pub reason: String,
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot start {} search threads: {}",
            self.threads, self.reason
        )
    }
}

impl std::error::Error for ThreadsError {}

/// A pool of `threads` workers lent until dropped, then kept for the next search.
pub struct PoolLease {
    pool: Option<ThreadPool>,
}

impl Deref for PoolLease {
    type Target = ThreadPool;
    fn deref(&self) -> &ThreadPool {
        self.pool.as_ref().expect("held until dropped")
    }
}

impl Drop for PoolLease {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            let mut idle = IDLE.lock().unwrap_or_else(PoisonError::into_inner);
            let size = pool.current_num_threads();
            let same = idle
                .iter()
                .filter(|p| p.current_num_threads() == size)
                .count();
            let threads: usize = idle.iter().map(|p| p.current_num_threads()).sum();
            if same < IDLE_OF_A_SIZE && threads + size <= IDLE_THREADS {
                idle.push(pool);
            }
        }
    }
}

/// A pool of `threads` (at least 1) workers: an idle one of that size, or a new one.
pub fn lease(threads: usize) -> Result<PoolLease, ThreadsError> {
    let threads = threads.max(1);
    let idle = {
        let mut idle = IDLE.lock().unwrap_or_else(PoisonError::into_inner);
        let found = idle.iter().position(|p| p.current_num_threads() == threads);
        found.map(|k| idle.swap_remove(k))
    };
    let pool = match idle {
        Some(pool) => pool,
        None => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|k| format!("yeoul-search-{k}"))
            .build()
            .map_err(|e| ThreadsError {
                threads,
                reason: e.to_string(),
            })?,
    };
    Ok(PoolLease { pool: Some(pool) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The threads of a pool, as a sorted list of names for comparison.
    fn thread_ids(pool: &PoolLease) -> Vec<String> {
        let mut ids = pool.broadcast(|_| format!("{:?}", std::thread::current().id()));
        ids.sort();
        ids
    }

    #[test]
    fn a_pool_is_built_once_and_lent_again() {
        // A size no other test uses, so that the pools of tests running beside this one
        // do not interfere.
        let threads = 7;
        let first = lease(threads).expect("a pool");
        let second = lease(threads).expect("a pool");
        let (a, b) = (thread_ids(&first), thread_ids(&second));
        // Both lent at once: each its own threads.
        assert_eq!(a.len(), threads);
        assert_ne!(a, b);
        drop(second);
        drop(first);
        // Back from their leases: the same threads serve the next search.
        let again = thread_ids(&lease(threads).expect("a pool"));
        assert!(again == a || again == b, "a new pool was built");
    }

    #[test]
    fn the_error_names_the_threads_and_the_reason() {
        let error = ThreadsError {
            threads: 4,
            reason: "resource temporarily unavailable".into(),
        };
        assert_eq!(
            error.to_string(),
            "cannot start 4 search threads: resource temporarily unavailable"
        );
    }
}
