//! How many threads a tool's parallel work runs on: `--threads N`, or every core of the machine.

/// The machine's cores (one when the system cannot say).
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A pool of `threads` workers, every core when `None`; the error names `--threads`.
pub fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool, String> {
    let threads = threads.map_or_else(every_core, usize::from);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("--threads {threads}: {e}"))
}
