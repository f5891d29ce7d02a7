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
        let mut page = Vec::new();
        clap_mangen::Man::new(command)
            .render(&mut page)
            .map_err(|e| format!("man: {e}"))?;
        use std::io::Write as _;
        return std::io::stdout()
            .write_all(&page)
            .map_err(|e| format!("man: {e}"));
    };
    let name = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| format!("--out {name}: {e}"))?;
    let mut command = command.disable_help_subcommand(true);
    command.build();
    clap_mangen::generate_to(command.clone(), dir).map_err(|e| format!("--out {name}: {e}"))?;
    let mut pages = Vec::new();
    page_names(&command, &mut pages);
    for page in pages {
        println!("{}", dir.join(page).display());
    }
    Ok(())
}

/// The file names of the pages `clap_mangen::generate_to` writes for `command` (built), each
/// subcommand's before its parent's.
fn page_names(command: &clap::Command, names: &mut Vec<String>) {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        page_names(sub, names);
    }
    let name = command.get_display_name().unwrap_or(command.get_name());
    names.push(format!("{name}.1"));
}
