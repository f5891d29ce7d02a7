//! The `cairn` binary: command-line front end to the library.

mod cli;

fn main() {
    cairn::search::tt::return_large_allocations();
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,cairn::playtak=info"),
    )
    .init();
    let code = cli::run();
    std::process::exit(code);
}
