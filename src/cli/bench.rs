//! `osolve bench` (placeholder while the subcommand is being written; must not be committed).

use clap::Args;

/// Arguments of `osolve bench`.
#[derive(Args)]
pub struct BenchArgs {}

/// Runs the subcommand.
pub fn run(_args: BenchArgs) -> anyhow::Result<i32> {
    anyhow::bail!("bench is not written yet")
}
