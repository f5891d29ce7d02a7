//! Where the labels of an evaluation graph go: each label is a box near its point that overlaps
//! neither the graph's line, nor a marker, nor a label placed before it.
//!
//! The placement is greedy and deterministic, in the labels' order (the plies'): for each label
//! the candidate boxes are tried nearest first (above the point, then below it, then shifted half
//! a box left or right, then one step further away, up to the whole height of the plot) and the
//! first free one inside the plot wins. When none is free (a crowded plot), the label takes the
//! candidate nearest its point that overlaps the fewest things, and says so.

/// A box in pixels, `y` growing downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rect {
    /// Left.
    pub(super) x0: f64,
    /// Top.
    pub(super) y0: f64,
    /// Right.
    pub(super) x1: f64,
    /// Bottom.
    pub(super) y1: f64,
}

impl Rect {
    /// The box of size `w` × `h` centred on (`cx`, `cy`).
    pub(super) fn centred(cx: f64, cy: f64, w: f64, h: f64) -> Rect {
        Rect {
            x0: cx - w / 2.0,
            y0: cy - h / 2.0,
            x1: cx + w / 2.0,
            y1: cy + h / 2.0,
        }
    }

    /// The box grown by `pad` on every side.
    fn grown(&self, pad: f64) -> Rect {
        Rect {
            x0: self.x0 - pad,
            y0: self.y0 - pad,
            x1: self.x1 + pad,
            y1: self.y1 + pad,
        }
    }

    /// Whether two boxes share any area.
    pub(super) fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    /// Whether the box lies inside `area`.
    fn inside(&self, area: &Rect) -> bool {
        self.x0 >= area.x0 && self.x1 <= area.x1 && self.y0 >= area.y0 && self.y1 <= area.y1
    }

    /// Whether the segment from `a` to `b` passes through the box (Liang–Barsky clipping).
    pub(super) fn crosses(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let mut t0: f64 = 0.0;
        let mut t1: f64 = 1.0;
        for (p, q) in [
            (-dx, a.0 - self.x0),
            (dx, self.x1 - a.0),
            (-dy, a.1 - self.y0),
            (dy, self.y1 - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
                if t0 > t1 {
                    return false;
                }
            }
        }
        true
    }

    /// The centre.
    pub(super) fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
}

/// One label to place: its point and its box's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Label {
    /// The point it names.
    pub(super) at: (f64, f64),
    /// Width.
    pub(super) w: f64,
    /// Height.
    pub(super) h: f64,
}

/// Where a label went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Placed {
    /// Its box.
    pub(super) rect: Rect,
    /// Whether the box overlaps nothing (false only in a plot too crowded for it).
    pub(super) free: bool,
}

/// The gap between a point and its nearest label box, pixels.
const GAP: f64 = 7.0;
/// How far each further candidate moves away, pixels.
const STEP: f64 = 6.0;
/// The clearance kept around the line and other labels, pixels.
const PAD: f64 = 2.0;

/// Places `labels` in `area`, avoiding the polyline `line`, the boxes `obstacles` (markers) and
/// each other; one [`Placed`] per label, in order.
pub(super) fn place(
    labels: &[Label],
    line: &[(f64, f64)],
    obstacles: &[Rect],
    area: Rect,
) -> Vec<Placed> {
    let mut placed: Vec<Placed> = Vec::with_capacity(labels.len());
    for label in labels {
        let clashes = |rect: &Rect| {
            let padded = rect.grown(PAD);
            let lines = line
                .windows(2)
                .filter(|s| padded.crosses(s[0], s[1]))
                .count();
            let boxes = obstacles
                .iter()
                .chain(placed.iter().map(|p| &p.rect))
                .filter(|o| padded.overlaps(o))
                .count();
            lines + boxes
        };
        let mut fallback: Option<(usize, Rect)> = None;
        let mut chosen = None;
        for rect in candidates(label, area) {
            let n = clashes(&rect);
            if n == 0 {
                chosen = Some(rect);
                break;
            }
            if fallback.is_none_or(|(m, _)| n < m) {
                fallback = Some((n, rect));
            }
        }
        placed.push(match (chosen, fallback) {
            (Some(rect), _) => Placed { rect, free: true },
            (None, Some((_, rect))) => Placed { rect, free: false },
            // No candidate fits the area at all: the box on the point.
            (None, None) => Placed {
                rect: Rect::centred(label.at.0, label.at.1, label.w, label.h),
                free: false,
            },
        });
    }
    placed
}

