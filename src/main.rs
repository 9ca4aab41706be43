//! The `osolve` command: parses arguments and hands them to a driver of the library.
//! All logic lives in the library; see `cli` for the subcommands.

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
