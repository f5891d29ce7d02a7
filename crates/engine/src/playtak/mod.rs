//! `cairn playtak`: Cairn as a bot on playtak.com (or any server speaking its protocol).
//!
//! The client logs in (with an account, or as a guest), posts a seek or accepts another
//! player's, and plays with the engine in-process from the server's clocks, game after game,
//! until stopped or until `--games` are finished. It pings the server, answers undo requests
//! and draw offers by policy, reconnects after a dropped connection and resumes the game in
//! progress, and writes each finished game as PTN.
//!
//! - [`protocol`]: server lines and client commands, moves in server notation;
//! - [`transport`]: TCP or WebSocket lines;
//! - [`client`]: the session.

pub mod client;
pub mod protocol;
pub mod transport;

use crate::engine;
use crate::tei::Transcript;
use cairn_tak::board::{reserves_for_size, Komi};
use cairn_tak::notation::counted;
use client::{AcceptFilter, Config, Login, Mode};
use protocol::{Seek, SeekColor};
use std::path::PathBuf;
use std::time::Duration;

/// The public server's telnet port.
pub const DEFAULT_SERVER: &str = "playtak.com:10000";

/// The environment variable that may hold the password.
pub const PASSWORD_ENV: &str = "CAIRN_PLAYTAK_PASSWORD";

/// Move overhead on a network server, ms: lines may take tens of ms to arrive, and the server
/// runs the clock from when it sent the opponent's move.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 150;

/// `cairn playtak` arguments.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
    CAIRN_PLAYTAK_PASSWORD=... cairn playtak --user MyBot --size 6 --tc 900+10 --komi 2 --ptn-dir games\n  \
    cairn playtak --size 5 --tc 300+5 --games 1          (as a guest)\n  \
    cairn playtak --user MyBot --password-file pw.txt --accept SomePlayer")]
pub struct PlaytakArgs {
    /// Server as HOST:PORT (the public server's telnet port by default; a HOST alone gets port
    /// 10000), or ws://HOST:PORT/ for a WebSocket port.
    #[arg(long, default_value = DEFAULT_SERVER, value_name = "HOST:PORT")]
    pub server: String,
    /// Connect to the server's WebSocket endpoint (ws://HOST:PORT/, subprotocol `binary`).
    #[arg(long)]
    pub websocket: bool,
    /// Account name; without it Cairn logs in as a guest.
    #[arg(long, value_name = "NAME")]
    pub user: Option<String>,
    /// File whose first line is the password (else $CAIRN_PLAYTAK_PASSWORD).
    #[arg(long, value_name = "PATH", requires = "user")]
    pub password_file: Option<PathBuf>,
    /// Board size of the seek (3-8).
    #[arg(long, default_value_t = 6, value_parser = cairn_tak::board::parse_size)]
    pub size: u8,
    /// Time control of the seek: starting seconds + increment seconds.
    #[arg(long, default_value = "900+10", value_name = "SECONDS+INC")]
    pub tc: String,
    /// Colour Cairn asks for.
    #[arg(long, value_enum, default_value_t = SeekColor::Any)]
    pub color: SeekColor,
    /// Komi in flats (0 to 4, in steps of 0.5).
    #[arg(long, default_value_t = Komi::ZERO, allow_negative_numbers = true)]
    pub komi: Komi,
    /// Stones per player (only the standard count for the size is played).
    #[arg(long, value_name = "N")]
    pub flats: Option<u32>,
    /// Capstones per player (only the standard count for the size is played).
    #[arg(long, value_name = "N")]
    pub caps: Option<u32>,
    /// Seek an unrated game.
    #[arg(long)]
    pub unrated: bool,
    /// Seek a tournament game.
    #[arg(long)]
    pub tournament: bool,
    /// Extra time: SECONDS added to each clock when a player reaches move MOVE.
    #[arg(long, value_name = "MOVE+SECONDS")]
    pub extra_time: Option<String>,
    /// Only this player may accept the seek.
    #[arg(long, value_name = "NAME")]
    pub opponent: Option<String>,
    /// A seek to post, `"SIZE SECONDS+INC [komi K] [white|black|any] [rated|unrated]"`; give it
    /// several times to post them in turn, one after each game (instead of --size, --tc, --komi).
    #[arg(long = "seek", value_name = "SEEK", conflicts_with_all = ["size", "tc", "komi"])]
    pub seeks: Vec<String>,
    /// Accept the seeks of this player (* for anyone) instead of seeking. The seek's own options
    /// (--size, --tc, --komi, --color, --unrated, ...) do not filter what is accepted and are
    /// refused with it: filter with --accept-size, --accept-time, --accept-rated, --accept-unrated.
    #[arg(long, value_name = "NAME", conflicts_with_all = [
        "opponent", "seeks", "size", "tc", "color", "komi", "flats", "caps", "unrated",
        "tournament", "extra_time",
    ])]
    pub accept: Option<String>,
    /// With --accept: only these board sizes.
    #[arg(long, value_name = "SIZES", value_delimiter = ',', requires = "accept",
          value_parser = cairn_tak::board::parse_size)]
    pub accept_size: Vec<u8>,
    /// With --accept: only a starting time from MIN to MAX seconds.
    #[arg(long, value_name = "MIN-MAX", requires = "accept")]
    pub accept_time: Option<String>,
    /// With --accept: only rated games.
    #[arg(long, requires = "accept", conflicts_with = "accept_unrated")]
    pub accept_rated: bool,
    /// With --accept: only unrated games.
    #[arg(long, requires = "accept")]
    pub accept_unrated: bool,
    /// Stop after this many finished games (default: play until stopped).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Grant the opponent's undo requests.
    #[arg(long)]
    pub accept_undo: bool,
    /// Accept draw offers when the evaluation says Cairn is not winning.
    #[arg(long)]
    pub accept_draw: bool,
    /// Resign a lost game: a loss the search proves, or 6 moves in a row evaluated below -8 flats.
    #[arg(long)]
    pub resign: bool,
    /// No chat: no greeting, no reply when an undo or a draw is declined.
    #[arg(long)]
    pub quiet: bool,
    /// Write each finished game as a PTN file into this directory.
    #[arg(long, value_name = "DIR")]
    pub ptn_dir: Option<PathBuf>,
    /// Transposition table, MiB.
    #[arg(long, default_value_t = engine::DEFAULT_HASH_MB, value_name = "MB")]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Time kept in hand per move for the network, ms.
    #[arg(long, default_value_t = DEFAULT_MOVE_OVERHEAD_MS, value_name = "MS")]
    pub move_overhead: u64,
    /// How much worse than even a draw is for the bot, in centiflats (-100 to 100; above 0 it
    /// avoids a draw for any line it judges better than that; the TEI option `Contempt`).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(-100..=100), value_name = "CENTIFLATS")]
    pub contempt: i32,
    /// Playing strength, 1 (a beginner) to 15 (full strength); the TEI option `Level`. Below
    /// 15 the bot searches less and picks among its best moves (docs/levels.md has each
    /// level's Elo).
    #[arg(long, default_value_t = crate::level::FULL,
          value_parser = clap::value_parser!(u8).range(crate::level::WEAKEST as i64..=crate::level::FULL as i64))]
    pub level: u8,
    /// The seed of a weaker level's choices, mixed with each game's number: the same seed and
    /// game number replay the same moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Seconds between PINGs (the server drops clients silent for 60 s).
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS")]
    pub ping_interval: f64,
    /// Seconds after a PING with no line back before the link counts as dead and is made again.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub ping_timeout: f64,
    /// First wait before reconnecting, ms (doubles up to 60 s).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub reconnect_delay: u64,
}

