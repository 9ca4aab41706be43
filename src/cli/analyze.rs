//! `osolve analyze` (placeholder while the subcommand is being written; must not be committed).

use clap::Args;

/// Arguments of `osolve analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {}

/// Runs the subcommand.
pub fn run(_args: AnalyzeArgs) -> anyhow::Result<i32> {
    anyhow::bail!("analyze is not written yet")
}
