//! The binary is only the CLI's entry point; everything lives in the library.

/// The write and verify paths allocate many small strings (JSON, hashes);
/// mimalloc measured ~1.5× faster verification than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    pitbook::cli::main()
}
