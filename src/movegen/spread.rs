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
    let (start, len) = TABLES.normal[carry][distance];
    &TABLES.masks[start as usize..start as usize + len as usize]
}

/// Drop masks of the spreads that cross `distance` open squares and flatten the wall after them.
#[inline(always)]
pub fn crush(carry: usize, distance: usize) -> &'static [u8] {
    let (start, len) = TABLES.crush[carry][distance];
    &TABLES.masks[start as usize..start as usize + len as usize]
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
}