impl PlaytakArgs {
    /// When accepting: only rated (`Some(true)`) or only unrated (`Some(false)`) games.
    fn accept_rated(&self) -> Option<bool> {
        match (self.accept_rated, self.accept_unrated) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    }
}

/// The server's komi range (within Cairn's), in words.
const SERVER_KOMI: &str = "the server allows 0 to 4 in steps of 0.5";

/// The exit code when another login to the account took it over: the bot must not come back
/// (a service manager told not to restart on it, as in docs/playtak.md, leaves it stopped).
pub const EXIT_TAKEN_OVER: i32 = 3;

/// Runs `cairn playtak`; returns the exit code: 0 when done or stopped as asked,
/// [`EXIT_TAKEN_OVER`] when another login took over the account, 1 for any other error.
pub fn run(args: &PlaytakArgs, transcript: Option<Transcript>) -> i32 {
    let config = match config(args, transcript) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    match client::run(config) {
        Ok(()) => 0,
        Err(e) => {
            // One line: the log goes to the same stderr.
            eprintln!("error: {e}");
            if e.taken_over {
                EXIT_TAKEN_OVER
            } else {
                1
            }
        }
    }
}

/// Checks the arguments and builds the session's configuration.
pub fn config(args: &PlaytakArgs, transcript: Option<Transcript>) -> Result<Config, String> {
    let login = match &args.user {
        Some(name) if !valid_name(name) => {
            return Err(format!(
                "--user {name}: not a playtak name (a letter, then 3 to 15 letters, digits or _)"
            ))
        }
        Some(name) => Login::User {
            name: name.clone(),
            password: password(args)?,
        },
        None => Login::Guest {
            token: guest_token(),
        },
    };
    let mode = match &args.accept {
        Some(name) => Mode::Accept(accept_filter(name, args)?),
        None if args.seeks.is_empty() => Mode::Seek(vec![seek(args)?]),
        None => Mode::Seek(
            args.seeks
                .iter()
                .map(|text| seek_option(text, args))
                .collect::<Result<_, _>>()?,
        ),
    };
    if args.hash == 0 {
        return Err("--hash 0: the transposition table needs at least 1 MiB".to_string());
    }
    let (server, websocket) = server_address(&args.server, args.websocket)?;
    if !(args.ping_interval > 0.0 && args.ping_interval <= 30.0) {
        return Err("--ping-interval must be above 0 and at most 30 seconds".to_string());
    }
    if !(args.ping_timeout > 0.0 && args.ping_timeout <= 300.0) {
        return Err("--ping-timeout must be above 0 and at most 300 seconds".to_string());
    }
    Ok(Config {
        server,
        websocket,
        login,
        mode,
        games: args.games,
        accept_undo: args.accept_undo,
        accept_draw: args.accept_draw,
        resign: args.resign,
        quiet: args.quiet,
        ptn_dir: args.ptn_dir.clone(),
        engine: engine::Options {
            hash_mb: args.hash,
            threads: args.threads as usize,
            move_overhead_ms: args.move_overhead,
            contempt: args.contempt,
            level: args.level,
            seed: args.seed,
            ..engine::Options::default()
        },
        ping_interval: Duration::from_secs_f64(args.ping_interval),
        ping_timeout: Duration::from_secs_f64(args.ping_timeout),
        reconnect_delay: Duration::from_millis(args.reconnect_delay.max(1)),
        transcript,
    })
}

