//! What a player's road pieces add up to: their groups, whether they already make a road, and
//! which squares touch each edge's part of the road.
//!
//! The game-end check, the road-in-one search and the evaluation all ask this of a node, and
//! they ask it again and again of the same bitboards: a placement leaves the opponent's road
//! pieces as they were, so the siblings under one node share them, and the check made after a
//! move has already met the mover's new road that the child's threat test and evaluation need.
//! So the answers are kept per thread in a small direct-mapped table keyed by the bitboard (and
//! the board size). Over `cairn bench` about nine lookups in ten are answered from it (245 k
//! misses), and a miss costs one flood per group, about what the four edge floods cost.

use std::cell::RefCell;

use super::Geo;

/// The groups of one road bitboard and how they lie against the edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roads {
    /// The road pieces these facts are about.
    key: u64,
    /// The board size they were worked out for (0 for an empty table entry).
    size: u8,
    /// Whether some group joins opposite edges: a road.
    pub connected: bool,
    /// The number of groups (orthogonally connected sets of road pieces).
    pub groups: u8,
    /// The smaller spans of the groups that span 2 or more files and 2 or more ranks, summed.
    pub minor: u8,
    /// Groups by span: the larger of the number of files and of ranks a group touches.
    pub spans: [u8; 9],
    /// For each edge (south, north, west, east): the edge and the squares next to the groups
    /// touching it. A square or segment meeting this mask touches that edge's part of the road.
    pub near: [u64; 4],
}

impl Roads {
    const EMPTY: Roads = Roads {
        key: 0,
        size: 0,
        connected: false,
        groups: 0,
        minor: 0,
        spans: [0; 9],
        near: [0; 4],
    };

    /// Squares that would complete a road if a road piece stood on them (occupied or not).
    #[inline(always)]
    pub fn completing(&self) -> u64 {
        let [south, north, west, east] = self.near;
        (south & north) | (west & east)
    }

    /// Works the facts out from the bitboard, one flood per group (kept out of line, so that the
    /// table lookup inlines into its callers).
    #[inline(never)]
    fn compute<const N: usize>(road: u64) -> Roads {
        let edges = [
            Geo::<N>::SOUTH,
            Geo::<N>::NORTH,
            Geo::<N>::WEST,
            Geo::<N>::EAST,
        ];
        let mut roads = Roads {
            key: road,
            size: N as u8,
            ..Roads::EMPTY
        };
        let mut floods = [0u64; 4];
        let mut rest = road;
        while rest != 0 {
            let group = Geo::<N>::flood(rest & rest.wrapping_neg(), road);
            rest &= !group;
            roads.groups += 1;
            let (files, ranks) = spans::<N>(group);
            roads.spans[files.max(ranks) as usize] += 1;
            if files.min(ranks) >= 2 {
                roads.minor += files.min(ranks) as u8;
            }
            let mut touches = [false; 4];
            for ((flood, edge), touch) in floods.iter_mut().zip(edges).zip(&mut touches) {
                if group & edge != 0 {
                    *flood |= group;
                    *touch = true;
                }
            }
            roads.connected |= (touches[0] && touches[1]) || (touches[2] && touches[3]);
        }
        for ((near, flood), edge) in roads.near.iter_mut().zip(floods).zip(edges) {
            *near = edge | Geo::<N>::dilate(flood);
        }
        roads
    }
}

/// Table entries: 64 KiB of 64-byte entries, within the second-level cache.
const TABLE_BITS: u32 = 10;

thread_local! {
    static TABLE: RefCell<[Roads; 1 << TABLE_BITS]> =
        const { RefCell::new([Roads::EMPTY; 1 << TABLE_BITS]) };
}

