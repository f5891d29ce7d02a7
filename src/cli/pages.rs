//! `cairn completions SHELL` and `cairn man`: the command line described for shells and `man`,
//! generated from the same definitions that parse it.

use super::Cli;
use clap::CommandFactory;
use std::path::Path;

/// What `cairn completions --help` adds.
pub const COMPLETIONS_HELP: &str = "Examples:\n  \
    cairn completions bash > ~/.local/share/bash-completion/completions/cairn\n  \
    cairn completions zsh > ~/.zfunc/_cairn\n  \
    cairn completions fish > ~/.config/fish/completions/cairn.fish";

/// What `cairn man --help` adds.
pub const MAN_HELP: &str = "Examples:\n  \
    cairn man | man -l -\n  \
    cairn man --out man/";

/// Writes the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<(), String> {
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "cairn", &mut std::io::stdout());
    Ok(())
}

/// Writes the manual page of `cairn` to stdout, or with `out`, `cairn.1` and one page per
/// subcommand (`cairn-perft.1`, `cairn-tablut-analyze.1`) into that folder, naming each file
/// written on stdout.
pub fn man(out: Option<&Path>) -> Result<(), String> {
    let command = Cli::command();
    let Some(dir) = out else {
        let mut command = command;
        command.build();
        use std::io::Write as _;
        return std::io::stdout()
            .write_all(page(&command)?.as_bytes())
            .map_err(|e| format!("man: {e}"));
    };
    let name = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| format!("--out {name}: {e}"))?;
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    page_names(&command, &mut pages);
    write_pages(&command, dir).map_err(|e| format!("--out {name}: {e}"))?;
    for page in pages {
        println!("{}", dir.join(page).display());
    }
    Ok(())
}

/// Writes the page of `command` (built) and of each of its subcommands into `dir`, each
/// subcommand's before its parent's, under the names [`page_names`] gives.
fn write_pages(command: &clap::Command, dir: &Path) -> Result<(), String> {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir)?;
    }
    let path = dir.join(clap_mangen::Man::new(command.clone()).get_filename());
    std::fs::write(&path, page(command)?).map_err(|e| format!("{}: {e}", path.display()))
}

/// The manual page of `command` (built), its synopsis naming each option's value
/// (`[--depth N]`), which `clap_mangen`'s leaves out (`[--depth]`).
fn page(command: &clap::Command) -> Result<String, String> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut page)
        .map_err(|e| format!("man: {e}"))?;
    let page = String::from_utf8(page).map_err(|e| format!("man: {e}"))?;
    let Some(start) = page
        .find(".SH SYNOPSIS\n")
        .map(|at| at + ".SH SYNOPSIS\n".len())
    else {
        return Ok(page);
    };
    let end = page[start..].find('\n').map_or(page.len(), |at| start + at);
    let mut synopsis = page[start..end].to_string();
    for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
        let Some(long) = arg.get_long() else {
            continue;
        };
        if !arg.get_num_args().is_some_and(|n| n.takes_values()) {
            continue;
        }
        let value = match arg.get_value_names() {
            Some(names) => names
                .iter()
                .map(|v| roff_text(v))
                .collect::<Vec<_>>()
                .join(" "),
            None => roff_text(&arg.get_id().as_str().to_uppercase()),
        };
        let flag = format!("\\fB\\-\\-{}\\fR", roff_text(long));
        if let Some(at) = synopsis.find(&flag) {
            synopsis.insert_str(at + flag.len(), &format!(" \\fI{value}\\fR"));
        }
    }
    Ok(format!("{}{synopsis}{}", &page[..start], &page[end..]))
}

/// `text` as roff prints it literally: hyphens as `\-` (a bare `-` may print as a hyphen, not
/// the minus an option needs) and backslashes as `\e`.
fn roff_text(text: &str) -> String {
    text.replace('\\', "\\e").replace('-', "\\-")
}

/// The file names of the pages [`write_pages`] writes for `command` (built), each
/// subcommand's before its parent's.
fn page_names(command: &clap::Command, names: &mut Vec<String>) {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        page_names(sub, names);
    }
    let name = command.get_display_name().unwrap_or(command.get_name());
    names.push(format!("{name}.1"));
}
