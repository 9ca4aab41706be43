//! What a command-line tool is expected to have besides its work: shell completions
//! (`osolve completions bash|zsh|fish|powershell|elvish`, from clap_complete) and the manual page
//! (`osolve man [COMMAND]`, roff from clap_mangen, or every page as a file with `osolve man --dir
//! DIR`), both generated from the same clap definitions as the parser, so they never disagree with
//! it; and the long version text (crate version, git commit, CPU features of the build, recorded
//! by build.rs).

use anyhow::{bail, Context};
use clap::Args;
use clap_complete::Shell;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::exit::{write_failed, EXIT_OK, STDOUT_FAILED};

/// The version `osolve --version` prints: `0.1.0 (commit 1234abcd, built for x86_64 with
/// popcnt, avx2, bmi2)`, the commit followed by `with uncommitted changes` when the build's
/// sources differ from it.
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
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    command: Option<String>,
    /// Write every page as a file into DIR instead (osolve.1, osolve-solve.1, ...: the pages the
    /// main page's list names), for `man -M` or a man1 directory, made if it does not exist;
    /// prints the files written.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Writes the completion script for the shell to standard output; `command` is the clap
/// definition of the whole command line.
pub fn completions(args: CompletionsArgs, mut command: clap::Command) -> anyhow::Result<i32> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "osolve", &mut script);
    write_out(&script)
}

/// Writes the manual page (roff) of `command`, the whole command line, to standard output: the
/// main page, or a subcommand's; with `--dir`, every page into that directory.
pub fn man(args: ManArgs, mut command: clap::Command) -> anyhow::Result<i32> {
    command.build();
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    if let Some(dir) = &args.dir {
        return write_pages(&command, dir);
    }
    let page = match &args.command {
        None => render(command)?,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name) else {
                bail!(
                    "man {name}: no such command (expected one of {})",
                    names.join(", ")
                );
            };
            render(sub_page(sub))?
        }
    };
    write_out(&page)
}

/// A subcommand as the page `osolve-NAME(1)`.
fn sub_page(sub: &clap::Command) -> clap::Command {
    let full = format!("osolve-{}", sub.get_name());
    sub.clone().name(full.clone()).bin_name(full)
}

/// The roff of one page. The footer (the page's source) carries the crate version only: the
/// long version, with its commit and CPU features, is too wide for it and goes to the VERSION
/// section.
fn render(command: clap::Command) -> anyhow::Result<Vec<u8>> {
    let command = command
        .version(env!("CARGO_PKG_VERSION"))
        .long_version(VERSION);
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .source(format!("osolve {}", env!("CARGO_PKG_VERSION")))
        .manual("osolve manual")
        .render(&mut page)?;
    Ok(page)
}

/// `osolve man --dir DIR`: the main page and each subcommand's page as files, each named on
/// standard output as it is written; DIR is made (with its parents) when it does not exist.
fn write_pages(command: &clap::Command, dir: &Path) -> anyhow::Result<i32> {
    if dir.exists() && !dir.is_dir() {
        bail!("man --dir {}: not a directory", dir.display());
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("man --dir {}: cannot create the directory", dir.display()))?;
    let mut pages = vec![("osolve".to_string(), render(command.clone())?)];
    for sub in command.get_subcommands().filter(|c| c.get_name() != "help") {
        pages.push((format!("osolve-{}", sub.get_name()), render(sub_page(sub))?));
    }
    let mut listed = Vec::new();
    for (name, page) in pages {
        let path = dir.join(format!("{name}.1"));
        std::fs::write(&path, page)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        writeln!(listed, "{}", path.display())?;
    }
    write_out(&listed)
}

/// Writes `bytes` to standard output; a reader that went away (`| head`) is not an error.
fn write_out(bytes: &[u8]) -> anyhow::Result<i32> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) => write_failed(e, STDOUT_FAILED, EXIT_OK),
        Ok(()) => Ok(EXIT_OK),
    }
}
