//! TEI (Tak Engine Interface) on stdin/stdout: placeholder, being written.

/// Runs the TEI loop on stdin and stdout until `quit` or end of input.
pub fn run() {
    // Filled in by the TEI layer.
}
