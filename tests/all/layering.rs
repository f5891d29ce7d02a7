//! The layers of the code, kept by a test: the table in the README ("How the code is layered")
//! is the data, and every import in `src/` is checked against it.
//!
//! Each row of the table is a layer: its modules (a top-level module such as `board`, or one
//! file of a module that spans layers, such as `tablut::search`) and the layers it may use. An
//! import is every path that starts with `crate::`, `super::` or `self::` (in a `use` or
//! anywhere in the code), and in the binary (`src/main.rs`, `src/cli/`) every `cairn::` path;
//! comments, and so documentation links, do not count. The test fails, naming the file and line,
//! on an import of a layer the importer may not use, and on one that closes a cycle between
//! modules of the same layer. Unit tests inside `src/` (`#[cfg(test)]` modules) obey the layers
//! too, but may use any module of their own layer: they are not part of the library's graph.
//! A module in no row fails the test as well, so the table grows with the code.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One row of the README's table.
#[derive(Debug)]
struct Layer {
    name: String,
    modules: Vec<String>,
    uses: Vec<String>,
}

/// The rows of the table under the README's "How the code is layered": `| layer | modules |
/// may use |`, the modules in backticks, the layers it may use by name (or `nothing`).
fn readme_layers(readme: &str) -> Result<Vec<Layer>, String> {
    let readme = format!("\n{readme}");
    let section = readme
        .split("\n## How the code is layered")
        .nth(1)
        .ok_or("the README has no section \"How the code is layered\"")?;
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut layers: Vec<Layer> = Vec::new();
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [name, modules, uses] = cells[..] else {
            return Err(format!(
                "a row of the layer table has not three cells: {line}"
            ));
        };
        if name == "layer" || name.starts_with('-') {
            continue;
        }
        let modules: Vec<String> = modules
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        let uses: Vec<String> = uses
            .split([',', ' '])
            .filter(|w| !w.is_empty() && *w != "nothing" && *w != "and")
            .map(str::to_string)
            .collect();
        for used in &uses {
            if !layers.iter().any(|l| &l.name == used) {
                return Err(format!(
                    "layer {name} may use `{used}`, which is not a layer above it in the table"
                ));
            }
        }
        layers.push(Layer {
            name: name.to_string(),
            modules,
            uses,
        });
    }
    if layers.is_empty() {
        return Err("the layer table of the README has no rows".to_string());
    }
    Ok(layers)
}

