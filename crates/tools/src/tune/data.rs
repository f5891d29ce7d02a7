//! Data files as sets: where a file's lines came from, whether a part is whole, and whether the
//! parts of a sharded run belong together (`cairn tune check`, and the check every fit makes
//! before it reads its data).
//!
//! A data file is one or more **parts**, each a header of `#` lines, its data lines, and the
//! `# games=...` summary that [`super::selfplay::generate`] writes only once every game is in
//! (`cat` of shards gives a file of several parts). The header's first line,
//! `# cairn tune data: <settings>[, shard I/N]`, names the run; the lines after it
//! ([`Provenance`]) name what played it: the engine's version and commit, the evaluation (the
//! linear weights and the network, a `CAIRN_NNUE` file included), and the search's constants.
//! Two parts of one run that disagree on any of them are data from different engines.
//!
//! Output files go through [`crate::output::OutputFile`]: written as `<name>.partial` beside
//! their final name and renamed into place once whole, so that a run that fails or is cancelled
//! leaves the old file as it was.

use super::selfplay::{Shard, Summary};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The first line of every data part's header.
pub const HEADER: &str = "# cairn tune data: ";

/// What plays a run's games beside its settings: each a header line after the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The engine's version and commit (as `cairn --version` prints them).
    pub engine: String,
    /// The linear weights and the network of the board size, each with a hash of its values.
    pub evaluation: String,
    /// The search's constants: the shipped ones or `CAIRN_TUNE`'s.
    pub search: String,
}

impl Provenance {
    /// What this process plays size `N` with.
    pub fn current<const N: usize>() -> Provenance {
        use cairn_tak::eval::nnue;
        let weights = hash(format!("{:?}", cairn_tak::eval::params::WEIGHTS[N].0).as_bytes());
        let network = match nnue::net::<N>() {
            None if std::env::var(nnue::ENV).is_ok_and(|v| v.trim() == "linear") => {
                format!("none ({}=linear)", nnue::ENV)
            }
            None => "none".to_string(),
            Some(net) => {
                let own = hash(&net.to_bytes());
                format!("{} {own:016x}", network_source::<N>())
            }
        };
        let tunables = cairn_search::Tunables::current();
        let search = if tunables == cairn_search::Tunables::DEFAULT {
            "shipped constants".to_string()
        } else {
            format!("{}={}", cairn_search::params::TUNE_ENV, tunables.to_env())
        };
        Provenance {
            engine: format!("cairn {}", cairn_engine::tei::version()),
            evaluation: format!("linear weights {weights:016x}, network {network}"),
            search,
        }
    }

    /// The header lines after the first.
    pub fn lines(&self) -> [String; 3] {
        [
            format!("# engine: {}", self.engine),
            format!("# evaluation: {}", self.evaluation),
            format!("# search: {}", self.search),
        ]
    }
}

/// Where size `N`'s network comes from: the file name of the last `CAIRN_NNUE` file of that size
/// (as the engine loads them), else the built-in one.
fn network_source<const N: usize>() -> String {
    use cairn_tak::eval::nnue::{Network, ENV};
    let list = std::env::var(ENV).unwrap_or_default();
    let from_env = list
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .rfind(|p| {
            std::fs::read(p)
                .ok()
                .and_then(|bytes| Network::from_bytes(&bytes).ok())
                .is_some_and(|net| net.size() == N)
        });
    match from_env {
        Some(path) => {
            let name = Path::new(path)
                .file_name()
                .map_or(path.into(), |n| n.to_string_lossy());
            format!("{name} ({ENV})")
        }
        None => "built-in".to_string(),
    }
}

/// FNV-1a, 64 bits: a fingerprint of a network's or weights' values (not a cryptographic hash).
pub fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One part of a data file: a header, data lines, and (if whole) the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    /// The file it is in, as named on the command line.
    pub file: String,
    /// Its first line's number in the file, from 1.
    pub line: usize,
    /// The run's settings: the first header line after [`HEADER`], without the shard (`None`
    /// for data without that header: made by hand or by an older Cairn).
    pub run: Option<String>,
    /// The header lines after the first (the [`Provenance`]).
    pub header: Vec<String>,
    /// The shard the header names, if any.
    pub shard: Option<Shard>,
    /// The data lines.
    pub lines: usize,
    /// The closing `# games=` summary, if the part has one.
    pub summary: Option<Summary>,
}

impl Part {
    /// The part, named for messages: the file, and the line where it starts if not the first.
    pub fn name(&self) -> String {
        if self.line > 1 {
            format!("{} (part at line {})", self.file, self.line)
        } else {
            self.file.clone()
        }
    }

