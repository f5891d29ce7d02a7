//! How the command line fails: argument errors as one line with clap's tip and the way to the
//! right help page, and a closed stdout as a quiet end.

use cairn_tak::notation::{excerpt, quote::QUOTE_CHARS};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::CommandFactory as _;

/// Help and version go to stdout as clap writes them; a usage error becomes one line on stderr
/// and exit code 2: clap's message, which names the offending argument, its tip (`a similar
/// argument exists: '--movetime'`) if it has one, and the help of the subcommand the error is
/// in (`see `cairn analyze --help``). A value quoted in the message is cut short and escaped
/// like any refused input ([`cairn_tak::notation::quote()`]).
pub fn argument_error(mut e: clap::Error) -> i32 {
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return e.exit_code();
    }
    let long = shorten_values(&mut e);
    let text = e.render().to_string();
    let command = command_path(&super::Cli::command(), std::env::args_os().skip(1));
    eprintln!("{}", one_line(&text, long, &command));
    2
}

/// The subcommand the arguments name, as `cairn tablut analyze`: each argument that names a
/// subcommand (or its alias) of the one before goes deeper.
fn command_path(
    command: &clap::Command,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> String {
    let mut path = vec![command.get_name().to_string()];
    let mut current = command;
    for arg in args {
        if arg == "--" {
            break;
        }
        let Some(sub) = arg.to_str().and_then(|a| current.find_subcommand(a)) else {
            continue;
        };
        path.push(sub.get_name().to_string());
        current = sub;
    }
    path.join(" ")
}

/// Replaces each value the error quotes that is long or holds control characters by its
/// excerpt; returns the length in bytes of the longest value cut, if any was.
fn shorten_values(e: &mut clap::Error) -> Option<usize> {
    let mut cut = None;
    for kind in [
        ContextKind::InvalidValue,
        ContextKind::InvalidArg,
        ContextKind::InvalidSubcommand,
    ] {
        let Some(ContextValue::String(value)) = e.get(kind) else {
            continue;
        };
        let shown = excerpt(value);
        if shown != *value {
            if value.chars().count() > QUOTE_CHARS {
                cut = cut.max(Some(value.len()));
            }
            e.insert(kind, ContextValue::String(shown));
        }
    }
    cut
}

/// The rendered clap error as one line: the message (until the blank line before its tips and
/// `Usage:`; its continuation lines name arguments, such as the missing required ones), the
/// tips, and the help page of `command`.
fn one_line(text: &str, cut: Option<usize>, command: &str) -> String {
    let mut lines = text.lines();
    let mut message = lines
        .by_ref()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    message = range_wording(&message);
    if let Some(bytes) = cut {
        message += &format!(" (the value is {bytes} bytes)");
    }
    for line in lines {
        if let Some(tip) = line.trim().strip_prefix("tip:") {
            message += &format!("; tip:{tip}");
        }
    }
    format!("{message} (see `{command} --help`)")
}

/// clap words an open range `1..` of an integer type as `0 is not in 1..18446744073709551615`:
/// that becomes `must be at least 1`.
fn range_wording(message: &str) -> String {
    const LARGEST: [u64; 6] = [
        u8::MAX as u64,
        u16::MAX as u64,
        u32::MAX as u64,
        i32::MAX as u64,
        i64::MAX as u64,
        u64::MAX,
    ];
    let Some(at) = message.find(" is not in ") else {
        return message.to_string();
    };
    let rest = &message[at + " is not in ".len()..];
    let range: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-' || *c == '=')
        .collect();
    let Some((low, high)) = range.split_once("..") else {
        return message.to_string();
    };
    let high = high.strip_prefix('=').unwrap_or(high);
    if !high.parse().is_ok_and(|h: u64| LARGEST.contains(&h)) {
        return message.to_string();
    }
    // The value before ` is not in ` is already quoted earlier in the message.
    let value_start = message[..at].rfind(' ').map_or(0, |i| i + 1);
    format!(
        "{}must be at least {low}{}",
        &message[..value_start],
        &rest[range.len()..]
    )
}

/// Makes a closed stdout (`cairn perft ... | head -1`) end the process quietly, as it ends
/// `ls` or `cat`: by the default action of SIGPIPE, whose status a shell shows as 141.
///
/// Rust starts programs with SIGPIPE ignored, so a write to a closed pipe fails with
/// `BrokenPipe`, and `println!` turns that into a panic (exit code 101 and a backtrace). Routing
/// every write through a checking writer would have to reach into every tool's printing (the
/// analysis prints its own); restoring the signal's default is one call and covers them all.
/// It is only for the subcommands that write results and end: the protocol modes and `match`
/// keep SIGPIPE ignored, because their pipes and sockets lead to GUIs, servers and engines
/// that may go away, and that is an error they report and survive, not the end of the
/// program.
pub fn end_quietly_on_closed_pipe() {
    #[cfg(unix)]
    {
        // SAFETY: `signal` with `SIG_DFL` only resets the disposition of SIGPIPE; it installs
        // no handler, so no code runs in signal context. It is called before any thread that
        // writes has started, and nothing else in the program sets SIGPIPE's disposition.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_help_of_the_subcommand_named() {
        let path = |args: &[&str]| {
            command_path(&super::super::Cli::command(), args.iter().map(Into::into))
        };
        assert_eq!(path(&["analyze", "--movetim", "1"]), "cairn analyze");
        assert_eq!(path(&["analyse", "--nodes", "0"]), "cairn analyze");
        assert_eq!(
            path(&["tablut", "perft", "--depth", "x"]),
            "cairn tablut perft"
        );
        assert_eq!(path(&["prft"]), "cairn");
        assert_eq!(path(&["perft", "--", "tei"]), "cairn perft");
    }

    #[test]
    fn open_ranges_read_as_a_minimum() {
        let clap = "error: invalid value '0' for '--nodes <NODES>': 0 is not in \
                    1..18446744073709551615";
        assert_eq!(
            range_wording(clap),
            "error: invalid value '0' for '--nodes <NODES>': must be at least 1"
        );
        let closed = "error: invalid value '0' for '--threads <THREADS>': 0 is not in 1..=1024";
        assert_eq!(range_wording(closed), closed);
    }

    #[test]
    fn tips_and_the_subcommand_help_stay() {
        let text = "error: unexpected argument '--movetim' found\n\n  tip: a similar argument \
                    exists: '--movetime'\n\nUsage: cairn analyze --movetime <MS> [TPS]\n\nFor \
                    more information, try '--help'.\n";
        assert_eq!(
            one_line(text, None, "cairn analyze"),
            "error: unexpected argument '--movetim' found; tip: a similar argument exists: \
             '--movetime' (see `cairn analyze --help`)"
        );
    }
}
