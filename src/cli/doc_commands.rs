//! Docs that cannot rot: every `cairn …` command line written in `README.md` and `docs/*.md`
//! is parsed by the command line's own parser, and every file it reads exists in the
//! repository (or is written by an earlier command on the same page).
//!
//! A command is a line of a fenced code block tagged `sh` that starts with `cairn ` or
//! `cargo run --release -- ` (lines ending in `\` are joined, a trailing ` # comment` is
//! dropped). Its words are split as a POSIX shell would (quotes and backslashes). A word is a
//! file of the repository when it is a relative path (it holds a `/`, or ends in a file
//! extension) and is not the value of an option that writes a file; absolute paths, `~/…` and
//! URLs are the user's own and are not checked.

use super::Cli;
use clap::Parser;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Options whose value is a file or folder the command writes (or, for `--state`, a state
/// file it starts when there is none).
const OUTPUT_OPTIONS: [&str; 10] = [
    "--out",
    "--ptn",
    "--plot",
    "--png",
    "--log-file",
    "--ptn-dir",
    "--nnue",
    "--games-out",
    "--state",
    "--json-out",
];

/// Options whose value is text, never a file, even when it holds a `/`.
const TEXT_OPTIONS: [&str; 6] = [
    "--tps",
    "--moves",
    "--position",
    "--shard",
    "--seek",
    "--allow-origin",
];

/// Extensions that mark a word as a file name even without a `/`.
const FILE_EXTENSIONS: [&str; 9] = [
    ".ptn", ".txt", ".tsv", ".svg", ".png", ".json", ".nnue", ".md", ".log",
];

/// One command found in a page: where it is and its words after `cairn`.
#[derive(Debug)]
struct DocCommand {
    page: PathBuf,
    line: usize,
    words: Vec<String>,
}

/// The words of a shell command line, or why it cannot be split (an open quote).
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("an unclosed ' quote".to_string()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("an unclosed \" quote".to_string()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("an unclosed \" quote".to_string()),
                    }
                }
            }
            '\\' => {
                if let Some(c) = chars.next() {
                    word.get_or_insert_with(String::new).push(c);
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// The line without a trailing ` # comment` (a `#` inside quotes is kept).
fn without_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if !single && !double && (i == 0 || bytes[i - 1] == b' ') => {
                return line[..i].trim_end();
            }
            _ => {}
        }
    }
    line
}

/// The `cairn` commands of one page, in order.
fn commands_of(page: &Path, text: &str) -> Result<Vec<DocCommand>, String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix("```") {
            in_sh = !in_sh && tag.trim() == "sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let (start, joined) = match pending.take() {
            Some((start, head)) => (start, format!("{head} {trimmed}")),
            None => (index + 1, trimmed.to_string()),
        };
        if let Some(head) = joined.strip_suffix('\\') {
            pending = Some((start, head.trim_end().to_string()));
            continue;
        }
        let command = without_comment(&joined);
        let rest = command
            .strip_prefix("cairn ")
            .or_else(|| command.strip_prefix("cargo run --release -- "));
        if let Some(rest) = rest {
            let words = shell_words(rest)
                .map_err(|e| format!("{}:{start}: {e} in `{command}`", page.display()))?;
            out.push(DocCommand {
                page: page.to_path_buf(),
                line: start,
                words,
            });
        }
    }
    Ok(out)
}

/// Whether a word names a file of the repository (a relative path).
fn is_repo_file(word: &str) -> bool {
    let relative = !word.starts_with('-')
        && !word.starts_with('/')
        && !word.starts_with('~')
        && !word.contains("://")
        && !word.contains('=')
        && !word.contains(' ');
    relative && (word.contains('/') || FILE_EXTENSIONS.iter().any(|e| word.ends_with(e)))
}

