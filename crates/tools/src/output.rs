//! Output files that never lose work, shared by the commands that write them (`match`,
//! `analyze`, `openings`, `puzzles`).
//!
//! Every output path is checked before the work starts, by making the file the results will go
//! through, so that a bad path fails at once rather than after an hour of searching:
//! - [`OutputFile`] (a result written once, at the end: `--out`, `--plot`): a temporary file is
//!   made beside the target now, filled and renamed onto the target at the end. A run that fails,
//!   or that has nothing to write, leaves an existing file as it was; the target is replaced
//!   whole or not at all. A target that exists but is not a regular file (`/dev/stdout`, a pipe)
//!   cannot be renamed onto: it is opened now and written at the end.
//! - [`AppendFile`] (results written as they come: `match --ptn`): opened for appending now; each
//!   result is appended and flushed when it is ready, so a failure keeps what was done, and an
//!   error names what the file holds.
//!
//! Every error is one line that starts with the option and the path (`--out a.ptn: ...`).

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// An output written whole, through a temporary file beside it (see the module documentation):
/// written as a stream ([`Write`], then [`OutputFile::finish`]) or at once
/// ([`OutputFile::commit`]).
#[derive(Debug)]
pub struct OutputFile {
    /// The option that named it, for messages (`--out`).
    option: String,
    /// The target.
    path: PathBuf,
    /// Where the bytes go first.
    target: Target,
}

#[derive(Debug)]
enum Target {
    /// `<name>.partial` beside the target, filled and renamed onto it (removed if never
    /// finished).
    Temporary(PathBuf, BufWriter<File>),
    /// A special file (device, pipe), opened now and written as the bytes come.
    Special(File),
    /// Finished or given up.
    Done,
}