    /// The games in the whole run, from the header (`..., 64000 games, ...`).
    pub fn run_games(&self) -> Option<usize> {
        self.run.as_deref()?.split(", ").find_map(|field| {
            field
                .strip_suffix(" games")
                .and_then(|n| n.parse::<usize>().ok())
        })
    }

    /// What is wrong with the part on its own: no summary (cut short), or a summary that does
    /// not count its lines or its shard's games.
    pub fn problem(&self) -> Option<String> {
        let Some(summary) = &self.summary else {
            return Some(format!(
                "{}: {} data lines and no `# games=` summary: cut short (cancelled, failed, \
                 or still running)",
                self.name(),
                self.lines
            ));
        };
        if summary.positions != self.lines {
            return Some(format!(
                "{}: {} data lines, but its summary counts {}",
                self.name(),
                self.lines,
                summary.positions
            ));
        }
        if let Some(total) = self.run_games() {
            let want = self.shard.unwrap_or(Shard::WHOLE).games(total).len();
            if summary.games != want {
                return Some(format!(
                    "{}: {} games, but its header's {} holds {want}",
                    self.name(),
                    summary.games,
                    self.shard
                        .map_or("run".to_string(), |s| format!("shard {s}"))
                ));
            }
        }
        None
    }
}

/// Reads the parts of a data file (`file` names it in messages) without keeping its lines.
pub fn scan(reader: impl BufRead, file: &str) -> std::io::Result<Vec<Part>> {
    let mut parts = Vec::new();
    let fresh = |line: usize| Part {
        file: file.to_string(),
        line,
        ..Part::default()
    };
    let mut part = fresh(1);
    // Whether the part so far is only its header (comment lines before the first data line).
    let mut in_header = true;
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        let line = line.trim_end_matches('\r');
        if let Some(settings) = line.strip_prefix(HEADER) {
            if part.lines > 0 || part.run.is_some() || part.summary.is_some() {
                parts.push(std::mem::replace(&mut part, fresh(i + 1)));
            }
            part.line = i + 1;
            in_header = true;
            let (run, shard) = match settings.rsplit_once(", shard ") {
                Some((run, shard)) => (run, Shard::parse(shard).ok()),
                None => (settings, None),
            };
            part.run = Some(run.to_string());
            part.shard = shard;
        } else if let Some(summary) = Summary::parse(line) {
            part.summary = Some(summary);
            parts.push(std::mem::replace(&mut part, fresh(i + 2)));
            in_header = true;
        } else if line.starts_with('#') {
            if in_header && part.run.is_some() {
                part.header.push(line.to_string());
            }
        } else if !line.trim().is_empty() {
            in_header = false;
            part.lines += 1;
        }
    }
    if part.lines > 0 || part.run.is_some() {
        parts.push(part);
    }
    Ok(parts)
}

/// Reads the parts of the files at `paths`.
pub fn scan_files(paths: &[PathBuf]) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        let found =
            scan(std::io::BufReader::new(file), &name).map_err(|e| format!("{name}: {e}"))?;
        if found.is_empty() {
            return Err(format!("{name}: no data lines"));
        }
        parts.extend(found);
    }
    Ok(parts)
}

/// The parts of one run, as a set: which shards are there, which are missing, and whether they
/// agree.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// The run's settings (`None`: data without a Cairn header, each part its own set).
    pub run: Option<String>,
    /// The header lines of its first part.
    pub header: Vec<String>,
    /// The shard count (1 for a run written whole).
    pub count: usize,
    /// The parts, in the order given.
    pub parts: Vec<Part>,
    /// Shards (1-based) with no part.
    pub missing: Vec<usize>,
    /// Games and data lines of the parts with a summary.
    pub games: usize,
    /// See [`RunReport::games`].
    pub positions: usize,
    /// Everything wrong with the set, one line each.
    pub problems: Vec<String>,
}

