//! Depth-first proof-number search (df-pn, the MID scheme with threshold passing) over the
//! threat-restricted game tree. See the [module documentation](super) for the move sets.

use super::table::{Numbers, Table, INF};
use super::{TinueLimits, TinueOutcome, TinueResult};
use crate::board::{Color, GameResult, Move, Position, Role};
use crate::movegen::MoveList;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// A child of the node being searched: its move and the hash of the position it leads to.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    hash: u64,
}

/// What expanding a node found.
enum Expansion {
    /// The node is decided without looking at children.
    Solved(Numbers),
    /// The children are in `children[ply]`.
    Open,
}

/// One solve: the position, the table and the per-ply buffers, all allocated up front.
struct Prover<'a, const N: usize> {
    pos: Position<N>,
    attacker: Color,
    table: Table,
    children: Vec<Vec<Child>>,
    scratch: Vec<MoveList>,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
}

/// Runs the prover; see [`super::solve`].
pub fn solve<const N: usize>(
    pos: &Position<N>,
    limits: &TinueLimits,
    stop: &AtomicBool,
) -> TinueResult {
    let start = Instant::now();
    let done = |outcome, nodes| TinueResult {
        outcome,
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
    };
    if pos.is_over() || limits.max_depth == 0 {
        return done(TinueOutcome::Disproven, 0);
    }
    if let Some(mv) = pos.winning_move() {
        return done(
            TinueOutcome::Proven {
                plies: 1,
                pv: vec![mv],
            },
            1,
        );
    }
    let max_depth = limits.max_depth.min(250);
    let plies = max_depth as usize + 2;
    let mut prover = Prover {
        pos: pos.clone(),
        attacker: pos.side_to_move(),
        table: Table::new(limits.hash_mb),
        children: (0..plies).map(|_| Vec::with_capacity(256)).collect(),
        scratch: (0..plies).map(|_| MoveList::new()).collect(),
        nodes: 0,
        max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
        deadline: limits.deadline,
        stop,
        aborted: false,
    };
    let mut depth = 3;
    while depth <= max_depth {
        let numbers = prover.mid(0, depth, INF, INF);
        if prover.aborted {
            break;
        }
        if numbers.pn == 0 {
            let mut pv = Vec::with_capacity(numbers.plies as usize);
            prover.principal_variation(0, numbers.plies as u32, &mut pv);
            // A budget that runs out while the line is read cuts it short; its first move,
            // read from the proof, still wins.
            if pv.is_empty() {
                break;
            }
            return done(
                TinueOutcome::Proven {
                    plies: numbers.plies as u32,
                    pv,
                },
                prover.nodes,
            );
        }
        if !numbers.cut {
            // Disproven without any depth limit playing a part: no deeper search can help.
            break;
        }
        depth += 2;
    }
    let outcome = if prover.aborted {
        TinueOutcome::Unknown
    } else {
        TinueOutcome::Disproven
    };
    done(outcome, prover.nodes)
}

