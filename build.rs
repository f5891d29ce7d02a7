//! Names the build in `CAIRN_VERSION`: the package version and, when built from a git work
//! tree, the commit and whether the work tree had changes, as in `0.1.0 (commit abcdef12,
//! modified)`. `cairn --version` and TEI `id version` print it, so that a result can be traced
//! to the code that gave it.
//!
//! Without git, or outside a repository (a crates tarball), the version is the package's alone.
//! The script runs again when HEAD moves (a commit, a checkout: the HEAD file, the branch's ref,
//! `packed-refs`, HEAD's reflog), when the index changes, and when a source file changes, so the
//! commit and the `modified` mark stay current.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The output of `git ARGS` in this package's directory, trimmed; `None` if git is missing or
/// fails (not a repository).
fn git(args: &[&str]) -> Option<String> {
    // No optional locks: `git status` must not rewrite the index that the script watches.
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    // Only this package's own repository counts: a package unpacked inside another one (a
    // vendored copy) must not take that one's commit.
    let top = git(&["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let own = top.and_then(|t| t.canonicalize().ok())
        == Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().ok();
    let commit = git(&["rev-parse", "--short=8", "HEAD"]).filter(|_| own);
    let described = match commit {
        Some(commit) if !commit.is_empty() => {
            watch_git();
            // Tracked files only: a stray untracked file does not change what is built.
            let modified = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|changes| !changes.is_empty());
            let mark = if modified { ", modified" } else { "" };
            format!("{version} (commit {commit}{mark})")
        }
        _ => version.to_string(),
    };
    println!("cargo:rustc-env=CAIRN_VERSION={described}");
    // The sources: an edit can turn a clean tree into a modified one.
    for path in ["build.rs", "Cargo.toml", "Cargo.lock", "src", "crates"] {
        println!("cargo:rerun-if-changed={path}");
    }
}

/// Asks cargo to run the script again when HEAD or the index changes. The paths come from git,
/// which also knows where they are in a linked worktree (`.git` there is a file).
fn watch_git() {
    let mut paths = vec![
        "HEAD".to_string(),
        "logs/HEAD".to_string(),
        "packed-refs".to_string(),
        "index".to_string(),
    ];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        paths.push(branch);
    }
    for path in paths {
        if let Some(file) = git(&["rev-parse", "--git-path", &path]) {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            // A path that does not exist would make cargo run the script on every build.
            if file.exists() {
                println!("cargo:rerun-if-changed={}", file.display());
            }
        }
    }
}