/// A source file's code with comments, strings and character literals blanked out (newlines
/// kept, so lines still count), and the line ranges of its `#[cfg(test)]` modules.
fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"') | Some('#')) && !ident_before(&chars, i) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            let closes =
                |k: usize| chars[k] == '"' && (1..=hashes).all(|h| chars.get(k + h) == Some(&'#'));
            while j < chars.len() && !closes(j) {
                j += 1;
            }
            let end = (j + 1 + hashes).min(chars.len());
            out.extend(chars[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or else a lifetime or label.
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.extend(chars[i..=end].iter().map(|&c| blank(c)));
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the character before `i` continues an identifier (so `r` there is not a raw string's).
fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// One import: where it is written and the module path it names.
#[derive(Debug)]
struct Import {
    line: usize,
    /// The path's module segments, from the crate root.
    path: Vec<String>,
    /// Inside a `#[cfg(test)]` module.
    test: bool,
}

/// Where a source file sits: its module path from the crate root, whether it belongs to the
/// binary, and the child modules it declares (which its relative `use` paths may start with).
struct Place {
    module: Vec<String>,
    binary: bool,
}

/// The module path of the file at `rel` (relative to `src/`), and whether it is the binary's.
fn place_of(rel: &Path) -> Place {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().expect("a file name");
    let binary = rel == Path::new("main.rs") || parts.first().is_some_and(|p| p == "cli");
    let stem = file.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    Place {
        module: parts,
        binary,
    }
}

/// The full paths of a `use` tree (`a::{b, c::{self, D}}` is `a::b`, `a::c`, `a::c::D`).
fn expand_use(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(&tree);
        return vec![path.trim_end_matches("::self").to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            if p == "self" {
                vec![prefix.trim_end_matches("::").to_string()]
            } else {
                expand_use(&format!("{prefix}{p}"))
            }
        })
        .collect()
}

/// Every import of one file: its `use` trees and the paths written elsewhere in its code,
/// resolved to module paths from the crate root (`None` for a path outside the crate).
fn imports_of(place: &Place, text: &str) -> Vec<Import> {
    let code = code_of(text);
    let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
    // Inline modules: (name, brace depth at which it closes, under #[cfg(test)]).
    let mut inline: Vec<(String, usize, bool)> = Vec::new();
    let mut children: BTreeSet<String> = BTreeSet::new();
    let mut depth = 0usize;
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    let word_at = |k: usize| -> &str {
        let end = code[k..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(code.len(), |e| k + e);
        &code[k..end]
    };
    while i < bytes.len() {
        let c = bytes[i] as char;
        let starts_word =
            !(i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if c == '{' {
            depth += 1;
        } else if c == '}' {
            depth = depth.saturating_sub(1);
            while inline.last().is_some_and(|m| m.1 == depth) {
                inline.pop();
            }
        } else if starts_word && (c.is_alphabetic() || c == '_' || c == '$') {
            let word = word_at(if c == '$' { i + 1 } else { i });
            let len = word.len() + (c == '$') as usize;
            let test = inline.iter().any(|m| m.2);
            let module: Vec<String> = place
                .module
                .iter()
                .cloned()
                .chain(inline.iter().map(|m| m.0.clone()))
                .collect();
            if word == "mod" {
                let rest = code[i + 3..].trim_start();
                let name = word_at(code.len() - rest.len());
                let after = rest[name.len()..].trim_start();
                if after.starts_with('{') {
                    let attrs = code[..i]
                        .rfind([';', '}', '{'])
                        .map_or(&code[..i], |s| &code[s + 1..i]);
                    let is_test = attrs.contains("#[cfg(test)]");
                    inline.push((name.to_string(), depth, test || is_test));
                } else if after.starts_with(';') && inline.is_empty() {
                    children.insert(name.to_string());
                }
                i += 3;
                continue;
            }
            // The paths written at `i`, each resolved and kept if it is the crate's.
            let mut record = |paths: Vec<String>| {
                for path in paths {
                    let segments: Vec<&str> = path.split("::").collect();
                    if let Some(resolved) = resolve(place, &module, &children, &segments) {
                        out.push(Import {
                            line: line_of(i),
                            path: resolved,
                            test,
                        });
                    }
                }
            };
            if word == "use" {
                let end = code[i..].find(';').map_or(code.len(), |e| i + e);
                record(expand_use(&code[i + 3..end]));
                i = end;
                continue;
            }
            if matches!(word, "crate" | "super" | "self" | "cairn")
                && code[i + len..].starts_with("::")
            {
                let mut end = i + len;
                while code[end..].starts_with("::") {
                    let next = word_at(end + 2);
                    if next.is_empty() {
                        break;
                    }
                    end += 2 + next.len();
                }
                let start = if c == '$' { i + 1 } else { i };
                record(vec![code[start..end].to_string()]);
                i = end;
                continue;
            }
            i += len.max(1);
            continue;
        }
        i += 1;
    }
    out
}

/// The path `segments`, written in `module` of the file at `place`, from the crate root; `None`
/// for a path outside the library (a dependency, the standard library, the binary's own).
fn resolve(
    place: &Place,
    module: &[String],
    children: &BTreeSet<String>,
    segments: &[&str],
) -> Option<Vec<String>> {
    let (base, rest): (Vec<String>, &[&str]) = match segments.first()? {
        &"crate" if place.binary => return None,
        &"crate" => (Vec::new(), &segments[1..]),
        &"cairn" if place.binary => (Vec::new(), &segments[1..]),
        &"self" => (module.to_vec(), &segments[1..]),
        &"super" => {
            let mut base = module.to_vec();
            let mut rest = segments;
            while rest.first() == Some(&"super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        first if children.contains(*first) && module.len() == place.module.len() => {
            (module.to_vec(), segments)
        }
        _ => return None,
    };
    Some(
        base.into_iter()
            .chain(rest.iter().map(|s| s.to_string()))
            .collect(),
    )
}

/// The layer table's module that `path` falls in: the longest one it starts with, or the crate
/// root (`lib`, whose macros every layer uses) for an item of the root.
fn module_of<'a>(path: &[String], layers: &'a [Layer]) -> Option<&'a str> {
    let joined = path.join("::");
    layers
        .iter()
        .flat_map(|l| l.modules.iter())
        .filter(|m| joined == **m || joined.starts_with(&format!("{m}::")))
        .max_by_key(|m| m.len())
        .map(String::as_str)
}

/// The layer of a module of the table.
fn layer_of<'a>(module: &str, layers: &'a [Layer]) -> &'a Layer {
    layers
        .iter()
        .find(|l| l.modules.iter().any(|m| m == module))
        .expect("a module of the table")
}

/// Whether layer `from` may use layer `to`: itself, or one of its uses.
fn may_use(from: &Layer, to: &Layer) -> bool {
    from.name == to.name || from.uses.contains(&to.name)
}

/// Every breach of the layers in `files` (path relative to `src/`, text), one line each:
/// `src/<file>:<line>: ...`.
fn breaches(layers: &[Layer], files: &[(PathBuf, String)]) -> Vec<String> {
    let mut found = Vec::new();
    // Edges between modules of one layer, outside tests, with where each is first written.
    let mut graph: BTreeMap<(String, String), (String, usize)> = BTreeMap::new();
    for (rel, text) in files {
        let place = place_of(rel);
        let name = format!("src/{}", rel.display());
        let own = if place.binary {
            module_of(&["main".to_string()], layers)
        } else {
            let root = place.module.is_empty().then(|| "lib".to_string());
            module_of(&root.map_or(place.module.clone(), |r| vec![r]), layers)
        };
        let Some(own) = own else {
            found.push(format!(
                "{name}: module `{}` is in no layer of the README's table",
                place.module.join("::")
            ));
            continue;
        };
        let own_layer = layer_of(own, layers);
        for import in imports_of(&place, text) {
            let target = module_of(&import.path, layers)
                .or_else(|| module_of(&["lib".to_string()], layers))
                .expect("the crate root is in a layer");
            if target == own {
                continue;
            }
            let target_layer = layer_of(target, layers);
            if !may_use(own_layer, target_layer) {
                found.push(format!(
                    "{name}:{}: `{own}` ({} layer) imports `{}` ({} layer), which it may not use",
                    import.line,
                    own_layer.name,
                    import.path.join("::"),
                    target_layer.name
                ));
            } else if !import.test {
                graph
                    .entry((own.to_string(), target.to_string()))
                    .or_insert((name.clone(), import.line));
            }
        }
    }
    // A cycle: an edge whose target leads back to its source.
    for ((from, to), (file, line)) in &graph {
        if let Some(back) = route(&graph, to, from) {
            found.push(format!(
                "{file}:{line}: `{from}` imports `{to}`, which imports it back: {}",
                back.join(" -> ")
            ));
        }
    }
    found
}

/// A route from `from` to `to` in `graph`, by breadth-first search.
fn route(
    graph: &BTreeMap<(String, String), (String, usize)>,
    from: &str,
    to: &str,
) -> Option<Vec<String>> {
    let mut came: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut path = vec![to.to_string()];
            let mut k = to;
            while k != from {
                k = came[k];
                path.push(k.to_string());
            }
            path.reverse();
            return Some(path);
        }
        for (a, b) in graph.keys() {
            if a == at && b != from && !came.contains_key(b.as_str()) {
                came.insert(b, a);
                queue.push_back(b);
            }
        }
    }
    None
}

