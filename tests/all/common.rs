//! Shared test helpers: a seeded xorshift generator, random playouts, the perft tables, the
//! reader of `--log-file` transcripts, the tests' scratch directories and runs of the binary.
#![allow(dead_code)]

use cairn_tak::board::Position;
use cairn_tak::movegen::MoveList;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub use cairn_search::rng::Rng;

/// Plays one random game from the start, calling `visit` on every position before its move
/// (including the final one, finished or not). Spreads are favoured so that stacks grow tall.
pub fn playout<const N: usize>(
    rng: &mut Rng,
    max_plies: usize,
    mut visit: impl FnMut(&Position<N>),
) {
    let mut pos = Position::<N>::start();
    let mut moves = MoveList::new();
    for _ in 0..max_plies {
        visit(&pos);
        if pos.is_over() {
            return;
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        let spreads: Vec<_> = moves
            .iter()
            .filter(|m| !m.is_placement())
            .copied()
            .collect();
        let mv = if !spreads.is_empty() && rng.below(3) > 0 {
            spreads[rng.below(spreads.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.make(mv);
    }
    visit(&pos);
}

/// Positions visited by `games` random playouts of up to `max_plies` plies each.
pub fn random_positions<const N: usize>(
    seed: u64,
    games: usize,
    max_plies: usize,
) -> Vec<Position<N>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        playout::<N>(&mut rng, max_plies, |p| out.push(p.clone()));
    }
    out
}

/// The positions of [`random_positions`], then `boards` random boards drawn from `rng`.
pub fn mixed_positions<const N: usize>(
    seed: u64,
    games: usize,
    max_plies: usize,
    boards: usize,
    rng: &mut Rng,
) -> Vec<Position<N>> {
    let mut out = random_positions::<N>(seed, games, max_plies);
    out.extend((0..boards).map(|_| random_board::<N>(rng)));
    out
}

/// One row of a perft table.
pub struct PerftRow {
    pub size: usize,
    pub tps: String,
    pub counts: Vec<u64>,
    pub line: usize,
}

/// Reads a perft table (`size<TAB>tps<TAB>counts<TAB>source`, `#` comments) from tests/data.
pub fn perft_rows(file: &str) -> Vec<PerftRow> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("perft table in tests/data");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split('\t').collect();
            PerftRow {
                size: fields[0].parse().expect("size"),
                tps: fields[1].to_string(),
                counts: fields[2]
                    .split(',')
                    .map(|c| c.parse().expect("count"))
                    .collect(),
                line: i + 1,
            }
        })
        .collect()
}

/// A random legal-looking board: each square empty or a random stack (mostly flats on top),
/// retried until the reserves allow it, with a random side to move after the opening. Such
/// boards are full of near-roads, tall stacks, walls and capstones.
pub fn random_board<const N: usize>(rng: &mut Rng) -> Position<N> {
    loop {
        let mut rows = Vec::new();
        for _ in 0..N {
            let cells: Vec<String> = (0..N)
                .map(|_| {
                    if rng.below(10) < 3 {
                        return "x".to_string();
                    }
                    let tall = rng.below(4) == 0;
                    let height = 1 + rng.below(if tall { 7 } else { 2 });
                    let mut s: String = (0..height)
                        .map(|_| if rng.below(2) == 0 { '1' } else { '2' })
                        .collect();
                    match rng.below(12) {
                        0 | 1 => s.push('S'),
                        2 => s.push('C'),
                        _ => {}
                    }
                    s
                })
                .collect();
            rows.push(cells.join(","));
        }
        let text = format!(
            "{} {} {}",
            rows.join("/"),
            1 + rng.below(2),
            2 + rng.below(30)
        );
        if let Ok(pos) = cairn_tak::notation::tps::parse::<N>(&text) {
            return pos;
        }
    }
}

/// A path for a new `--log-file` transcript, in a directory of its own under the system's
/// temporary directory (named after `test` and the process), with no file there yet.
pub fn fresh_log_path(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cairn-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("tei.log");
    let _ = std::fs::remove_file(&path);
    path
}

/// The lines of a `--log-file` transcript without their timestamps, checking that each has the form
/// `YYYY-MM-DDTHH:MM:SS.mmmZ ` and that the times never go back.
pub fn logged(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the transcript file");
    let mut last = String::new();
    text.lines()
        .map(|line| {
            assert!(line.len() > 25 && line.is_char_boundary(24), "{line}");
            let (stamp, rest) = line.split_at(24);
            let shape: String = stamp
                .chars()
                .map(|c| if c.is_ascii_digit() { '9' } else { c })
                .collect();
            assert_eq!(shape, "9999-99-99T99:99:99.999Z", "{line}");
            assert!(stamp >= last.as_str(), "time went back: {line}");
            last = stamp.to_string();
            rest.strip_prefix(' ')
                .unwrap_or_else(|| panic!("{line}"))
                .to_string()
        })
        .collect()
}

/// A test's own directory in the system's temp dir, `cairn-NAME-PID`: emptied when made and
/// removed when dropped, unless the test is failing, so that what it wrote can be looked at.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("cairn-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }

    /// Writes `text` to the file `name` in the directory; its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write a scratch file");
        path
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A child process that is killed and reaped if it is dropped before being waited for. A test
/// that fails while its client runs would otherwise leave it behind, and `cairn playtak`
/// reconnects to its server until stopped.
pub struct Reaped(Option<std::process::Child>);

/// Starts a command as a [`Reaped`] process.
pub trait SpawnReaped {
    /// Starts the command, or panics saying what could not be run.
    fn spawn_reaped(&mut self) -> Reaped;
}

impl SpawnReaped for std::process::Command {
    fn spawn_reaped(&mut self) -> Reaped {
        let child = self
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", self.get_program()));
        Reaped(Some(child))
    }
}

impl Reaped {
    /// Sends the process a signal by name (`TERM`, `INT`), as a user's `kill` would.
    pub fn signal(&self, name: &str) {
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &self.id().to_string()])
            .status()
            .expect("cannot run kill");
        assert!(status.success(), "kill -{name} failed");
    }

    /// Waits for the process to exit and collects its piped output.
    pub fn wait_with_output(mut self) -> std::process::Output {
        let child = self.0.take().expect("a process not yet waited for");
        child
            .wait_with_output()
            .expect("cannot wait for the process")
    }
}

impl std::ops::Deref for Reaped {
    type Target = std::process::Child;
    fn deref(&self) -> &std::process::Child {
        self.0.as_ref().expect("a process not yet waited for")
    }
}

impl std::ops::DerefMut for Reaped {
    fn deref_mut(&mut self) -> &mut std::process::Child {
        self.0.as_mut().expect("a process not yet waited for")
    }
}

impl Drop for Reaped {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs the `cairn` binary with `args` (no input: its stdin is closed): its output.
pub fn cairn(args: &[&str]) -> Output {
    cairn_with(args, &[])
}

/// [`cairn`] with environment variables set (`("RUST_LOG", "warn")`).
pub fn cairn_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run cairn")
}

/// Runs `cairn ARGS`: whether it succeeded, its stdout and its stderr.
pub fn cairn_run(args: &[&str]) -> (bool, String, String) {
    let out = cairn(args);
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// A program's output as text, which must be UTF-8.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}
