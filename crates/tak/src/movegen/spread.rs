//! Precomputed drop patterns, indexed by carry limit and free distance.
//!
//! For a stack that may carry up to `c` pieces (`min(height, N)`) toward `d` open squares (empty
//! or flat-topped, before the edge, a capstone or a wall), the legal spreads are exactly the drop
//! masks (see `board::moves`) carrying at most `c` pieces over at most `d` squares. If the next
//! square after those `d` is a wall and the moving top is a capstone, the *crush* spreads add
//! those that cross all `d` squares and drop the capstone alone on the wall: `d + 1` squares, the
//! last drop being 1. Both lists, and their lengths (used to count moves in bulk), are built at
//! compile time.

/// Largest carry limit (8×8).
const MAX_CARRY: usize = 8;
/// Largest free distance (8×8: 7 squares to the edge).
const MAX_DISTANCE: usize = 7;

const fn carried(mask: u32) -> u32 {
    32 - mask.leading_zeros()
}

const fn is_normal(mask: u32, carry: usize, distance: usize) -> bool {
    carried(mask) as usize <= carry && mask.count_ones() as usize <= distance
}

const fn is_crush(mask: u32, carry: usize, distance: usize) -> bool {
    let k = carried(mask);
    let last_is_single = k == 1 || (mask >> (k - 2)) & 1 == 1;
    k as usize <= carry && mask.count_ones() as usize == distance + 1 && last_is_single
}

const fn total_len() -> usize {
    let mut total = 0;
    let mut c = 1;
    while c <= MAX_CARRY {
        let mut d = 0;
        while d <= MAX_DISTANCE {
            let mut mask = 1;
            while mask < 256 {
                total += is_normal(mask, c, d) as usize + is_crush(mask, c, d) as usize;
                mask += 1;
            }
            d += 1;
        }
        c += 1;
    }
    total
}

const TOTAL: usize = total_len();

/// Every list, back to back, with `(start, len)` per `[carry][distance]`.
struct Tables {
    masks: [u8; TOTAL],
    normal: [[(u16, u16); MAX_DISTANCE + 1]; MAX_CARRY + 1],
    crush: [[(u16, u16); MAX_DISTANCE + 1]; MAX_CARRY + 1],
}

const fn qualifies(mask: u32, carry: usize, distance: usize, crush: bool) -> bool {
    if crush {
        is_crush(mask, carry, distance)
    } else {
        is_normal(mask, carry, distance)
    }
}

/// Appends the masks of one list at `at`; returns `(start, len)` and the next free index.
const fn append(
    t: &mut Tables,
    at: usize,
    carry: usize,
    distance: usize,
    crush: bool,
) -> ((u16, u16), usize) {
    let mut end = at;
    let mut mask = 1;
    while mask < 256 {
        if qualifies(mask, carry, distance, crush) {
            t.masks[end] = mask as u8;
            end += 1;
        }
        mask += 1;
    }
    ((at as u16, (end - at) as u16), end)
}

const fn build() -> Tables {
    let mut t = Tables {
        masks: [0; TOTAL],
        normal: [[(0, 0); MAX_DISTANCE + 1]; MAX_CARRY + 1],
        crush: [[(0, 0); MAX_DISTANCE + 1]; MAX_CARRY + 1],
    };
    let mut at = 0;
    let mut c = 1;
    while c <= MAX_CARRY {
        let mut d = 0;
        while d <= MAX_DISTANCE {
            let (range, next) = append(&mut t, at, c, d, false);
            t.normal[c][d] = range;
            let (range, next) = append(&mut t, next, c, d, true);
            t.crush[c][d] = range;
            at = next;
            d += 1;
        }
        c += 1;
    }
    t
}

static TABLES: Tables = build();

/// Drop masks of the ordinary spreads carrying at most `carry` over at most `distance` squares.
#[inline(always)]
pub fn normal(carry: usize, distance: usize) -> &'static [u8] {
    part(&TABLES.masks, TABLES.normal[carry][distance])
}

/// The `(start, len)` part of `masks`.
#[inline(always)]
fn part(masks: &'static [u8], (start, len): (u16, u16)) -> &'static [u8] {
    &masks[start as usize..start as usize + len as usize]
}

/// Drop masks of the spreads that cross `distance` open squares and flatten the wall after them.
#[inline(always)]
pub fn crush(carry: usize, distance: usize) -> &'static [u8] {
    part(&TABLES.masks, TABLES.crush[carry][distance])
}

