//! `osolve perft` (placeholder while the subcommand is being written; must not be committed).

use clap::Args;

/// Arguments of `osolve perft`.
#[derive(Args)]
pub struct PerftArgs {}

/// Runs the subcommand.
pub fn run(_args: PerftArgs) -> anyhow::Result<i32> {
    anyhow::bail!("perft is not written yet")
}