/// Every `.rs` file under `dir`, relative to `root`, sorted.
fn sources(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).expect("a readable source file");
            let rel = path.strip_prefix(root).expect("under src").to_path_buf();
            out.push((rel, text));
        }
    }
}

fn the_layers() -> Vec<Layer> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    readme_layers(&readme).unwrap_or_else(|e| panic!("README.md: {e}"))
}

#[test]
fn every_import_goes_down_a_layer_or_stays_in_it_without_a_cycle() {
    let layers = the_layers();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    assert!(files.len() > 50, "only {} source files found", files.len());
    let found = breaches(&layers, &files);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The search and the scores know no game: nothing of `src/search` or `src/score.rs` names a
/// game's module (a check of the table itself, so that a row moved cannot hide it).
#[test]
fn the_search_and_the_scores_use_no_game() {
    let layers = the_layers();
    for game in [
        "board",
        "movegen",
        "notation",
        "tak",
        "eval",
        "tablut::board",
    ] {
        for searcher in ["search", "score"] {
            assert!(
                !may_use(layer_of(searcher, &layers), layer_of(game, &layers)),
                "the README's table lets `{searcher}` use `{game}`"
            );
        }
    }
}

/// The check itself, on a small made-up crate: an upward import, a cycle within a layer, a
/// test module's import of its own layer (allowed) and of a layer above (not), a module in
/// no layer, and imports in comments and strings (ignored).
#[test]
fn the_check_finds_upward_imports_and_cycles() {
    let layers = readme_layers(
        "## How the code is layered\n\n\
         | layer | modules | may use |\n|---|---|---|\n\
         | base | `score`, `lib` | nothing |\n\
         | rules | `board`, `notation`, `game`, `game::board` | base |\n\
         | top | `main`, `cli`, `game::tools` | base, rules |\n",
    )
    .unwrap();
    let file = |path: &str, text: &str| (PathBuf::from(path), text.to_string());
    let files = vec![
        file(
            "score.rs",
            "// use crate::board::Position;\n/// [`crate::board`]\n\
             fn f() { let s = \"crate::board::X\"; let c = '\"'; }\n\
             use crate::board::Move;\n",
        ),
        file(
            "board/mod.rs",
            "mod make;\nuse crate::{score::Score, notation};\n",
        ),
        file("board/make.rs", "use super::Move;\nuse crate::lib_macro;\n"),
        file(
            "notation.rs",
            "use crate::board::{self, Move};\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::game::tools::X;\n}\n",
        ),
        file("game/mod.rs", "pub mod board;\npub use board::Position;\n"),
        file(
            "game/board.rs",
            "use super::tools::Y;\n#[cfg(test)]\nmod tests {\n    use crate::board::Z;\n}\n",
        ),
        file(
            "game/tools.rs",
            "use super::board::Position;\nfn g<'a>(x: &'a str) {}\n",
        ),
        file("stray.rs", "use crate::score::Score;\n"),
        file("main.rs", "use cairn::board::Move;\nuse crate::cli::Run;\n"),
    ];
    assert_eq!(
        breaches(&layers, &files),
        [
            "src/score.rs:4: `score` (base layer) imports `board::Move` (rules layer), which it \
             may not use",
            "src/notation.rs:5: `notation` (rules layer) imports `game::tools::X` (top layer), \
             which it may not use",
            "src/game/board.rs:1: `game::board` (rules layer) imports `game::tools::Y` (top \
             layer), which it may not use",
            "src/stray.rs: module `stray` is in no layer of the README's table",
            "src/board/mod.rs:2: `board` imports `notation`, which imports it back: \
             notation -> board",
            "src/notation.rs:1: `notation` imports `board`, which imports it back: \
             board -> notation",
        ]
    );
}