/// Every drop mask, grouped by the number of squares it covers (its bits), in increasing order
/// within a group, with `(start, len)` per `[carry][squares]`: the masks of a group carrying at
/// most `carry` pieces are those below `1 << carry`, a prefix of the group.
struct ByCover {
    masks: [u8; 255],
    ranges: [[(u16, u16); MAX_CARRY + 1]; MAX_CARRY + 1],
}

const fn by_cover() -> ByCover {
    let mut t = ByCover {
        masks: [0; 255],
        ranges: [[(0, 0); MAX_CARRY + 1]; MAX_CARRY + 1],
    };
    let mut at = 0;
    let mut squares = 1;
    while squares <= MAX_CARRY {
        let start = at;
        let mut mask = 1u32;
        while mask < 256 {
            if mask.count_ones() as usize == squares {
                t.masks[at] = mask as u8;
                at += 1;
            }
            mask += 1;
        }
        let mut carry = 1;
        while carry <= MAX_CARRY {
            let mut len = 0;
            while start + len < at && (t.masks[start + len] as u32) < 1 << carry {
                len += 1;
            }
            t.ranges[carry][squares] = (start as u16, len as u16);
            carry += 1;
        }
        squares += 1;
    }
    t
}

static BY_COVER: ByCover = by_cover();

/// Drop masks of the ordinary spreads carrying at most `carry` pieces over exactly `squares`
/// squares (the spreads among [`normal`] that cover that many), in increasing order.
#[inline(always)]
pub fn covering(carry: usize, squares: usize) -> &'static [u8] {
    part(&BY_COVER.masks, BY_COVER.ranges[carry][squares])
}

/// `normal(carry, distance).len()`.
#[inline(always)]
pub fn normal_count(carry: usize, distance: usize) -> u32 {
    TABLES.normal[carry][distance].1 as u32
}

/// `crush(carry, distance).len()`.
#[inline(always)]
pub fn crush_count(carry: usize, distance: usize) -> u32 {
    TABLES.crush[carry][distance].1 as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_compositions() {
        // Spreads per direction with carry c over d squares = sum over k <= c of the number of
        // compositions of k into at most d parts (peer-engines P.4 identity).
        assert_eq!(normal_count(6, 5), 62);
        assert_eq!(normal_count(6, 4), 56);
        assert_eq!(normal_count(6, 3), 41);
        assert_eq!(normal_count(6, 2), 21);
        assert_eq!(normal_count(6, 1), 6);
        assert_eq!(normal_count(8, 7), 254);
        assert_eq!(normal_count(3, 0), 0);
        // A lone capstone next to a wall: one crush; carry 3 over 1 open square: 2+1, 1+1... only
        // those whose last drop is 1 and which use exactly 2 squares: (1,1) and (2,1).
        assert_eq!(crush(1, 0), &[0b1]);
        assert_eq!(crush(3, 1), &[0b011, 0b110]);
    }

    #[test]
    fn covering_splits_normal_by_squares() {
        // Carry 3 over 2 squares: the drops (1,1), (1,2), (2,1) carrying 2 or 3 pieces.
        assert_eq!(covering(3, 2), &[0b011, 0b101, 0b110]);
        assert_eq!(covering(1, 1), &[0b1]);
        assert!(covering(2, 3).is_empty());
        // Over every carry and distance, the lists for 1..=distance squares are `normal`'s
        // masks exactly, each once: C(carry, squares) of them.
        for carry in 1..=MAX_CARRY {
            for distance in 0..=MAX_DISTANCE {
                let mut split: Vec<u8> = (1..=distance.min(MAX_CARRY))
                    .flat_map(|squares| covering(carry, squares).iter().copied())
                    .collect();
                split.sort_unstable();
                assert_eq!(
                    split,
                    normal(carry, distance),
                    "carry {carry}, distance {distance}"
                );
            }
            for squares in 1..=carry {
                let binomial = (0..squares).fold(1, |b, i| b * (carry - i) / (i + 1));
                assert_eq!(covering(carry, squares).len(), binomial);
            }
        }
    }
}
