//! `osolve solve` (placeholder while the subcommand is being written; must not be committed).

use clap::Args;

/// Arguments of `osolve solve`.
#[derive(Args)]
pub struct SolveArgs {}

/// Runs the subcommand.
pub fn run(_args: SolveArgs) -> anyhow::Result<i32> {
    anyhow::bail!("solve is not written yet")
}