/// Groups the parts by run, and checks each run: every part whole, every shard there once, every
/// header alike.
pub fn check(parts: &[Part]) -> Vec<RunReport> {
    let mut runs: Vec<RunReport> = Vec::new();
    for part in parts {
        let known = part.run.is_some();
        match runs.iter_mut().find(|r| known && r.run == part.run) {
            Some(run) => run.parts.push(part.clone()),
            None => runs.push(RunReport {
                run: part.run.clone(),
                header: part.header.clone(),
                parts: vec![part.clone()],
                ..RunReport::default()
            }),
        }
    }
    for run in &mut runs {
        let count = run.parts[0].shard.map_or(1, |s| s.count);
        run.count = count;
        let mut seen: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for part in &run.parts {
            if let Some(problem) = part.problem() {
                run.problems.push(problem);
            }
            if let Some(s) = &part.summary {
                run.games += s.games;
                run.positions += s.positions;
            } else {
                run.positions += part.lines;
            }
            let shard = part.shard.unwrap_or(Shard::WHOLE);
            if shard.count != count {
                run.problems.push(format!(
                    "{}: shard {shard}, but {} is shard {} of the same run",
                    part.name(),
                    run.parts[0].name(),
                    run.parts[0].shard.unwrap_or(Shard::WHOLE)
                ));
                continue;
            }
            seen.entry(shard.index + 1).or_default().push(part.name());
            if part.header != run.header {
                let differs = part
                    .header
                    .iter()
                    .zip(&run.header)
                    .find(|(a, b)| a != b)
                    .map_or_else(
                        || "a header of another length".to_string(),
                        |(a, b)| format!("`{a}` where {} has `{b}`", run.parts[0].name()),
                    );
                run.problems.push(format!(
                    "{}: another engine under the same settings: {differs}",
                    part.name()
                ));
            }
        }
        for (shard, names) in &seen {
            if names.len() > 1 {
                run.problems.push(format!(
                    "shard {shard}/{count} given {} times: {}",
                    names.len(),
                    names.join(", ")
                ));
            }
        }
        if run.run.is_some() {
            run.missing = (1..=count).filter(|i| !seen.contains_key(i)).collect();
            if !run.missing.is_empty() {
                run.problems.push(format!(
                    "{} of {count} shards missing: {}",
                    run.missing.len(),
                    shard_list(&run.missing, count)
                ));
            }
        }
    }
    runs
}

/// Shard numbers as `3/64, 17/64`, the first 20 of them.
fn shard_list(shards: &[usize], count: usize) -> String {
    let mut text = shards
        .iter()
        .take(20)
        .map(|i| format!("{i}/{count}"))
        .collect::<Vec<_>>()
        .join(", ");
    if shards.len() > 20 {
        text.push_str(&format!(" and {} more", shards.len() - 20));
    }
    text
}

/// Checks the data files a fit is about to read: every part whole, every run complete and of one
/// engine. Unless `allow_partial`, the first problem is the error; with it, each is a warning.
pub fn check_before_fit(paths: &[PathBuf], allow_partial: bool) -> Result<(), String> {
    let parts = scan_files(paths).map_err(|e| format!("--data {e}"))?;
    let problems: Vec<String> = check(&parts).into_iter().flat_map(|r| r.problems).collect();
    match problems.first() {
        None => Ok(()),
        Some(first) if !allow_partial => {
            let more = match problems.len() {
                1 => String::new(),
                2 => " (and 1 more problem)".to_string(),
                n => format!(" (and {} more problems)", n - 1),
            };
            Err(format!(
                "--data {first}{more}; `cairn tune check` lists the set, --allow-partial takes \
                 the data as it is"
            ))
        }
        Some(_) => {
            for problem in &problems {
                log::warn!("--data {problem} (taken: --allow-partial)");
            }
            Ok(())
        }
    }
}

/// `cairn tune check`: the runs in the files, what each holds, and what is wrong; `Err` (for
/// the exit code) if anything is.
pub fn report(paths: &[PathBuf], out: &mut dyn Write) -> Result<(), String> {
    let parts = scan_files(paths)?;
    let runs = check(&parts);
    let io = |e: std::io::Error| e.to_string();
    let mut problems = 0;
    for run in &runs {
        let title = run
            .run
            .as_deref()
            .map_or("data without a cairn header".to_string(), |r| {
                format!("run: {r}")
            });
        writeln!(out, "{title}").map_err(io)?;
        for line in &run.header {
            writeln!(out, "  {}", line.trim_start_matches("# ")).map_err(io)?;
        }
        let whole = run.parts.iter().filter(|p| p.problem().is_none()).count();
        let present = run.count - run.missing.len();
        writeln!(
            out,
            "  {} parts ({whole} whole), shards present {present} of {}, {} games, {} positions",
            run.parts.len(),
            run.count,
            run.games,
            run.positions
        )
        .map_err(io)?;
        for problem in &run.problems {
            writeln!(out, "  problem: {problem}").map_err(io)?;
        }
        problems += run.problems.len();
    }
    let games: usize = runs.iter().map(|r| r.games).sum();
    let positions: usize = runs.iter().map(|r| r.positions).sum();
    writeln!(
        out,
        "{} files, {} parts, {} runs: {games} games, {positions} positions; {}",
        paths.len(),
        parts.len(),
        runs.len(),
        match problems {
            0 => "every part whole, every run complete and of one engine".to_string(),
            1 => "1 problem".to_string(),
            n => format!("{n} problems"),
        }
    )
    .map_err(io)?;
    match problems {
        0 => Ok(()),
        n => Err(format!(
            "{n} problem{} in the set (a fit refuses it unless --allow-partial)",
            if n == 1 { "" } else { "s" }
        )),
    }
}
