//! The layers of the code are the workspace's crates, so the compiler keeps them: a crate can
//! only use what its Cargo.toml names. This test keeps the Cargo.toml files to the table in
//! `docs/architecture.md` ("## Crates": `| crate | holds | may use |`, crate names in
//! backticks, `nothing` for none), read from `cargo metadata`:
//! - every package of the workspace is a row of the table, and every row is a package;
//! - a package's normal and build dependencies on the workspace's crates are among those its
//!   row may use (tests and benches may use more: they are not part of the graph);
//! - the crates that hold the game (the rules, the search, Tablut) have none of the tool
//!   crates anywhere in their dependency tree, so another Rust project can take them alone.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Crates that only tools and protocols may pull in: command-line parsing, pictures, network
/// protocols, link compression and signal handling.
const TOOL_CRATES: [&str; 5] = ["clap", "plotters", "tungstenite", "lz-str", "signal-hook"];

/// The crates that must stay free of [`TOOL_CRATES`], whatever path brings them in.
const GAME_CRATES: [&str; 3] = ["cairn-search", "cairn-tak", "cairn-tablut"];

/// The table under `## Crates`: each crate and the workspace crates it may use.
fn table(doc: &str) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let section = format!("\n{doc}")
        .split("\n## Crates")
        .nth(1)
        .ok_or("docs/architecture.md has no section \"## Crates\"")?
        .to_string();
    let section = section
        .split("\n## ")
        .next()
        .unwrap_or(&section)
        .to_string();
    let mut rows = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [name, _holds, uses] = cells[..] else {
            return Err(format!(
                "a row of the crate table has not three cells: {line}"
            ));
        };
        if name == "crate" || name.starts_with('-') {
            continue;
        }
        let ticked = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        };
        let [crate_name] = &ticked(name)[..] else {
            return Err(format!(
                "a row of the crate table names no crate in backticks: {line}"
            ));
        };
        rows.insert(crate_name.clone(), ticked(uses).into_iter().collect());
    }
    if rows.is_empty() {
        return Err("the crate table of docs/architecture.md has no rows".to_string());
    }
    Ok(rows)
}

/// Every breach of the table in `cargo metadata`'s output (`--format-version 1`, with the
/// resolved graph), one line each.
fn breaches(rows: &BTreeMap<String, BTreeSet<String>>, metadata: &Value) -> Vec<String> {
    let packages = metadata["packages"].as_array().expect("packages");
    let name_of_id: BTreeMap<&str, &str> = packages
        .iter()
        .map(|p| {
            (
                p["id"].as_str().expect("id"),
                p["name"].as_str().expect("name"),
            )
        })
        .collect();
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .map(|id| name_of_id[id.as_str().expect("member id")])
        .collect();
    let mut out = Vec::new();
    for member in &members {
        if !rows.contains_key(*member) {
            out.push(format!("crate `{member}` is in no row of the table"));
        }
    }
    for row in rows.keys() {
        if !members.contains(row.as_str()) {
            out.push(format!(
                "the table names `{row}`, which is no crate of the workspace"
            ));
        }
    }
    for package in packages {
        let name = package["name"].as_str().expect("name");
        let Some(allowed) = rows.get(name).filter(|_| members.contains(name)) else {
            continue;
        };
        for dep in package["dependencies"].as_array().expect("dependencies") {
            let dep_name = dep["name"].as_str().expect("dependency name");
            let graph = dep["kind"].is_null() || dep["kind"] == "build";
            if graph && members.contains(dep_name) && !allowed.contains(dep_name) {
                out.push(format!(
                    "`{name}` depends on `{dep_name}`, which its row may not use"
                ));
            }
        }
    }
    // The resolved graph: each package's normal and build dependencies.
    let nodes: BTreeMap<&str, Vec<&str>> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .map(|node| {
            let deps = node["deps"]
                .as_array()
                .expect("deps")
                .iter()
                .filter(|d| {
                    d["dep_kinds"]
                        .as_array()
                        .expect("dep_kinds")
                        .iter()
                        .any(|k| k["kind"].is_null() || k["kind"] == "build")
                })
                .map(|d| d["pkg"].as_str().expect("pkg"))
                .collect();
            (node["id"].as_str().expect("node id"), deps)
        })
        .collect();
    for game in GAME_CRATES {
        let Some((&root, _)) = name_of_id.iter().find(|(_, n)| **n == game) else {
            continue;
        };
        // Depth-first, remembering the path that reached each package.
        let mut seen = BTreeSet::new();
        let mut stack = vec![vec![root]];
        while let Some(path) = stack.pop() {
            let id = *path.last().expect("a path is never empty");
            if !seen.insert(id) {
                continue;
            }
            let name = name_of_id[id];
            if TOOL_CRATES.contains(&name) {
                let chain: Vec<&str> = path.iter().map(|id| name_of_id[id]).collect();
                out.push(format!(
                    "`{game}` pulls in the tool crate `{name}`: {}",
                    chain.join(" -> ")
                ));
                continue;
            }
            for dep in nodes.get(id).into_iter().flatten() {
                let mut next = path.clone();
                next.push(dep);
                stack.push(next);
            }
        }
    }
    out
}