/// `HOST:PORT` and whether to speak WebSocket, from `--server` (a `ws://HOST:PORT/` URL means
/// WebSocket; a host with no port gets the public server's telnet port).
fn server_address(server: &str, websocket: bool) -> Result<(String, bool), String> {
    let (rest, websocket) = match server.split_once("://") {
        Some(("ws", rest)) => (rest.trim_end_matches('/'), true),
        Some((scheme, _)) => {
            return Err(format!(
                "--server {server}: Cairn speaks plain TCP (HOST:PORT) or ws://HOST:PORT/, \
                 not {scheme}://"
            ))
        }
        None => (server, websocket),
    };
    if rest.is_empty() || rest.contains('/') {
        return Err(format!(
            "--server {server}: expected HOST:PORT or ws://HOST:PORT/"
        ));
    }
    let default_port = DEFAULT_SERVER.rsplit(':').next().unwrap_or_default();
    let address = match rest.rsplit_once(':') {
        // `[::1]` alone, or a host name alone.
        _ if rest.ends_with(']') => format!("{rest}:{default_port}"),
        Some((host, port)) if !host.contains(':') || host.ends_with(']') => {
            if host.is_empty() || port.parse::<u16>().is_err() {
                return Err(format!("--server {server}: `{port}` is not a port number"));
            }
            rest.to_string()
        }
        Some(_) => {
            return Err(format!(
                "--server {server}: write an IPv6 host as [ADDRESS]:PORT"
            ))
        }
        None => format!("{rest}:{default_port}"),
    };
    Ok((address, websocket))
}

/// The filter of `--accept NAME` and its `--accept-*` options.
fn accept_filter(name: &str, args: &PlaytakArgs) -> Result<AcceptFilter, String> {
    let player = match name {
        "*" => None,
        name if valid_name(name) => Some(name.to_string()),
        name => {
            return Err(format!(
                "--accept {name}: not a playtak name (or * for anyone)"
            ))
        }
    };
    let time = match &args.accept_time {
        Some(text) => {
            let bad = || format!("--accept-time {text}: expected MIN-MAX seconds, like 60-900");
            let (from, to) = text.split_once('-').ok_or_else(bad)?;
            let (from, to): (u64, u64) = (
                from.trim().parse().map_err(|_| bad())?,
                to.trim().parse().map_err(|_| bad())?,
            );
            if from > to {
                return Err(bad());
            }
            Some((from, to))
        }
        None => None,
    };
    Ok(AcceptFilter {
        player,
        sizes: args.accept_size.iter().map(|&s| s as usize).collect(),
        time,
        rated: args.accept_rated(),
    })
}

/// One `--seek` text: `SIZE SECONDS+INC [komi K] [white|black|any] [rated|unrated]`.
fn seek_option(text: &str, args: &PlaytakArgs) -> Result<Seek, String> {
    let bad = |why: String| format!("--seek \"{text}\": {why}");
    let mut words = text.split_whitespace();
    let mut one = args.clone();
    let size = words.next().ok_or_else(|| bad("empty".to_string()))?;
    one.size = cairn_tak::board::parse_size(size).map_err(bad)?;
    one.tc = words
        .next()
        .ok_or_else(|| bad("no time control (like 900+10)".to_string()))?
        .to_string();
    while let Some(word) = words.next() {
        match word {
            "komi" => {
                let komi = words.next().unwrap_or_default();
                one.komi = komi
                    .parse()
                    .map_err(|_| bad(format!("komi `{komi}`: {SERVER_KOMI}")))?;
            }
            "white" => one.color = SeekColor::White,
            "black" => one.color = SeekColor::Black,
            "any" => one.color = SeekColor::Any,
            "rated" => one.unrated = false,
            "unrated" => one.unrated = true,
            other => {
                return Err(bad(format!(
                    "unknown word `{other}` (expected komi K, white, black, any, rated or \
                     unrated)"
                )))
            }
        }
    }
    seek(&one).map_err(bad)
}