/// The facts about the road pieces `road` on an N×N board, from this thread's table when it
/// holds them.
#[inline(always)]
pub fn roads<const N: usize>(road: u64) -> Roads {
    let slot = (road.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize;
    TABLE.with(|table| {
        let mut table = table.borrow_mut();
        let entry = &mut table[slot];
        if entry.key != road || entry.size != N as u8 {
            *entry = Roads::compute::<N>(road);
        }
        *entry
    })
}

/// The number of files and of ranks a set of squares touches, without a loop over the ranks:
/// folding the ranks onto the first (at most eight ranks, so three folds) gives the files, and
/// adding each rank's lower `N - 1` bits to a rank of ones carries into its top bit exactly when
/// the rank is not empty (the sum stays inside the rank, so no carry crosses into the next).
#[inline(always)]
fn spans<const N: usize>(group: u64) -> (u32, u32) {
    let mut fold = group | group >> (4 * N);
    fold |= fold >> (2 * N);
    fold |= fold >> N;
    let files = (fold & Geo::<N>::SOUTH).count_ones();
    let low = Geo::<N>::BOARD & !Geo::<N>::EAST;
    let ranks = ((((group & low) + low) | group) & Geo::<N>::EAST).count_ones();
    (files, ranks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Bitboard;
    use cairn_search::rng::Rng;

    /// The facts worked out square by square: groups by a breadth-first walk, the edge floods
    /// from each edge, a road by the group's edges.
    fn by_squares<const N: usize>(road: u64) -> Roads {
        let mut roads = Roads {
            key: road,
            size: N as u8,
            ..Roads::EMPTY
        };
        let neighbours = |i: usize| {
            let (rank, file) = (i / N, i % N);
            let mut out = Vec::new();
            if rank > 0 {
                out.push(i - N);
            }
            if rank + 1 < N {
                out.push(i + N);
            }
            if file > 0 {
                out.push(i - 1);
            }
            if file + 1 < N {
                out.push(i + 1);
            }
            out
        };
        let mut seen = 0u64;
        let mut floods = [0u64; 4];
        for start in Bitboard(road) {
            if seen >> start.0 & 1 != 0 {
                continue;
            }
            let mut group = 0u64;
            let mut stack = vec![start.index()];
            while let Some(i) = stack.pop() {
                if group >> i & 1 != 0 || road >> i & 1 == 0 {
                    continue;
                }
                group |= 1 << i;
                stack.extend(neighbours(i));
            }
            seen |= group;
            roads.groups += 1;
            let (files, ranks) = spans_by_squares::<N>(group);
            roads.spans[files.max(ranks) as usize] += 1;
            if files.min(ranks) >= 2 {
                roads.minor += files.min(ranks) as u8;
            }
            let on = |i: usize| {
                let (rank, file) = (i / N, i % N);
                [rank == 0, rank == N - 1, file == 0, file == N - 1]
            };
            let mut touches = [false; 4];
            for sq in Bitboard(group) {
                for (t, o) in touches.iter_mut().zip(on(sq.index())) {
                    *t |= o;
                }
            }
            for (flood, touch) in floods.iter_mut().zip(touches) {
                if touch {
                    *flood |= group;
                }
            }
            roads.connected |= (touches[0] && touches[1]) || (touches[2] && touches[3]);
        }
        for (e, (near, flood)) in roads.near.iter_mut().zip(floods).enumerate() {
            for i in 0..N * N {
                let beside =
                    flood >> i & 1 != 0 || neighbours(i).iter().any(|&j| flood >> j & 1 != 0);
                let (rank, file) = (i / N, i % N);
                let edge = [rank == 0, rank == N - 1, file == 0, file == N - 1][e];
                if beside || edge {
                    *near |= 1 << i;
                }
            }
        }
        roads
    }

    fn agree<const N: usize>(rng: &mut Rng) {
        let board = Geo::<N>::BOARD;
        for _ in 0..3000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            for road in [a & b & board, a & board, (a | b) & board] {
                let want = by_squares::<N>(road);
                assert_eq!(Roads::compute::<N>(road), want, "{N}x{N}: {road:#x}");
                // Through the table: a first lookup fills it, a second reads it back.
                assert_eq!(roads::<N>(road), want, "{N}x{N}: {road:#x}");
                assert_eq!(roads::<N>(road), want, "{N}x{N}: {road:#x}");
                assert_eq!(want.connected, Geo::<N>::connects_edges(road));
            }
        }
    }

    /// The files and ranks a set touches, square by square.
    fn spans_by_squares<const N: usize>(set: u64) -> (u32, u32) {
        let (mut files, mut ranks) = (0u32, 0u32);
        for sq in Bitboard(set) {
            let (rank, file) = (sq.index() / N, sq.index() % N);
            files |= 1 << file;
            ranks |= 1 << rank;
        }
        (files.count_ones(), ranks.count_ones())
    }

    fn spans_agree<const N: usize>(rng: &mut Rng) {
        let board = Geo::<N>::BOARD;
        // Sparse, dense and full sets, and every single square and every full rank and file.
        let mut sets = vec![0, board];
        for i in 0..N * N {
            sets.push(1 << i);
        }
        for i in 0..N {
            sets.push(Geo::<N>::SOUTH << (i * N));
            sets.push(Geo::<N>::WEST << i);
        }
        for _ in 0..2000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            sets.extend([a & b & board, a & board, (a | b) & board]);
        }
        for set in sets {
            assert_eq!(
                spans::<N>(set),
                spans_by_squares::<N>(set),
                "{N}x{N}: {set:#x}"
            );
        }
    }

    #[test]
    fn spans_count_the_files_and_ranks_touched_at_every_size() {
        let mut rng = Rng::new(26);
        spans_agree::<3>(&mut rng);
        spans_agree::<4>(&mut rng);
        spans_agree::<5>(&mut rng);
        spans_agree::<6>(&mut rng);
        spans_agree::<7>(&mut rng);
        spans_agree::<8>(&mut rng);
    }

    #[test]
    fn road_facts_match_a_square_by_square_walk_at_every_size() {
        let mut rng = Rng::new(77);
        agree::<3>(&mut rng);
        agree::<4>(&mut rng);
        agree::<5>(&mut rng);
        agree::<6>(&mut rng);
        agree::<7>(&mut rng);
        agree::<8>(&mut rng);
    }

    #[test]
    fn one_bitboard_means_different_roads_on_different_boards() {
        // The same bits as a 5×5 west file and as part of a 6×6 board: the table must not hand
        // one size's facts to the other.
        let road = Geo::<5>::WEST;
        assert!(roads::<5>(road).connected);
        assert!(!roads::<6>(road).connected);
        assert!(roads::<5>(road).connected);
    }
}