fn architecture() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/architecture.md");
    std::fs::read_to_string(path).expect("docs/architecture.md")
}

/// The host's target triple, as `rustc -vV` names it.
fn host() -> String {
    let output = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    let text = String::from_utf8(output.stdout).expect("rustc prints UTF-8");
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_string()
}

/// The workspace's metadata for this machine's platform: `--offline` finds every package in
/// the local cache, since the tests' own build fetched them (other platforms' are not fetched).
fn metadata() -> Value {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--filter-platform",
        ])
        .arg(host())
        .arg("--manifest-path")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn the_crate_graph_keeps_the_table_of_docs_architecture() {
    let rows = table(&architecture()).unwrap_or_else(|e| panic!("{e}"));
    for crate_name in [
        "cairn",
        "cairn-search",
        "cairn-tak",
        "cairn-engine",
        "cairn-tools",
    ] {
        assert!(
            rows.contains_key(crate_name),
            "the table has no row for {crate_name}"
        );
    }
    let found = breaches(&rows, &metadata());
    assert!(
        found.is_empty(),
        "the crate graph breaks the table:\n{}",
        found.join("\n")
    );
}

/// The check itself on a small workspace: a planted dependency of the rules on a tool crate,
/// direct or through another package, and a use the table does not allow are each named.
#[test]
fn planted_dependencies_are_named() {
    let rows = table(
        "## Crates\n| crate | holds | may use |\n|---|---|---|\n\
         | `cairn-search` | the search | nothing |\n\
         | `cairn-tak` | the rules | `cairn-search` |\n\
         | `cairn-tools` | tools | `cairn-tak`, `cairn-search` |\n\n## Next\n",
    )
    .expect("the sample table reads");
    let package = |name: &str, deps: &[(&str, Option<&str>)]| {
        serde_json::json!({
            "id": format!("{name}-id"),
            "name": name,
            "dependencies": deps.iter().map(|(d, kind)| serde_json::json!({"name": d, "kind": kind})).collect::<Vec<_>>(),
        })
    };
    let node = |name: &str, deps: &[&str]| {
        serde_json::json!({
            "id": format!("{name}-id"),
            "deps": deps.iter().map(|d| serde_json::json!({"pkg": format!("{d}-id"), "dep_kinds": [{"kind": null}]})).collect::<Vec<_>>(),
        })
    };
    let metadata = serde_json::json!({
        "packages": [
            package("cairn-search", &[("cairn-tools", None)]),
            package("cairn-tak", &[("cairn-search", None), ("helper", None), ("clap", Some("dev"))]),
            package("cairn-tools", &[("cairn-tak", None), ("clap", None)]),
            package("helper", &[("plotters", None)]),
            package("plotters", &[]),
            package("clap", &[]),
        ],
        "workspace_members": ["cairn-search-id", "cairn-tak-id", "cairn-tools-id"],
        "resolve": {"nodes": [
            node("cairn-search", &[]),
            node("cairn-tak", &["cairn-search", "helper"]),
            node("cairn-tools", &["cairn-tak", "clap"]),
            node("helper", &["plotters"]),
            node("plotters", &[]),
            node("clap", &[]),
        ]},
    });
    assert_eq!(
        breaches(&rows, &metadata),
        [
            "`cairn-search` depends on `cairn-tools`, which its row may not use",
            "`cairn-tak` pulls in the tool crate `plotters`: cairn-tak -> helper -> plotters",
        ]
    );
    assert!(table("# Nothing here\n").is_err());
}