fn password(args: &PlaytakArgs) -> Result<String, String> {
    let password = match &args.password_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--password-file {}: {e}", path.display()))?;
            text.lines().next().unwrap_or_default().trim().to_string()
        }
        None => std::env::var(PASSWORD_ENV).map_err(|_| {
            format!("--user needs a password: give --password-file or set {PASSWORD_ENV}")
        })?,
    };
    if password.is_empty() || password.contains(char::is_whitespace) {
        return Err("the password is empty or contains white space".to_string());
    }
    let length = password.chars().count();
    if !(6..=50).contains(&length) {
        return Err(format!(
            "the password has {}; the server takes 6 to 50",
            counted(length as u64, "character")
        ));
    }
    Ok(password)
}

/// 20 lower-case letters, so that a reconnecting guest gets its game back.
fn guest_token() -> String {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id()).rotate_left(32);
    let mut rng = cairn_search::rng::Rng::new(seed);
    (0..20)
        .map(|_| (b'a' + rng.below(26) as u8) as char)
        .collect()
}

/// A player name as the server accepts it: a letter, then 3 to 15 letters, digits or `_`.
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && (4..=16).contains(&name.len())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `A+B` with whole numbers.
fn pair(text: &str, what: &str) -> Result<(u64, u64), String> {
    let bad = || format!("{what} `{text}`: expected two whole numbers like 900+10");
    let (a, b) = text.split_once('+').ok_or_else(bad)?;
    Ok((
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ))
}

fn seek(args: &PlaytakArgs) -> Result<Seek, String> {
    let size = args.size as usize;
    let (time, inc) = pair(&args.tc, "--tc")?;
    if time == 0 {
        return Err("--tc: the starting time must be at least 1 second".to_string());
    }
    // The server's own range, within Cairn's.
    let komi = args.komi;
    if !(0..=8).contains(&komi.halves()) {
        return Err(format!("--komi {komi}: {SERVER_KOMI}"));
    }
    let Some((stones, capstones)) = reserves_for_size(size) else {
        return Err(format!("--size {size}: Cairn plays 3 to 8"));
    };
    let flats = args.flats.unwrap_or(u32::from(stones));
    let caps = args.caps.unwrap_or(u32::from(capstones));
    if flats != u32::from(stones) || caps != u32::from(capstones) {
        return Err(format!(
            "--flats {flats} --caps {caps}: Cairn plays only the standard pieces, {} and {} \
             on {size}x{size}",
            counted(stones.into(), "flat"),
            counted(capstones.into(), "capstone")
        ));
    }
    let extra = match &args.extra_time {
        Some(text) => {
            let (trigger, seconds) = pair(text, "--extra-time")?;
            let trigger = u32::try_from(trigger).map_err(|_| "--extra-time: move too large")?;
            (trigger, seconds)
        }
        None => (0, 0),
    };
    if let Some(name) = &args.opponent {
        if !valid_name(name) {
            return Err(format!("--opponent {name}: not a playtak name"));
        }
    }
    Ok(Seek {
        size,
        time,
        inc,
        color: args.color,
        half_komi: komi.halves() as u8,
        flats,
        caps,
        unrated: args.unrated,
        tournament: args.tournament,
        extra,
        opponent: args.opponent.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses() {
        let ok = |text: &str, ws: bool| server_address(text, ws).unwrap();
        assert_eq!(
            ok("playtak.com:10000", false),
            ("playtak.com:10000".into(), false)
        );
        assert_eq!(ok("localhost", false), ("localhost:10000".into(), false));
        assert_eq!(
            ok("ws://127.0.0.1:9999/", false),
            ("127.0.0.1:9999".into(), true)
        );
        assert_eq!(
            ok("ws://127.0.0.1:9999", false),
            ("127.0.0.1:9999".into(), true)
        );
        assert_eq!(ok("[::1]:10000", true), ("[::1]:10000".into(), true));
        assert_eq!(ok("[::1]", false), ("[::1]:10000".into(), false));
        for bad in [
            "",
            "wss://playtak.com/ws",
            "ws://",
            "host:",
            ":10000",
            "::1:10000",
        ] {
            assert!(server_address(bad, false).is_err(), "{bad}");
        }
    }
}
