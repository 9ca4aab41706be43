//! The `osolve` command: parses arguments and hands them to a driver of the library.
//! All logic lives in the library; see `cli` for the subcommands.

/// `eprintln!` for the program's messages, without its panic: when standard error cannot be
/// written (a closed pipe, as in `osolve ... 2>&1 | head`), the line is lost and the run ends
/// with its own exit code, where `eprintln!` would panic (exit code 101).
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` as [`stderr_line!`] is `eprintln!`.
macro_rules! stderr_text {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;

/// Large blocks (the transposition tables) on transparent huge pages where the build has the
/// kernel module that provides it; the plain system allocator elsewhere.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[global_allocator]
static ALLOCATOR: osolve::huge_pages::HugePageAlloc = osolve::huge_pages::HugePageAlloc;

fn main() {
    // Before any thread starts: under `ulimit -v`, no malloc arena takes the room the tables'
    // check leaves for the run.
    osolve::huge_pages::one_arena_under_a_limit();
    std::process::exit(cli::run());
}
