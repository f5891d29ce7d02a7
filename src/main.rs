//! The `cairn` binary: the command line over the workspace's crates (docs/architecture.md).

mod cli;

fn main() {
    cairn_search::tt::return_large_allocations();
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,cairn_engine::playtak=info"),
    )
    .init();
    // `id version` names the build as `cairn --version` does (build.rs).
    cairn_engine::tei::set_version(env!("CAIRN_VERSION"));
    let code = cli::run();
    std::process::exit(code);
}