/// What is wrong with one command: the parser's error, or a file it reads that is missing.
fn problems_of(root: &Path, command: &DocCommand, made: &mut BTreeSet<String>) -> Vec<String> {
    let at = format!("{}:{}", command.page.display(), command.line);
    let mut out = Vec::new();
    let argv = std::iter::once("cairn".to_string()).chain(command.words.iter().cloned());
    if let Err(e) = Cli::try_parse_from(argv) {
        let first = e.to_string().lines().next().unwrap_or_default().to_string();
        out.push(format!(
            "{at}: `cairn {}`: {first}",
            command.words.join(" ")
        ));
    }
    let mut previous = "";
    for word in &command.words {
        // `--out=FILE` is the same as `--out FILE`.
        let (option, value) = match word.split_once('=') {
            Some((o, v)) if o.starts_with("--") => (o, v),
            _ => (previous, word.as_str()),
        };
        // `--data a.txt,b.txt` names two files; a TPS or a move list names none.
        let text_values = TEXT_OPTIONS.contains(&option) || value.contains(' ');
        let files = value.split(',').filter(|v| !text_values && is_repo_file(v));
        for value in files {
            if OUTPUT_OPTIONS.contains(&option) {
                made.insert(value.to_string());
            } else if !made.contains(value) && !exists(root, value) {
                out.push(format!(
                    "{at}: `{value}` is neither in the repository nor made earlier on the page"
                ));
            }
        }
        previous = word;
    }
    out
}

/// Whether `path` (relative to `root`) exists; a `*` in its file name matches any run of
/// characters, and the pattern must match at least one file.
fn exists(root: &Path, path: &str) -> bool {
    let (folder, name) = path.rsplit_once('/').unwrap_or((".", path));
    if !name.contains('*') {
        return root.join(path).exists();
    }
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
        return false;
    };
    entries
        .filter_map(Result::ok)
        .any(|entry| wildcard(name, &entry.file_name().to_string_lossy()))
}

/// Whether `text` matches `pattern`, where `*` stands for any run of characters.
fn wildcard(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// README.md and every page of docs/.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("the docs folder")
        .map(|entry| entry.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn every_command_in_the_docs_parses_and_names_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut count = 0;
    for page in pages(root) {
        let text = std::fs::read_to_string(&page).expect("a page");
        let shown = page.strip_prefix(root).unwrap_or(&page).to_path_buf();
        let commands = commands_of(&shown, &text).unwrap_or_else(|e| panic!("{e}"));
        let mut made = BTreeSet::new();
        for command in &commands {
            problems.extend(problems_of(root, command, &mut made));
        }
        count += commands.len();
    }
    assert!(
        count >= 10,
        "only {count} commands found in README.md and docs/"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_page_with_a_bad_command_is_caught() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = "Text.\n\n```sh\ncairn perft --size 6 --depth 3   # fine\n\
        cairn perft --size 6 --dpeth 3\ncairn report --plot out.svg \\\n  missing/m.ptn\n\
        cairn match --engine \"cmd=cairn name=a\" --engine \"cmd=cairn name=b\" --ptn new.ptn\n\
        cairn report new.ptn\n```\n\n```text\ncairn not a command\n```\n";
    let commands = commands_of(Path::new("page.md"), page).expect("the page splits");
    assert_eq!(commands.len(), 5);
    assert_eq!(commands[2].line, 6);
    assert_eq!(
        commands[2].words,
        ["report", "--plot", "out.svg", "missing/m.ptn"]
    );
    let mut made = BTreeSet::new();
    let problems: Vec<Vec<String>> = commands
        .iter()
        .map(|c| problems_of(root, c, &mut made))
        .collect();
    assert!(problems[0].is_empty(), "{:?}", problems[0]);
    assert_eq!(problems[1].len(), 1);
    assert!(problems[1][0].starts_with("page.md:5: `cairn perft --size 6 --dpeth 3`: error:"));
    assert_eq!(
        problems[2],
        ["page.md:6: `missing/m.ptn` is neither in the repository nor made earlier on the page"]
    );
    assert!(
        problems[3].is_empty() && problems[4].is_empty(),
        "{problems:?}"
    );
    assert_eq!(
        shell_words(r#"a "b c" 'd e' f\ g"#).unwrap(),
        ["a", "b c", "d e", "f g"]
    );
    assert!(shell_words("a \"b").is_err());
    assert!(exists(root, "tests/data/tactics/*.tsv"));
    assert!(!exists(root, "tests/data/tactics/*.nothing"));
    assert!(wildcard("s6-*.txt", "s6-01.txt") && !wildcard("s6-*.txt", "s5-01.txt"));
}
