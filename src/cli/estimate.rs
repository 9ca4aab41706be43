//! `--depth N`, shared by `solve`, `analyze` and `show`: estimate by a depth-limited search
//! instead of solving (`osolve::engine::estimate`). The option and the combinations it refuses;
//! no search or formatting here.

use clap::Args;
use osolve::board::rules::Variant;

use super::args::{whole_number, LimitArgs};

/// The option that asks for estimates.
#[derive(Args, Clone, Debug)]
pub struct EstimateArgs {
    /// Estimate instead of solving: a search of N plies (1 to 60) with the learned evaluation
    /// at its leaves, for positions beyond exact reach. Results say `estimate (depth N)` in
    /// every format, are never checked, and are never mixed with exact ones by --resume
    /// (Othello rules, official scoring; not with --wld, --time-limit, --node-limit, --force).
    #[arg(long, value_name = "N", value_parser = parse_depth)]
    pub depth: Option<u32>,
}

fn parse_depth(text: &str) -> Result<u32, String> {
    whole_number(text, 1..=60, "a search depth in plies").map(|n| n as u32)
}

impl EstimateArgs {
    /// Why `--depth` cannot be used with the other options given, as one line; `None` when it
    /// can (or is not given).
    pub fn refusal(&self, wld: bool, limits: &LimitArgs, variant: Variant) -> Option<String> {
        self.depth?;
        let other = if wld {
            "--wld"
        } else if limits.time_limit.is_some() {
            "--time-limit"
        } else if limits.node_limit.is_some() {
            "--node-limit"
        } else if limits.force {
            "--force"
        } else if variant != Variant::default() {
            return Some(
                "--depth: estimates are made under Othello rules with official scoring only \
                 (the evaluation knows no other)"
                    .to_string(),
            );
        } else {
            return None;
        };
        Some(format!(
            "--depth cannot be used with {other}: an estimate is a search of fixed depth, not a \
             solve"
        ))
    }
}
