//! The transposition table: lockless, bucketed, verified, aged.
//!
//! # Layout
//! The table is a vector of 64-byte buckets of four entries. An entry is two `AtomicU64`s:
//! `check = hash ^ data` and `data`, packed as
//!
//! ```text
//!  bit 63   59 58 57 56      50 49          34 33          18 17        0
//!     | age  |bound|  depth   |  static eval  |    score     |    move    |
//!        5     2       7            16              16             18
//! ```
//! A hash selects a bucket by multiply-shift (so any size works, not only powers of two).
//!
//! # Races
//! Threads read and write entries with relaxed atomics and no locks (Lazy SMP shares this table).
//! Two threads writing one entry at once can leave `check` from one write and `data` from the
//! other; the XOR check then fails and the entry reads as a miss, so a torn entry is never used.
//! A stored move can still belong to a colliding position with the same 64-bit hash; callers
//! check it for legality before playing it.
//!
//! # Replacement
//! A store goes to the entry already holding the same position if there is one, and replaces it
//! unless it is from this search and deeper (by more than 2) than the new, inexact result.
//! Otherwise it evicts the entry of least worth, `depth - 8 × age`, where `age` is how many
//! searches ago it was written. [`TranspositionTable::new_search`] advances the age.

use super::game::SearchMove;
use crate::score::Score;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (all moves failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit<M> {
    /// The best or refuting move, if one was stored.
    pub mv: Option<M>,
    /// The score, already adjusted to the probing node's distance from the root.
    pub score: Score,
    /// The static evaluation stored with it.
    pub eval: i16,
    /// The remaining depth of the search that stored it.
    pub depth: u8,
    /// How the score bounds the true value.
    pub bound: Bound,
}

struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket([Entry; 4]);

const AGE_BITS: u32 = 5;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;
const MAX_DEPTH: u8 = 127;

/// The bits of an entry that hold the move: every game's [`SearchMove::BITS`] fits in them.
pub const MOVE_FIELD_BITS: u32 = 18;

/// The entry's layout, low bits first: the move ([`MOVE_FIELD_BITS`]), the score and the static
/// evaluation (16 each), the depth (7), the bound (2) and the age.
const SCORE_SHIFT: u32 = MOVE_FIELD_BITS;
const EVAL_SHIFT: u32 = SCORE_SHIFT + 16;

fn pack<M: SearchMove>(
    mv: Option<M>,
    score: i16,
    eval: i16,
    depth: u8,
    bound: Bound,
    age: u8,
) -> u64 {
    const { assert!(M::BITS <= MOVE_FIELD_BITS) };
    mv.map_or(0, |m| m.bits() as u64)
        | (score as u16 as u64) << SCORE_SHIFT
        | (eval as u16 as u64) << EVAL_SHIFT
        | (depth.min(MAX_DEPTH) as u64) << 50
        | (bound as u64) << 57
        | ((age & AGE_MASK) as u64) << 59
}

fn move_of<M: SearchMove>(data: u64) -> Option<M> {
    M::from_bits(data as u32 & ((1 << MOVE_FIELD_BITS) - 1))
}

fn depth_of(data: u64) -> u8 {
    (data >> 50) as u8 & MAX_DEPTH
}

fn age_of(data: u64) -> u8 {
    (data >> 59) as u8 & AGE_MASK
}

fn bound_of(data: u64) -> Option<Bound> {
    match (data >> 57) & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

/// Starts loading the cache line holding `*at`; on processors other than x86-64 it does nothing.
#[inline(always)]
pub(super) fn prefetch_line<T>(at: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of every x86-64 processor, and a prefetch reads nothing and cannot
        // fault; the address is a live reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((at as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// Makes the C allocator serve every request of 1 MiB or more with its own memory mapping, so
/// that a freed table goes back to the system at once.
///
/// glibc's `malloc` maps large blocks itself, but after such a block is freed it raises that
/// threshold up to 32 MiB, and later tables below it come from the heap, which keeps their
/// pages after they are freed: a long-running `cairn ws` whose connections come and go with
/// tables of a few MiB each would hold on to memory it no longer uses. A fixed threshold turns
/// that adjustment off. Call it once at start-up, before other threads exist (the binary does).
/// Other C libraries (musl) and systems already return large blocks; there it does nothing.
pub fn return_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        /// glibc's `M_MMAP_THRESHOLD`.
        const M_MMAP_THRESHOLD: i32 = -3;
        // SAFETY: `mallopt` is glibc's documented tuning call with plain integer arguments; it
        // is made before any other thread of ours runs, as glibc asks of it.
        let _ = unsafe { mallopt(M_MMAP_THRESHOLD, 1 << 20) };
    }
}

/// Cache-line aligned buckets in lazily zeroed memory, on huge pages where the system has them.
///
/// The allocation is requested with 16-byte alignment so that the system allocator can satisfy
/// it with `calloc`, which maps zero pages on demand: even a table of gigabytes is ready at once
/// and costs memory only as it fills. (A 64-byte-aligned request would be zeroed eagerly, page by
/// page.) The bucket array starts at the first 64-byte boundary inside the allocation, or, for
/// a table of at least [`HUGE_PAGE`] bytes, at the first huge-page boundary.
///
/// Probes land on random buckets, so with ordinary 4 KiB pages nearly every probe of a table
/// larger than a few megabytes also misses the address-translation cache, and on a virtual
/// machine that page walk costs more than the memory access itself: the probe held up a fifth of
/// a 6×6 search's time in a profile, and prefetching the bucket only moved the stall. A large table therefore asks
/// Linux for transparent huge pages (`madvise(MADV_HUGEPAGE)`, which the default `madvise`
/// setting honours), so that the whole table needs a few dozen translations instead of
/// thousands. Where the request fails or the system has no such pages, nothing else changes.
struct Buckets {
    base: *mut u8,
    layout: std::alloc::Layout,
    first: *const Bucket,
    len: usize,
}

/// The size of a transparent huge page on x86-64 and most 64-bit Linux systems.
const HUGE_PAGE: usize = 2 << 20;

// SAFETY: the buckets are only read and written through atomics, so sharing and sending the
// table between threads is sound; `base` is owned and freed exactly once, in `drop`.
unsafe impl Send for Buckets {}
// SAFETY: as above: every access to the memory goes through `AtomicU64`.
unsafe impl Sync for Buckets {}

impl Buckets {
    fn new(len: usize) -> Result<Self, String> {
        let too_large = || format!("a table of {len} buckets is too large");
        let size = len
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or_else(too_large)?;
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let bytes = size.checked_add(align).ok_or_else(too_large)?;
        let layout = std::alloc::Layout::from_size_align(bytes, 16).map_err(|_| too_large())?;
        // SAFETY: the layout has a non-zero size (at least one bucket plus its alignment slack).
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        if base.is_null() {
            return Err(format!("out of memory for a {} MiB table", bytes >> 20));
        }
        let offset = base.align_offset(align);
        // SAFETY: `offset < align` and the allocation has `align` spare bytes, so `first` and
        // the `len` buckets after it lie inside the allocation.
        let first = unsafe { base.add(offset) };
        if align == HUGE_PAGE {
            advise_huge_pages(first, size);
        }
        Ok(Buckets {
            base,
            layout,
            first: first.cast::<Bucket>(),
            len,
        })
    }

    fn slice(&self) -> &[Bucket] {
        // SAFETY: `first` is (at least) 64-byte aligned and points at `len` buckets of
        // zero-initialised (or since written) memory owned by `self`; all-zero bytes are a valid
        // `Bucket`, as a bucket is only `AtomicU64`s, which have the representation of `u64`.
        unsafe { std::slice::from_raw_parts(self.first, self.len) }
    }
}

/// Asks Linux to back `size` bytes from `start` (a huge-page boundary) with huge pages. Only
/// advice: on failure, or on other systems, the memory keeps ordinary pages.
fn advise_huge_pages(start: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    {
        unsafe extern "C" {
            fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
        }
        /// Linux's `MADV_HUGEPAGE`.
        const MADV_HUGEPAGE: i32 = 14;
        // SAFETY: the range lies inside one live allocation of ours, and this advice changes
        // only how its pages are backed, never their contents.
        if unsafe { madvise(start, size, MADV_HUGEPAGE) } != 0 {
            log::debug!("transposition table: no huge pages (madvise refused)");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, size);
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: `base` was allocated with `layout` by the global allocator and is freed once.
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}

/// The largest table [`TranspositionTable::clear`] zeroes in place (a few milliseconds) rather
/// than replacing.
pub const CLEAR_IN_PLACE_MAX: usize = 256 << 20;

/// A shared, lockless transposition table.
pub struct TranspositionTable {
    buckets: Buckets,
    age: AtomicU8,
    /// No entry has been written since the table was made or cleared, so clearing it again
    /// has nothing to do. (`cairn bench` makes a table for each position and clears it for the
    /// new game: zeroing its 16 MiB in place, pages faulted in one by one, was a sixth of the
    /// bench's instructions.) Set false by the first store, a load of a line no one writes
    /// after that.
    untouched: AtomicBool,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket); falls back to one bucket if the
    /// memory cannot be had (see [`TranspositionTable::try_new`] to handle that instead).
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).unwrap_or_else(|e| {
            log::error!("{e}; using a minimal table");
            Self::try_new(0).expect("one bucket can be allocated")
        })
    }

    /// A table of about `mb` mebibytes (at least one bucket), or why it cannot be allocated.
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let count = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        Ok(TranspositionTable {
            buckets: Buckets::new(count)?,
            age: AtomicU8::new(0),
            untouched: AtomicBool::new(true),
        })
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len * std::mem::size_of::<Bucket>()
    }

    /// Empties the table. A table of up to [`CLEAR_IN_PLACE_MAX`] bytes is zeroed where it is:
    /// its pages stay mapped, so the next game does not fault them in again (each fault has the
    /// kernel zero a page, and under a hypervisor costs more than that: 8% of a 3-second 64 MiB
    /// search was the kernel clearing pages). A larger one gets a fresh lazily zeroed allocation,
    /// so that clearing costs nothing however large it is and memory is used only as it fills.
    pub fn clear(&mut self) {
        *self.age.get_mut() = 0;
        if std::mem::replace(self.untouched.get_mut(), true) {
            return;
        }
        if self.bytes() <= CLEAR_IN_PLACE_MAX {
            let first = self.buckets.first.cast_mut();
            // SAFETY: `&mut self` excludes every other access; the `len` buckets from `first`
            // lie in our allocation, and all-zero bytes are a valid (empty) bucket.
            unsafe { std::ptr::write_bytes(first, 0, self.buckets.len) };
            return;
        }
        match Buckets::new(self.buckets.len) {
            Ok(fresh) => self.buckets = fresh,
            Err(_) => {
                for entry in self.buckets.slice().iter().flat_map(|b| b.0.iter()) {
                    entry.check.store(0, Relaxed);
                    entry.data.store(0, Relaxed);
                }
            }
        }
    }

    /// Marks the start of a new search: older entries age and become cheaper to evict.
    pub fn new_search(&self) {
        let next = (self.age.load(Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Relaxed);
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let index = ((hash as u128 * self.buckets.len as u128) >> 64) as usize;
        &self.buckets.slice()[index]
    }

    /// Starts loading `hash`'s bucket into the cache, so that a probe made a little later does
    /// not wait for memory. A table larger than the caches misses on nearly every probe, and a
    /// node has work to do before its probe (its result, repetition and wins in one) that can
    /// overlap the load. It changes nothing else.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        prefetch_line(self.bucket(hash));
    }

    /// Looks `hash` up at a node `ply` plies from the root.
    pub fn probe<M: SearchMove>(&self, hash: u64, ply: u32) -> Option<TtHit<M>> {
        for entry in &self.bucket(hash).0 {
            let data = entry.data.load(Relaxed);
            if entry.check.load(Relaxed) ^ data != hash {
                continue;
            }
            let bound = bound_of(data)?;
            return Some(TtHit {
                mv: move_of(data),
                score: Score::from_tt((data >> SCORE_SHIFT) as u16 as i16, ply),
                eval: (data >> EVAL_SHIFT) as u16 as i16,
                depth: depth_of(data),
                bound,
            });
        }
        None
    }

    /// Stores a search result for `hash` at a node `ply` plies from the root.
    #[allow(clippy::too_many_arguments)]
    pub fn store<M: SearchMove>(
        &self,
        hash: u64,
        ply: u32,
        mv: Option<M>,
        score: Score,
        eval: i16,
        depth: u8,
        bound: Bound,
    ) {
        if self.untouched.load(Relaxed) {
            self.untouched.store(false, Relaxed);
        }
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(hash);
        let mut victim = &bucket.0[0];
        let mut worst = i32::MAX;
        for entry in &bucket.0 {
            let data = entry.data.load(Relaxed);
            if entry.check.load(Relaxed) ^ data == hash {
                let fresh = age_of(data) == age;
                if fresh && bound != Bound::Exact && depth_of(data) > depth.saturating_add(2) {
                    return;
                }
                // Keep the old move if the new result has none.
                let mv = mv.or_else(|| move_of(data));
                Self::write(
                    entry,
                    hash,
                    pack(mv, score.to_tt(ply), eval, depth, bound, age),
                );
                return;
            }
            let stale = (age.wrapping_sub(age_of(data)) & AGE_MASK) as i32;
            let worth = if data == 0 {
                i32::MIN
            } else {
                depth_of(data) as i32 - 8 * stale
            };
            if worth < worst {
                worst = worth;
                victim = entry;
            }
        }
        Self::write(
            victim,
            hash,
            pack(mv, score.to_tt(ply), eval, depth, bound, age),
        );
    }

    fn write(entry: &Entry, hash: u64, data: u64) {
        entry.check.store(hash ^ data, Relaxed);
        entry.data.store(data, Relaxed);
    }

    /// Permille of sampled entries written by the current search, for `info hashfull`.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.buckets.len.min(250);
        let used: usize = self.buckets.slice()[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|e| {
                let data = e.data.load(Relaxed);
                data != 0 && age_of(data) == age
            })
            .count();
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TestMove as Move;
    use crate::score::WinKind;

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1);
        let mv = Move(1234);
        tt.store(0xDEAD_BEEF, 3, Some(mv), Score(-250), -17, 9, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF, 3).unwrap();
        assert_eq!(hit.mv, Some(mv));
        assert_eq!(
            (hit.score, hit.eval, hit.depth, hit.bound),
            (Score(-250), -17, 9, Bound::Lower)
        );
        assert_eq!(tt.probe::<Move>(0xDEAD_BEEE, 3), None);
        // Proven scores move with the distance of the probing node.
        let win = Score::win_in(7, WinKind::Outright);
        tt.store::<Move>(42, 3, None, win, 0, 4, Bound::Exact);
        assert_eq!(
            tt.probe::<Move>(42, 1).unwrap().score,
            Score::win_in(5, WinKind::Outright)
        );
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn large_tables_start_on_a_huge_page_and_small_ones_on_a_cache_line() {
        let large = TranspositionTable::new(4);
        assert_eq!(large.buckets.first as usize % HUGE_PAGE, 0);
        assert_eq!(large.bytes(), 4 << 20);
        // Every bucket of it can be written and read back.
        let last = u64::MAX;
        large.store::<Move>(last, 0, Some(Move(7)), Score(3), 0, 5, Bound::Exact);
        large.store::<Move>(0, 0, Some(Move(9)), Score(4), 0, 5, Bound::Exact);
        assert_eq!(large.probe::<Move>(last, 0).unwrap().mv, Some(Move(7)));
        assert_eq!(large.probe::<Move>(0, 0).unwrap().mv, Some(Move(9)));
        let small = TranspositionTable::new(1);
        assert_eq!(small.buckets.first as usize % 64, 0);
    }

    #[test]
    fn clearing_empties_a_table_in_place_or_by_a_fresh_one() {
        // 4 MiB is zeroed in place (the same memory), 300 MiB gets a fresh allocation.
        for (mb, in_place) in [(4, true), (300, false)] {
            let mut tt = TranspositionTable::new(mb);
            assert_eq!(tt.bytes() <= CLEAR_IN_PLACE_MAX, in_place);
            // A table with nothing written is left as it is, however large.
            let made = tt.buckets.first;
            tt.clear();
            assert_eq!(tt.buckets.first, made);
            for key in [0, 12345, u64::MAX] {
                tt.store::<Move>(key, 0, Some(Move(5)), Score(8), 0, 6, Bound::Exact);
            }
            tt.new_search();
            let before = tt.buckets.first;
            tt.clear();
            assert_eq!(tt.buckets.first == before, in_place, "{mb} MiB");
            for key in [0, 12345, u64::MAX] {
                assert_eq!(tt.probe::<Move>(key, 0), None, "{mb} MiB, key {key}");
            }
            assert_eq!(tt.age.load(Relaxed), 0);
            assert_eq!(tt.hashfull(), 0);
            tt.store::<Move>(7, 0, Some(Move(3)), Score(1), 0, 2, Bound::Lower);
            assert_eq!(tt.probe::<Move>(7, 0).unwrap().mv, Some(Move(3)));
            // Written to after a clear, it is cleared again.
            tt.clear();
            assert_eq!(tt.probe::<Move>(7, 0), None, "{mb} MiB");
        }
    }

    #[test]
    fn buckets_evict_the_least_worth() {
        let tt = TranspositionTable::new(0); // one bucket
        for key in 1..=4u64 {
            tt.store::<Move>(key, 0, None, Score(1), 0, key as u8 * 10, Bound::Exact);
        }
        tt.store::<Move>(99, 0, None, Score(1), 0, 5, Bound::Exact);
        assert!(
            tt.probe::<Move>(1, 0).is_none(),
            "the shallowest entry goes"
        );
        assert!(tt.probe::<Move>(4, 0).is_some() && tt.probe::<Move>(99, 0).is_some());
    }
}
