//! One memory budget for the hash tables of several TEI sessions (`cairn ws`, one session per
//! connection).
//!
//! Each session holds a [`TableShare`]: the size of its table, counted against the budget from
//! the moment it is granted until the share is dropped with the session. A session may grow its
//! table up to what the others leave, less 1 MiB kept for every session that could still join,
//! so that every session always gets the smallest table (1 MiB) and the tables together never
//! exceed the budget.

use std::sync::{Arc, Mutex};

/// The budget, shared by the sessions of one server.
#[derive(Debug)]
pub struct TableBudget {
    /// MiB for all tables together.
    total_mb: usize,
    /// The most sessions at once.
    max_sessions: usize,
    state: Mutex<Usage>,
}

#[derive(Debug, Default)]
struct Usage {
    /// MiB granted to the sessions.
    used_mb: usize,
    /// Sessions holding a share.
    sessions: usize,
}

impl TableBudget {
    /// A budget of `total_mb` MiB for at most `max_sessions` sessions at once; `total_mb` must
    /// be at least `max_sessions` (1 MiB each).
    pub fn new(total_mb: usize, max_sessions: usize) -> Result<Arc<Self>, String> {
        if total_mb < max_sessions {
            return Err(format!(
                "a budget of {total_mb} MiB cannot give each of {max_sessions} sessions 1 MiB"
            ));
        }
        Ok(Arc::new(TableBudget {
            total_mb,
            max_sessions,
            state: Mutex::new(Usage::default()),
        }))
    }

    /// MiB for all tables together.
    pub fn total_mb(&self) -> usize {
        self.total_mb
    }

    /// A new session's share, with a table of `wanted` MiB or as much of it as is left.
    pub fn join(self: &Arc<Self>, wanted: usize) -> TableShare {
        let mut share = TableShare {
            budget: Arc::clone(self),
            mb: 0,
        };
        self.usage().sessions += 1;
        share.resize(wanted);
        share
    }

    fn usage(&self) -> std::sync::MutexGuard<'_, Usage> {
        // A poisoned lock only means a session panicked while holding it; the counts are whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One session's part of a [`TableBudget`]; given back when dropped.
#[derive(Debug)]
pub struct TableShare {
    budget: Arc<TableBudget>,
    mb: usize,
}

impl TableShare {
    /// The MiB granted.
    pub fn mb(&self) -> usize {
        self.mb
    }

    /// The budget this share is part of.
    pub fn budget(&self) -> &TableBudget {
        &self.budget
    }

    /// Asks for a table of `wanted` MiB; grants as much of it as the budget allows (at least
    /// 1 MiB) and returns the new size.
    pub fn resize(&mut self, wanted: usize) -> usize {
        let budget = Arc::clone(&self.budget);
        let mut usage = budget.usage();
        let others = usage.used_mb - self.mb;
        let reserved = budget.max_sessions.saturating_sub(usage.sessions);
        let limit = budget.total_mb.saturating_sub(others + reserved).max(1);
        let granted = wanted.clamp(1, limit);
        usage.used_mb = others + granted;
        self.mb = granted;
        granted
    }
}

impl Drop for TableShare {
    fn drop(&mut self) {
        let mut usage = self.budget.usage();
        usage.used_mb -= self.mb;
        usage.sessions -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_stay_within_the_budget() {
        assert!(TableBudget::new(3, 4).is_err());
        let budget = TableBudget::new(100, 3).unwrap();
        // Alone, a session may take all but 1 MiB for each of the two that may still join.
        let mut first = budget.join(64);
        assert_eq!(first.mb(), 64);
        assert_eq!(first.resize(1000), 98);
        let mut second = budget.join(64);
        assert_eq!(second.mb(), 1);
        let third = budget.join(64);
        assert_eq!(third.mb(), 1);
        // Shrinking gives room back.
        assert_eq!(first.resize(32), 32);
        assert_eq!(second.resize(64), 64);
        assert_eq!(first.resize(1000), 35);
        drop(third);
        drop(second);
        assert_eq!(first.resize(1000), 98);
        assert_eq!(budget.usage().used_mb, 98);
        drop(first);
        assert_eq!(budget.usage().used_mb, 0);
        assert_eq!(budget.usage().sessions, 0);
    }
}
