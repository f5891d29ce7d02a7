//! A search worker's cache of raw static evaluations, by position hash.
//!
//! The transposition table stores no horizon nodes, so every iteration of a search evaluated
//! the leaves of the last one again: on three 6×6 bench middlegames searched to depth 12,
//! between a third and two fifths of the static evaluations repeated one made earlier in the
//! same search. A direct-mapped cache of 2^17 entries (1 MiB) answers about three in ten of all
//! of them (2^16 entries: 28–30%; 2^18: 34–37%, but slower). It is larger than the second-level
//! cache, so a node asks for its slot on entry ([`EvalCache::prefetch`]), as it does for its
//! table bucket, and the load overlaps the node's first checks.
//!
//! Each worker owns one for one search: the evaluation depends on nothing the hash leaves out
//! (the komi and the weights are fixed for the search), and no thread shares it.
//!
//! **Its memory is kept for the next search.** A fresh 1 MiB block comes from the system as
//! untouched pages, and the first write to each page faults. Searches of a few thousand nodes
//! (self-play data at 8,000 nodes a move, `cairn match --nodes`) then spent about a sixth of
//! their time in page faults and unmapping (by `perf` on `tune generate`). So a dropped cache
//! hands its block to a process-wide pool of spares, and a new cache clears a spare and takes it.
//! The pool is shared rather than per thread because the TEI engine starts a thread for each
//! search; it holds at most as many blocks as there were caches alive at once. Clearing keeps
//! every search exactly as it was: nothing crosses from one search to the next, whatever changed
//! between them (the weights, the komi, the board size).

use crate::score::Score;
use std::sync::Mutex;

/// Entries: 1 MiB.
const ENTRIES: usize = 1 << 17;

/// Raw static evaluations by position hash.
pub struct EvalCache {
    /// Each entry is the hash's upper half (the tag) above the score; the slot comes from the
    /// hash's lower bits, so a hit means that 17 + 32 bits of the hash agree. An empty slot (0)
    /// never hits: a score of 0 under a tag of 0 is simply evaluated again.
    slots: Box<[u64]>,
}

/// Blocks of dropped caches, for the next ones (see the module doc).
static SPARES: Mutex<Vec<Box<[u64]>>> = Mutex::new(Vec::new());

impl Default for EvalCache {
    fn default() -> Self {
        let spare = SPARES.lock().ok().and_then(|mut spares| spares.pop());
        let slots = match spare {
            Some(mut slots) => {
                slots.fill(0);
                slots
            }
            None => vec![0; ENTRIES].into_boxed_slice(),
        };
        EvalCache { slots }
    }
}

impl Drop for EvalCache {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        if let Ok(mut spares) = SPARES.lock() {
            spares.push(slots);
        }
    }
}

impl EvalCache {
    #[inline(always)]
    fn slot(&self, hash: u64) -> usize {
        hash as usize & (ENTRIES - 1)
    }

    /// Starts loading `hash`'s slot into the cache (see the module doc).
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        super::tt::prefetch_line(&self.slots[self.slot(hash)]);
    }

    /// The evaluation of the position with `hash`, made by `evaluate` unless the cache has it.
    #[inline(always)]
    pub fn get_or(&mut self, hash: u64, evaluate: impl FnOnce() -> Score) -> Score {
        let slot = self.slot(hash);
        let entry = &mut self.slots[slot];
        let tag = hash >> 32;
        if *entry != 0 && *entry >> 32 == tag {
            return Score(*entry as u32 as i32);
        }
        let eval = evaluate();
        *entry = tag << 32 | eval.0 as u32 as u64;
        eval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_score_comes_back_only_for_its_own_hash() {
        let mut cache = EvalCache::default();
        let calls = std::cell::Cell::new(0);
        let eval = |hash: u64, score: i32, cache: &mut EvalCache| {
            cache.get_or(hash, || {
                calls.set(calls.get() + 1);
                Score(score)
            })
        };
        let hash = 0x1234_5678_9abc_def0;
        assert_eq!(eval(hash, -321, &mut cache), Score(-321));
        assert_eq!(eval(hash, 999, &mut cache), Score(-321));
        // The same slot under another tag replaces the entry; so does another slot's hash.
        let rival = hash ^ 1 << 40;
        assert_eq!(eval(rival, 55, &mut cache), Score(55));
        assert_eq!(eval(hash, 77, &mut cache), Score(77));
        // Negative and extreme scores survive the packing.
        for (i, score) in [i32::MIN / 2, -1, 0, 1, 20_000].into_iter().enumerate() {
            let h = (i as u64 + 1) << 32 | 5;
            assert_eq!(eval(h, score, &mut cache), Score(score));
            assert_eq!(eval(h, score + 1, &mut cache), Score(score), "{score}");
        }
        // A zero score under a zero tag is not mistaken for an empty slot's answer, nor kept.
        assert_eq!(eval(7, 0, &mut cache), Score(0));
        assert_eq!(eval(7, 3, &mut cache), Score(3));
        // Evaluated: hash, rival, hash again, the five scores once each, and 7 twice.
        assert_eq!(calls.get(), 10);
    }

    #[test]
    fn a_new_cache_after_an_old_one_starts_empty() {
        let hash = 0x0bad_cafe_0000_0042;
        let mut old = EvalCache::default();
        assert_eq!(old.get_or(hash, || Score(12)), Score(12));
        drop(old);
        // The new cache may take the old one's block: the entry must be gone, not answered.
        let mut new = EvalCache::default();
        assert_eq!(new.get_or(hash, || Score(-5)), Score(-5));
        assert_eq!(new.get_or(hash, || Score(99)), Score(-5));
        // Two live caches share nothing.
        let mut other = EvalCache::default();
        assert_eq!(other.get_or(hash, || Score(7)), Score(7));
        assert_eq!(new.get_or(hash, || Score(99)), Score(-5));
    }
}
