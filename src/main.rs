//! The binary is only the CLI's entry point; everything lives in the library.

fn main() -> std::process::ExitCode {
    pitbook::cli::main()
}
