//! `cairn ws`: its command-line arguments.

use cairn_engine::ws::{
    AllowedOrigin, WsArgs, DEFAULT_HASH_BUDGET_MB, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
    DEFAULT_PORT,
};
use clap::Args;
use std::net::{IpAddr, Ipv4Addr};

/// Serve TEI over WebSocket (for PTN Ninja): one engine session per connection.
#[derive(Args, Debug, Clone)]
#[command(after_help = "\
Each connection gets its own engine (own hash table); closing it stops its search. \
The bound address is printed on stderr as `listening on ws://ADDRESS:PORT`; \
refused connections are logged; RUST_LOG=info also logs the others.

Web pages: a browser says which page opens a connection (its Origin). Only PTN Ninja \
(https://ptn.ninja) and pages of this machine (http://localhost:*, http://127.0.0.1:*) are \
served unless --allow-origin says otherwise; programs, which send no Origin, always are.

Connecting PTN Ninja (https://ptn.ninja): open the Analysis panel, pick the TEI engine, \
set its address to localhost, port 7731, SSL off, and connect (ws://localhost:7731).

Examples:
  cairn ws
  cairn ws --port 9000 --log-file tei.log
  cairn ws --allow-origin https://ptn.ninja --allow-origin http://localhost:8080
  cairn ws --max-connections 1 --hash-budget 4096 --idle-timeout 0
  RUST_LOG=info cairn ws --port 0")]
pub struct WsCli {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on; the default accepts local connections only.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub address: IpAddr,
    /// A web page origin to serve: `https://HOST`, `http://HOST:PORT`, `http://HOST:*` (any
    /// port) or `*` (any page). Repeatable; replaces the default list (PTN Ninja and this
    /// machine's pages).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origin: Vec<AllowedOrigin>,
    /// Connections served at once; one more is refused (HTTP 503).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CONNECTIONS,
        value_parser = clap::value_parser!(u16).range(1..))]
    pub max_connections: u16,
    /// MiB of hash tables for all connections together; a larger `setoption name Hash` is
    /// clamped to what the other connections leave.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_HASH_BUDGET_MB,
        value_parser = clap::value_parser!(u32).range(1..))]
    pub hash_budget: u32,
    /// Seconds a connection may send nothing while no search of it runs before it is closed
    /// (0: never).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_IDLE_TIMEOUT)]
    pub idle_timeout: u64,
}

impl From<WsCli> for WsArgs {
    fn from(cli: WsCli) -> Self {
        WsArgs {
            port: cli.port,
            address: cli.address,
            allow_origin: cli.allow_origin,
            max_connections: cli.max_connections,
            hash_budget: cli.hash_budget,
            idle_timeout: cli.idle_timeout,
        }
    }
}