impl<const N: usize> Prover<'_, N> {
    /// Counts a node; sets `aborted` once a budget is spent. The clock and the stop flag are
    /// looked at on every node: expanding one tries every legal move with a road check, which on
    /// a large board with tall stacks (thousands of spreads) takes milliseconds, against tens of
    /// nanoseconds for the clock. A coarser check overran a 1 ms budget by 90 ms in a fast 8×8
    /// game and lost it on time.
    fn count(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.max_nodes
            || self.stop.load(Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Whether the attacker moves at this `ply` (the root is an attacker node).
    fn attacker_moves(ply: usize) -> bool {
        ply % 2 == 0
    }

    /// Fills `children[ply]` with the attacker's candidate moves: moves after which the attacker
    /// threatens a road and the defender cannot win at once. Decides the node if it can.
    fn expand_attacker(&mut self, ply: usize, depth: u32) -> Expansion {
        if let Some(mv) = self.pos.winning_move() {
            return Expansion::Solved(Numbers::proven(1, mv.bits()));
        }
        if depth < 3 || self.pos.is_opening() {
            return Expansion::Solved(Numbers::disproven(depth < 3));
        }
        let mut moves = std::mem::take(&mut self.scratch[ply]);
        moves.clear();
        self.pos.generate_moves(&mut moves);
        self.children[ply].clear();
        for &mv in &moves {
            // A wall is no road piece and blocks nothing of the defender's the attacker needs.
            if mv.role() == Some(Role::Wall) {
                continue;
            }
            let undo = self.pos.make(mv);
            let keep = !self.pos.is_over()
                && self.pos.winning_move_for(self.attacker).is_some()
                && !self.pos.can_win_in_one();
            if keep {
                let hash = self.pos.hash();
                self.children[ply].push(Child { mv, hash });
            }
            self.pos.unmake(mv, undo);
        }
        self.scratch[ply] = moves;
        if self.children[ply].is_empty() {
            return Expansion::Solved(Numbers::disproven(false));
        }
        Expansion::Open
    }

    /// Fills `children[ply]` with the defender's relevant defences: moves after which the
    /// attacker has no road in one. Decides the node if it can: a defence that ends the game
    /// without the attacker's road refutes, and so does any defence when too few plies are left.
    fn expand_defender(&mut self, ply: usize, depth: u32) -> Expansion {
        if self.pos.can_win_in_one() {
            return Expansion::Solved(Numbers::disproven(false));
        }
        let filter = self.pos.placement_defence_squares();
        let mut moves = std::mem::take(&mut self.scratch[ply]);
        moves.clear();
        self.pos.generate_moves(&mut moves);
        self.children[ply].clear();
        let mut result = Expansion::Open;
        for &mv in &moves {
            if let Some((_, guard, relevant)) = filter {
                let useful = if mv.is_placement() {
                    guard.contains(mv.square())
                } else {
                    spread_covers::<N>(mv, relevant.0)
                };
                if !useful {
                    continue;
                }
            }
            let undo = self.pos.make(mv);
            let outcome = match self.pos.result() {
                Some(GameResult::Road(c)) if c == self.attacker => None,
                // The defender's road, or a flat end: no road for the attacker.
                Some(_) => Some(Numbers::disproven(false)),
                None if self.pos.can_win_in_one() => None,
                // A real defence, and no time left to answer it.
                None if depth < 4 => Some(Numbers::disproven(true)),
                None => {
                    let hash = self.pos.hash();
                    self.children[ply].push(Child { mv, hash });
                    None
                }
            };
            self.pos.unmake(mv, undo);
            if let Some(numbers) = outcome {
                result = Expansion::Solved(numbers);
                break;
            }
        }
        self.scratch[ply] = moves;
        if matches!(result, Expansion::Open) && self.children[ply].is_empty() {
            // Every defender move allows a road: two plies to it at most.
            return Expansion::Solved(Numbers::proven(2, 0));
        }
        result
    }

    /// The MID procedure: searches the node at `ply` with `depth` plies left until its proof
    /// number reaches `th_pn` or its disproof number `th_dn`, and returns its numbers.
    fn mid(&mut self, ply: usize, depth: u32, th_pn: u32, th_dn: u32) -> Numbers {
        self.count();
        if self.aborted {
            // Out of budget: the node stays unexpanded (and unstored), and every caller returns.
            return Numbers::UNKNOWN;
        }
        let hash = self.pos.hash();
        let attacker = Self::attacker_moves(ply);
        let expansion = if attacker {
            self.expand_attacker(ply, depth)
        } else {
            self.expand_defender(ply, depth)
        };
        if let Expansion::Solved(numbers) = expansion {
            self.table.store(hash, depth, numbers, 1);
            return numbers;
        }
        let nodes_before = self.nodes;
        loop {
            let (numbers, best, second) = self.gather(ply, depth - 1, attacker);
            if numbers.pn >= th_pn || numbers.dn >= th_dn || self.aborted {
                let work = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
                self.table.store(hash, depth, numbers, work.max(1));
                return numbers;
            }
            let child = self.children[ply][best.0];
            let child_numbers = best.1;
            let (child_pn, child_dn) = if attacker {
                (
                    th_pn.min(second.saturating_add(1)),
                    add(th_dn - numbers.dn, child_numbers.dn),
                )
            } else {
                (
                    add(th_pn - numbers.pn, child_numbers.pn),
                    th_dn.min(second.saturating_add(1)),
                )
            };
            let undo = self.pos.make(child.mv);
            self.mid(ply + 1, depth - 1, child_pn, child_dn);
            self.pos.unmake(child.mv, undo);
        }
    }

    /// Combines the children's table numbers: the node's numbers, the child to search next (its
    /// index and numbers) and the second-best child's proof number (attacker) or disproof
    /// number (defender).
    fn gather(
        &self,
        ply: usize,
        child_depth: u32,
        attacker: bool,
    ) -> (Numbers, (usize, Numbers), u32) {
        let mut best = (0, Numbers::UNKNOWN);
        let mut best_key = INF + 1;
        let mut second = INF;
        let mut sum = 0u32;
        let mut cut = false;
        let mut plies = 0u32;
        let mut proof: Option<(u32, u32)> = None;
        let mut refuted = false;
        for (i, child) in self.children[ply].iter().enumerate() {
            let n = self.table.lookup(child.hash, child_depth);
            let (key, other) = if attacker { (n.pn, n.dn) } else { (n.dn, n.pn) };
            sum = add(sum, other);
            if key < best_key {
                second = best_key.min(second);
                best_key = key;
                best = (i, n);
            } else if key < second {
                second = key;
            }
            if n.dn == 0 {
                cut |= n.cut;
                refuted |= !attacker;
            }
            if n.pn == 0 {
                plies = plies.max(n.plies as u32);
                if attacker && proof.is_none_or(|(p, _)| (n.plies as u32) < p) {
                    proof = Some((n.plies as u32, child.mv.bits()));
                }
            }
        }
        let second = second.min(INF);
        let numbers = if attacker {
            match proof {
                Some((p, mv)) => Numbers::proven(p + 1, mv),
                None if best_key >= INF => Numbers::disproven(cut),
                None => Numbers {
                    pn: best_key,
                    dn: sum,
                    ..Numbers::UNKNOWN
                },
            }
        } else if refuted {
            // The refutation with the least cut, so that a true disproof is kept as one.
            let cut = self.children[ply].iter().all(|c| {
                let n = self.table.lookup(c.hash, child_depth);
                n.dn != 0 || n.cut
            });
            Numbers::disproven(cut)
        } else if sum == 0 {
            Numbers::proven(plies + 1, 0)
        } else {
            Numbers {
                pn: sum,
                dn: best_key,
                ..Numbers::UNKNOWN
            }
        };
        (numbers, best, second)
    }

    /// The fewest plies (odd, at most `limit`) in which the attacker, to move at `ply`, forces a
    /// road, by deepening two plies at a time; `None` if there is none or a budget ran out.
    fn exact_distance(&mut self, ply: usize, limit: u32) -> Option<u32> {
        if self.pos.winning_move().is_some() {
            return Some(1);
        }
        let mut depth = 3;
        while depth <= limit && !self.aborted {
            let n = self.mid(ply, depth, INF, INF);
            if n.pn == 0 {
                return Some(n.plies as u32);
            }
            if n.dn == 0 && !n.cut {
                return None;
            }
            depth += 2;
        }
        None
    }

    /// Appends the proven line from the node at `ply`, which forces a road in exactly
    /// `distance` plies (and not fewer): the attacker's shortest win against the defender's
    /// longest resistance, so the line is `distance` plies long.
    fn principal_variation(&mut self, ply: usize, distance: u32, pv: &mut Vec<Move>) {
        if self.aborted || distance == 0 {
            return;
        }
        let attacker = Self::attacker_moves(ply);
        let expansion = if attacker {
            self.expand_attacker(ply, distance)
        } else {
            self.expand_defender(ply, distance)
        };
        let chosen = match expansion {
            Expansion::Solved(n) if n.pn == 0 => {
                if attacker {
                    // A road in one.
                    Move::from_bits(n.best).map(|mv| (mv, 0))
                } else {
                    // Every defence allows a road in one: show one that does not end the game.
                    let moves = self.pos.legal_moves();
                    let quiet = moves.iter().copied().find(|&mv| {
                        let undo = self.pos.make(mv);
                        let over = self.pos.is_over();
                        self.pos.unmake(mv, undo);
                        !over
                    });
                    quiet.or_else(|| moves.first().copied()).map(|mv| (mv, 1))
                }
            }
            Expansion::Solved(_) => None,
            Expansion::Open if attacker => {
                // A child that forces the road in `distance - 1` plies.
                let mut found = None;
                for i in 0..self.children[ply].len() {
                    let child = self.children[ply][i];
                    let mut n = self.table.lookup(child.hash, distance - 1);
                    if n.pn != 0 && n.dn != 0 {
                        let undo = self.pos.make(child.mv);
                        n = self.mid(ply + 1, distance - 1, INF, INF);
                        self.pos.unmake(child.mv, undo);
                    }
                    if n.pn == 0 {
                        found = Some((child.mv, distance - 1));
                        break;
                    }
                }
                found
            }
            Expansion::Open => {
                // The defence after which the road is furthest away.
                let mut longest: Option<(Move, u32)> = None;
                for i in 0..self.children[ply].len() {
                    let child = self.children[ply][i];
                    let undo = self.pos.make(child.mv);
                    let d = self.exact_distance(ply + 1, distance - 1);
                    self.pos.unmake(child.mv, undo);
                    if let Some(d) = d {
                        if longest.is_none_or(|(_, l)| d > l) {
                            longest = Some((child.mv, d));
                        }
                    }
                }
                longest
            }
        };
        let Some((mv, rest)) = chosen else { return };
        pv.push(mv);
        let undo = self.pos.make(mv);
        if !self.pos.is_over() {
            self.principal_variation(ply + 1, rest, pv);
        }
        self.pos.unmake(mv, undo);
    }
}

/// Saturating sum of proof numbers, capped just below [`INF`]: only a solved child's number
/// is infinite, so a large sum never reads as a proof or disproof.
fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INF - 1)
}

/// Whether the spread `mv` changes the top of a square in `squares` (its origin or a square it
/// drops on).
fn spread_covers<const N: usize>(mv: Move, squares: u64) -> bool {
    let mut sq = mv.square();
    if squares >> sq.index() & 1 != 0 {
        return true;
    }
    for _ in 0..mv.distance() {
        sq = match sq.step::<N>(mv.direction()) {
            Some(next) => next,
            None => return false,
        };
        if squares >> sq.index() & 1 != 0 {
            return true;
        }
    }
    false
}
