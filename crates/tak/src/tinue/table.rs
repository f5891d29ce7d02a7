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

    /// A proven node `plies` from the road; `best` proves an attacker node (`Move::bits`).
    pub fn proven(plies: u32, best: u32) -> Numbers {
        Numbers {
            pn: 0,
            dn: INF,
            plies: plies.min(255) as u8,
            cut: false,
            best,
        }
    }

    /// A disproven node; `cut` if a depth limit played a part.
    pub fn disproven(cut: bool) -> Numbers {
        Numbers {
            pn: INF,
            dn: 0,
            plies: 0,
            cut,
            best: 0,
        }
    }
}

const WAYS: usize = 4;
/// Bytes per entry in the arrays.
const ENTRY_BYTES: usize = 28;

/// The table, stored as plain integer arrays so that allocating it is nearly free (zeroed
/// pages come from the system lazily): a solve with a small budget must not spend it on setup.
pub struct Table {
    keys: Vec<u64>,
    /// `pn | dn << 32`.
    numbers: Vec<u64>,
    /// `work | best << 32`.
    info: Vec<u64>,
    /// `depth | plies << 8 | cut << 16`.
    small: Vec<u32>,
    mask: usize,
}

impl Table {
    /// A table of about `mb` MiB (at least one bucket; the bucket count is a power of two).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let fit = (bytes / (WAYS * ENTRY_BYTES)).max(1);
        let buckets = if fit.is_power_of_two() {
            fit
        } else {
            fit.next_power_of_two() / 2
        };
        let n = buckets * WAYS;
        Table {
            keys: vec![0; n],
            numbers: vec![0; n],
            info: vec![0; n],
            small: vec![0; n],
            mask: buckets - 1,
        }
    }

    fn get(&self, i: usize) -> Entry {
        let (numbers, info, small) = (self.numbers[i], self.info[i], self.small[i]);
        Entry {
            key: self.keys[i],
            pn: numbers as u32,
            dn: (numbers >> 32) as u32,
            work: info as u32,
            best: (info >> 32) as u32,
            depth: small as u8,
            plies: (small >> 8) as u8,
            cut: small >> 16 & 1 != 0,
        }
    }

    fn set(&mut self, i: usize, e: Entry) {
        self.keys[i] = e.key;
        self.numbers[i] = e.pn as u64 | (e.dn as u64) << 32;
        self.info[i] = e.work as u64 | (e.best as u64) << 32;
        self.small[i] = e.depth as u32 | (e.plies as u32) << 8 | (e.cut as u32) << 16;
    }

    fn bucket(&self, key: u64) -> usize {
        ((key >> 17) as usize & self.mask) * WAYS
    }

    /// The numbers of `key` searched with `depth` plies left.
    pub fn lookup(&self, key: u64, depth: u32) -> Numbers {
        let start = self.bucket(key);
        let mut found = Numbers::UNKNOWN;
        for i in start..start + WAYS {
            if self.keys[i] != key {
                continue;
            }
            let e = self.get(i);
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

    /// Stores `numbers` for `key` at `depth` (always: the caller reads it back next): over the
    /// entry of the same key and depth, else an empty slot, else the least worked entry that is
    /// not a proof, else the least worked proof.
    pub fn store(&mut self, key: u64, depth: u32, numbers: Numbers, work: u32) {
        let start = self.bucket(key);
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
        let bucket: [Entry; WAYS] = std::array::from_fn(|i| self.get(start + i));
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
        self.set(start + slot, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proof(plies: u32) -> Numbers {
        Numbers::proven(plies, 7)
    }

    fn disproof(cut: bool) -> Numbers {
        Numbers::disproven(cut)
    }

    #[test]
    fn results_carry_over_depths_only_where_true() {
        let mut table = Table::new(1);
        // A road in 5 answers 5 plies or more, not 3.
        table.store(11, 7, proof(5), 1);
        assert_eq!(table.lookup(11, 9), proof(5));
        assert_eq!(table.lookup(11, 5), proof(5));
        assert_eq!(table.lookup(11, 3), Numbers::UNKNOWN);
        // A disproof a depth limit cut short answers shallower queries only.
        table.store(22, 5, disproof(true), 1);
        assert_eq!(table.lookup(22, 3), disproof(true));
        assert_eq!(table.lookup(22, 7), Numbers::UNKNOWN);
        // One without a cut answers every depth.
        table.store(33, 5, disproof(false), 1);
        assert_eq!(table.lookup(33, 31), disproof(false));
        // Open numbers answer the same depth only.
        let open = Numbers {
            pn: 3,
            dn: 4,
            ..Numbers::UNKNOWN
        };
        table.store(44, 5, open, 1);
        assert_eq!(table.lookup(44, 5), open);
        assert_eq!(table.lookup(44, 7), Numbers::UNKNOWN);
        assert_eq!(table.lookup(55, 5), Numbers::UNKNOWN);
    }

    #[test]
    fn a_full_bucket_keeps_proofs_over_open_entries() {
        let mut table = Table::new(1);
        let stride = (table.mask as u64 + 1) << 17;
        let open = Numbers {
            pn: 2,
            dn: 2,
            ..Numbers::UNKNOWN
        };
        // Five keys in one bucket of four: the proof (with the least work) stays.
        table.store(1, 3, proof(3), 1);
        for k in 1..5u64 {
            table.store(1 + k * stride, 3, open, 100 + k as u32);
        }
        assert_eq!(table.lookup(1, 3), proof(3));
        assert_eq!(table.lookup(1 + stride, 3), Numbers::UNKNOWN);
        assert_eq!(table.lookup(1 + 4 * stride, 3), open);
    }
}
