//! The prover's transposition table: bounded, allocated once per solve, buckets of four.
//!
//! An entry holds proof and disproof numbers for a position searched with a given number of
//! plies left. Results carry over between depths where they stay true: a proof of a road in `p`
//! plies answers every query with at least `p` plies left, and a disproof that no depth limit
//! cut short (`cut == false`) answers every query.

/// Proof and disproof numbers are capped here ("infinite").
pub const INF: u32 = u32::MAX / 2;

/// One stored node.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// Zobrist hash of the position (0 marks an empty slot).
    pub key: u64,
    /// Proof number.
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// Work spent on the node (nodes searched below it), for replacement.
    pub work: u32,
    /// For a proof, the move that proves an attacker node (`Move::bits`); else 0.
    pub best: u32,
    /// Plies left when the entry was searched.
    pub depth: u8,
    /// For a proof: plies to the road.
    pub plies: u8,
    /// For a disproof: whether a depth limit played a part in it.
    pub cut: bool,
}

/// What a lookup answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// Proof number (0: proven).
    pub pn: u32,
    /// Disproof number (0: disproven).
    pub dn: u32,
    /// For a proof: plies to the road.
    pub plies: u8,
    /// For a disproof: whether a depth limit played a part.
    pub cut: bool,
    /// For a proven attacker node: the proving move's bits (0 if unknown).
    pub best: u32,
}

impl Numbers {
    /// Numbers of a node never searched.
    pub const UNKNOWN: Numbers = Numbers {
        pn: 1,
        dn: 1,
        plies: 0,
        cut: false,
        best: 0,
    };
}

const WAYS: usize = 4;

/// The table.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `mb` MiB (at least one bucket; the bucket count is a power of two).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let fit = (bytes / (WAYS * std::mem::size_of::<Entry>())).max(1);
        let buckets = if fit.is_power_of_two() {
            fit
        } else {
            fit.next_power_of_two() / 2
        };
        Table {
            entries: vec![Entry::default(); buckets * WAYS],
            mask: buckets - 1,
        }
    }

    fn bucket(&self, key: u64) -> usize {
        ((key >> 17) as usize & self.mask) * WAYS
    }

    /// The numbers of `key` searched with `depth` plies left.
    pub fn lookup(&self, key: u64, depth: u32) -> Numbers {
        let start = self.bucket(key);
        let mut found = Numbers::UNKNOWN;
        for e in &self.entries[start..start + WAYS] {
            if e.key != key {
                continue;
            }
            if e.pn == 0 && e.plies as u32 <= depth {
                return Numbers {
                    pn: 0,
                    dn: INF,
                    plies: e.plies,
                    cut: false,
                    best: e.best,
                };
            }
            if e.dn == 0 && (!e.cut || e.depth as u32 >= depth) {
                return Numbers {
                    pn: INF,
                    dn: 0,
                    plies: 0,
                    cut: e.cut,
                    best: 0,
                };
            }
            if e.depth as u32 == depth && e.pn != 0 && e.dn != 0 {
                found = Numbers {
                    pn: e.pn,
                    dn: e.dn,
                    plies: 0,
                    cut: false,
                    best: 0,
                };
            }
        }
        found
    }

    /// Stores `numbers` for `key` at `depth` (always: the caller reads it back next).
    pub fn store(&mut self, key: u64, depth: u32, numbers: Numbers, work: u32) {
        let start = self.bucket(key);
        let bucket = &mut self.entries[start..start + WAYS];
        let entry = Entry {
            key,
            pn: numbers.pn,
            dn: numbers.dn,
            work,
            best: numbers.best,
            depth: depth.min(255) as u8,
            plies: numbers.plies,
            cut: numbers.cut,
        };
        // The entry of the same key and depth, else an empty slot, else the least worked
        // entry that is not a proof, else the least worked proof.
        let slot = bucket
            .iter()
            .position(|e| e.key == key && e.depth == entry.depth && e.pn != 0)
            .unwrap_or_else(|| {
                (0..WAYS)
                    .min_by_key(|&i| {
                        let e = &bucket[i];
                        (e.key != 0, e.pn == 0, e.work)
                    })
                    .unwrap_or(0)
            });
        bucket[slot] = entry;
    }
}
