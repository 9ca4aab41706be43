//! The `osolve` command: parses arguments and hands them to a driver of the library.
//! All logic lives in the library; see `cli` for the subcommands.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