/// The candidate boxes of `label` inside `area`, nearest first.
fn candidates(label: &Label, area: Rect) -> impl Iterator<Item = Rect> + '_ {
    let (x, y) = label.at;
    let (w, h) = (label.w, label.h);
    let reach = (area.y1 - area.y0).max(0.0);
    let steps = (reach / STEP).ceil() as usize + 1;
    (0..steps).flat_map(move |step| {
        let d = GAP + step as f64 * STEP + h / 2.0;
        [0.0, -(w / 2.0 + GAP), w / 2.0 + GAP]
            .into_iter()
            .flat_map(move |dx| [-d, d].map(|dy| (dx, dy)))
            .filter_map(move |(dx, dy)| {
                // Kept inside the area sideways; a box past the top or bottom is no candidate.
                let cx = (x + dx).clamp(
                    area.x0 + w / 2.0,
                    (area.x1 - w / 2.0).max(area.x0 + w / 2.0),
                );
                let rect = Rect::centred(cx, y + dy, w, h);
                rect.inside(&area).then_some(rect)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic random walk of `n` points across `area`, as an evaluation graph moves,
    /// and a label on every `every`-th point.
    fn crowded(n: usize, every: usize, seed: u64) -> (Vec<(f64, f64)>, Vec<Label>, Rect) {
        let area = Rect {
            x0: 60.0,
            y0: 70.0,
            x1: 940.0,
            y1: 470.0,
        };
        let mut state = seed;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as f64 / (1u64 << 31) as f64
        };
        let mut y = 270.0;
        let line: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let x = area.x0 + (area.x1 - area.x0) * i as f64 / (n - 1) as f64;
                y = (y + 80.0 * (next() - 0.5)).clamp(area.y0, area.y1);
                (x, y)
            })
            .collect();
        let labels = line
            .iter()
            .step_by(every)
            .map(|&at| Label {
                at,
                w: 8.0 * 9.0,
                h: 19.0,
            })
            .collect();
        (line, labels, area)
    }

    fn markers(labels: &[Label]) -> Vec<Rect> {
        labels
            .iter()
            .map(|l| Rect::centred(l.at.0, l.at.1, 10.0, 10.0))
            .collect()
    }

    #[test]
    fn labels_never_overlap_the_line_markers_or_each_other() {
        for seed in 0..20 {
            for (n, every) in [(40, 2), (80, 4), (120, 5), (30, 1)] {
                let (line, labels, area) = crowded(n, every, seed);
                let obstacles = markers(&labels);
                let placed = place(&labels, &line, &obstacles, area);
                assert_eq!(placed.len(), labels.len());
                for (i, p) in placed.iter().enumerate() {
                    assert!(p.free, "seed {seed}, {n}/{every}: label {i} found no room");
                    assert!(p.rect.inside(&area), "{p:?}");
                    for s in line.windows(2) {
                        assert!(!p.rect.crosses(s[0], s[1]), "label {i} on the line");
                    }
                    for o in &obstacles {
                        assert!(!p.rect.overlaps(o), "label {i} on a marker");
                    }
                    for q in &placed[..i] {
                        assert!(!p.rect.overlaps(&q.rect), "labels overlap: {p:?} {q:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_lone_label_sits_just_above_its_point() {
        let area = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 500.0,
            y1: 400.0,
        };
        let line = [(0.0, 300.0), (250.0, 300.0), (500.0, 300.0)];
        let label = Label {
            at: (250.0, 300.0),
            w: 60.0,
            h: 18.0,
        };
        let placed = place(&[label], &line, &[], area);
        assert!(placed[0].free);
        let (cx, cy) = placed[0].rect.centre();
        assert_eq!(cx, 250.0);
        assert_eq!(cy, 300.0 - GAP - 9.0);
        // The same input, the same places.
        assert_eq!(place(&[label], &line, &[], area), placed);
    }

    #[test]
    fn segments_through_or_beside_a_box() {
        let r = Rect {
            x0: 10.0,
            y0: 10.0,
            x1: 20.0,
            y1: 20.0,
        };
        assert!(r.crosses((0.0, 15.0), (30.0, 15.0)));
        assert!(r.crosses((12.0, 12.0), (13.0, 13.0)));
        assert!(r.crosses((0.0, 0.0), (30.0, 30.0)));
        assert!(!r.crosses((0.0, 25.0), (30.0, 25.0)));
        assert!(!r.crosses((0.0, 0.0), (5.0, 30.0)));
        assert!(!r.crosses((21.0, 0.0), (21.0, 30.0)));
    }
}
