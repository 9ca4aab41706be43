//! What a command-line tool is expected to have besides its work: shell completions
//! (`osolve completions bash|zsh|fish|powershell|elvish`, from clap_complete) and the manual page
//! (`osolve man [COMMAND]`, roff from clap_mangen), both generated from the same clap definitions as the
//! parser, so they never disagree with it; and the long version text (crate version, git commit,
//! CPU features of the build, recorded by build.rs).

use anyhow::bail;
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::io::{self, Write};

use super::{Cli, EXIT_OK};

/// The version `osolve --version` prints: `0.1.0 (commit 1234abcd, built for x86_64 with
/// popcnt, avx2, bmi2)`.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("OSOLVE_GIT_COMMIT"),
    ", built for ",
    env!("OSOLVE_CPU_FEATURES"),
    ")"
);

/// Arguments of `osolve completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, value_name = "SHELL")]
    shell: Shell,
}

/// Arguments of `osolve man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// The page of this subcommand (`osolve-solve(1)`) instead of the main page.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

/// Writes the completion script for the shell to standard output.
pub fn completions(args: CompletionsArgs) -> anyhow::Result<i32> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "osolve", &mut script);
    write_out(&script)
}

/// Writes the manual page (roff) to standard output: the main page, or a subcommand's.
pub fn man(args: ManArgs) -> anyhow::Result<i32> {
    let mut command = Cli::command();
    command.build();
    let command = match &args.command {
        None => command,
        Some(name) => {
            let names: Vec<String> = command
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .filter(|n| n != "help")
                .collect();
            let Some(sub) = command.find_subcommand(name) else {
                bail!(
                    "man {name}: no such command (expected one of {})",
                    names.join(", ")
                );
            };
            let full = format!("osolve-{}", sub.get_name());
            sub.clone()
                .name(full.clone())
                .bin_name(full)
                .version(VERSION)
        }
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    write_out(&page)
}

/// Writes `bytes` to standard output; a reader that went away (`| head`) is not an error.
fn write_out(bytes: &[u8]) -> anyhow::Result<i32> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("cannot write to standard output"))
        }
        _ => Ok(EXIT_OK),
    }
}
