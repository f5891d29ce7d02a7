//! `cairn playtak`: its command-line arguments.

use cairn_engine::engine::DEFAULT_HASH_MB;
use cairn_engine::playtak::protocol::SeekColor;
use cairn_engine::playtak::{PlaytakArgs, DEFAULT_MOVE_OVERHEAD_MS, DEFAULT_SERVER};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `cairn playtak` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
    CAIRN_PLAYTAK_PASSWORD=... cairn playtak --user MyBot --size 6 --tc 900+10 --komi 2 --ptn-dir games\n  \
    cairn playtak --size 5 --tc 300+5 --games 1          (as a guest)\n  \
    cairn playtak --user MyBot --password-file pw.txt --accept SomePlayer")]
pub struct PlaytakCli {
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
    #[arg(long, value_enum, default_value_t = SeekColorArg::Any)]
    pub color: SeekColorArg,
    /// Komi in flats (0 to 4, in steps of 0.5).
    #[arg(long, default_value_t = 0.0)]
    pub komi: f64,
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
    /// Accept the seeks of this player (* for anyone) instead of seeking.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["opponent", "seeks"])]
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
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_name = "MB")]
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
    /// Seconds between PINGs (the server drops clients silent for 60 s).
    #[arg(long, default_value_t = 20.0, hide = true)]
    pub ping_interval: f64,
    /// Seconds after a PING with no line back before the link counts as dead and is made again.
    #[arg(long, default_value_t = 10.0, hide = true)]
    pub ping_timeout: f64,
    /// First wait before reconnecting, ms (doubles up to 60 s).
    #[arg(long, default_value_t = 1000, hide = true)]
    pub reconnect_delay: u64,
}

/// The colour a seek asks for: the command line's names of [`SeekColor`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SeekColorArg {
    /// The seeker plays White.
    White,
    /// The seeker plays Black.
    Black,
    /// Drawn at random by the server.
    Any,
}

impl From<SeekColorArg> for SeekColor {
    fn from(color: SeekColorArg) -> Self {
        match color {
            SeekColorArg::White => SeekColor::White,
            SeekColorArg::Black => SeekColor::Black,
            SeekColorArg::Any => SeekColor::Any,
        }
    }
}

impl From<PlaytakCli> for PlaytakArgs {
    fn from(cli: PlaytakCli) -> Self {
        PlaytakArgs {
            server: cli.server,
            websocket: cli.websocket,
            user: cli.user,
            password_file: cli.password_file,
            size: cli.size,
            tc: cli.tc,
            color: cli.color.into(),
            komi: cli.komi,
            flats: cli.flats,
            caps: cli.caps,
            unrated: cli.unrated,
            tournament: cli.tournament,
            extra_time: cli.extra_time,
            opponent: cli.opponent,
            seeks: cli.seeks,
            accept: cli.accept,
            accept_sizes: cli.accept_size,
            accept_time: cli.accept_time,
            accept_rated: match (cli.accept_rated, cli.accept_unrated) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
            resign: cli.resign,
            quiet: cli.quiet,
            games: cli.games,
            accept_undo: cli.accept_undo,
            accept_draw: cli.accept_draw,
            ptn_dir: cli.ptn_dir,
            hash: cli.hash,
            threads: cli.threads,
            move_overhead: cli.move_overhead,
            contempt: cli.contempt,
            ping_interval: cli.ping_interval,
            ping_timeout: cli.ping_timeout,
            reconnect_delay: cli.reconnect_delay,
        }
    }
}