impl OutputFile {
    /// Checks that `path` can be written, before any work: makes the temporary file beside it
    /// (or opens it, when it exists and is not a regular file). `option` names it in messages.
    pub fn create(option: &str, path: &Path) -> Result<OutputFile, String> {
        let fail = |e: &dyn std::fmt::Display| format!("{option} {}: {e}", path.display());
        if path.is_dir() {
            return Err(fail(&"is a folder, not a file"));
        }
        let name = path.file_name().ok_or_else(|| fail(&"not a file name"))?;
        if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            if !dir.is_dir() {
                let missing = format!("no directory {} (create it first)", dir.display());
                return Err(fail(&missing));
            }
        }
        let target = match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() => Target::Special(
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| fail(&e))?,
            ),
            _ => {
                let mut temp = name.to_os_string();
                temp.push(".partial");
                let temp = path.with_file_name(temp);
                let file = File::create(&temp).map_err(|e| fail(&e))?;
                Target::Temporary(temp, BufWriter::new(file))
            }
        };
        Ok(OutputFile {
            option: option.to_string(),
            path: path.to_path_buf(),
            target,
        })
    }

    /// [`OutputFile::create`] for an optional path.
    pub fn create_if(option: &str, path: Option<&Path>) -> Result<Option<OutputFile>, String> {
        path.map(|p| OutputFile::create(option, p)).transpose()
    }

    /// The target path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` and puts the whole file in place of the target.
    pub fn commit(mut self, bytes: impl AsRef<[u8]>) -> Result<(), String> {
        match self.write_all(bytes.as_ref()) {
            Ok(()) => self.finish(),
            Err(e) => Err(format!("{} {}: {e}", self.option, self.path.display())),
        }
    }

    /// Puts what was written in place of the target, whole.
    pub fn finish(mut self) -> Result<(), String> {
        let done = match std::mem::replace(&mut self.target, Target::Done) {
            Target::Temporary(temp, file) => {
                let placed = file
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .and_then(|file| file.sync_all())
                    .and_then(|()| std::fs::rename(&temp, &self.path));
                if placed.is_err() {
                    let _ = std::fs::remove_file(&temp);
                }
                placed
            }
            Target::Special(mut file) => file.flush(),
            Target::Done => Ok(()),
        };
        done.map_err(|e| format!("{} {}: {e}", self.option, self.path.display()))
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.target {
            Target::Temporary(_, file) => file.write(buf),
            Target::Special(file) => file.write(buf),
            Target::Done => Err(std::io::Error::other("the file is already finished")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.target {
            Target::Temporary(_, file) => file.flush(),
            Target::Special(file) => file.flush(),
            Target::Done => Ok(()),
        }
    }
}

impl Drop for OutputFile {
    /// A file never finished leaves the target as it was: its temporary file goes.
    fn drop(&mut self) {
        if let Target::Temporary(temp, _) = &self.target {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// An output that results are appended to as they come (see the module documentation).
#[derive(Debug)]
pub struct AppendFile {
    option: String,
    path: PathBuf,
    file: File,
    /// Results appended so far.
    written: usize,
}

impl AppendFile {
    /// Opens `path` for appending (made if missing), before any work.
    pub fn open(option: &str, path: &Path) -> Result<AppendFile, String> {
        let fail = |e: &dyn std::fmt::Display| format!("{option} {}: {e}", path.display());
        if path.is_dir() {
            return Err(fail(&"is a folder, not a file"));
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| fail(&e))?;
        Ok(AppendFile {
            option: option.to_string(),
            path: path.to_path_buf(),
            file,
            written: 0,
        })
    }

    /// Appends one result (`noun` names it in the error: `game`) and flushes it. The error says
    /// what the file keeps: the results appended before this one.
    pub fn append(&mut self, text: &str, noun: &str) -> Result<(), String> {
        match self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
        {
            Ok(()) => {
                self.written += 1;
                Ok(())
            }
            Err(e) => Err(format!(
                "{} {}: {e} (writing {noun} {}); the file keeps the {} written before it",
                self.option,
                self.path.display(),
                self.written + 1,
                crate::report::counted(self.written as u64, noun)
            )),
        }
    }

    /// Counts `n` results the file held before it was opened (a resumed match's games), so that
    /// an error says what the file keeps.
    pub fn holding(mut self, n: usize) -> AppendFile {
        self.written += n;
        self
    }

    /// Whether the file is empty (as it is when it was just made).
    pub fn is_empty(&self) -> bool {
        self.file.metadata().is_ok_and(|m| m.len() == 0)
    }

    /// Results appended so far.
    pub fn written(&self) -> usize {
        self.written
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cairn-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_is_replaced_whole_or_not_at_all() {
        let dir = scratch("replace");
        let path = dir.join("book.txt");
        std::fs::write(&path, "old\n").unwrap();
        // Given up: the old file stays and no temporary file is left.
        drop(OutputFile::create("--out", &path).unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        OutputFile::create("--out", &path)
            .unwrap()
            .commit("new\n")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let missing = dir.join("no/such/dir/x.svg");
        let e = OutputFile::create("--plot", &missing).unwrap_err();
        assert!(
            e.starts_with(&format!("--plot {}: ", missing.display())),
            "{e}"
        );
        let e = OutputFile::create("--out", &dir).unwrap_err();
        assert!(e.ends_with("is a folder, not a file"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn appending_counts_what_the_file_holds() {
        let dir = scratch("append");
        let path = dir.join("games.ptn");
        let mut file = AppendFile::open("--ptn", &path).unwrap();
        file.append("one\n", "game").unwrap();
        file.append("two\n", "game").unwrap();
        assert_eq!(file.written(), 2);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        std::fs::remove_dir_all(&dir).unwrap();
        if Path::new("/dev/full").exists() {
            let mut full = AppendFile::open("--ptn", Path::new("/dev/full")).unwrap();
            let e = full.append("x", "game").unwrap_err();
            assert!(
                e.ends_with("(writing game 1); the file keeps the 0 games written before it"),
                "{e}"
            );
        }
    }
}
