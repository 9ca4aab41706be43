//! The rules-variant options (`--rules`, `--scoring`) shared by the subcommands, and what they
//! need around the library's variant solver: turning a parsed line into a position of the
//! variant, a solver whose searches Ctrl-C stops, and the terminal style of the diagrams.

use std::io::{self, IsTerminal};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use osolve::notation::{ParseError, ParseErrorKind, Parsed};
use osolve::report::colour::{use_colour, TermStyle};
use osolve::variant::solver::{VariantOptions, VariantSolver};
use osolve::variant::{Rules, Scoring, Variant, VariantPosition};

/// `--rules` as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// Othello: the standard start; supplies never matter.
    Othello,
    /// Reversi: empty start, the first four discs on the centre, 32 discs each.
    Reversi,
}

impl From<RulesArg> for Rules {
    fn from(rules: RulesArg) -> Rules {
        match rules {
            RulesArg::Othello => Rules::Othello,
            RulesArg::Reversi => Rules::Reversi,
        }
    }
}

/// `--scoring` as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScoringArg {
    /// Empty squares go to the winner.
    Official,
    /// The discs on the board at the end.
    Raw,
}

/// Rules and scoring of the solving subcommands; anything but Othello with official scoring goes
/// through the variant solver.
#[derive(Args, Clone, Debug)]
pub struct VariantArgs {
    /// Move rules: othello, or reversi (empty start board, the first four discs on d4 e4 d5 e5,
    /// 32 discs each; a player out of discs passes).
    #[arg(long, value_enum, default_value = "othello")]
    pub rules: RulesArg,
    /// Scoring: official (empty squares to the winner) or raw (discs on the board at the end).
    #[arg(long, value_enum, default_value = "official")]
    pub scoring: ScoringArg,
}

impl VariantArgs {
    /// The variant these arguments name.
    pub fn variant(&self) -> Variant {
        Variant {
            rules: self.rules.into(),
            scoring: match self.scoring {
                ScoringArg::Official => Scoring::Official,
                ScoringArg::Raw => Scoring::Raw,
            },
        }
    }
}

/// The position of `parsed` under `rules`, or the error for its line (a position the rules
/// cannot reach; the readers already refuse those under Reversi rules).
pub fn variant_position(parsed: &Parsed, rules: Rules) -> Result<VariantPosition, ParseError> {
    VariantPosition::new(parsed.position, parsed.supplies, rules).map_err(|e| ParseError {
        at: parsed.source.clone(),
        column: None,
        kind: ParseErrorKind::Rules(e),
    })
}

/// A variant solver for `variant` whose searches the first Ctrl-C or SIGTERM stops.
pub fn variant_solver(variant: Variant, wld: bool) -> VariantSolver {
    let solver = VariantSolver::new(VariantOptions {
        scoring: variant.scoring,
        wld,
        ..VariantOptions::default()
    });
    super::interrupt().register_flag(Arc::clone(&solver.stop_flag()));
    solver
}

/// How diagrams go to standard output: colour on a terminal unless `NO_COLOR` is set, Unicode
/// discs on a terminal unless `--ascii`.
pub fn stdout_style(ascii: bool) -> TermStyle {
    let terminal = io::stdout().is_terminal();
    TermStyle {
        unicode: terminal && !ascii,
        colour: use_colour(terminal, std::env::var_os("NO_COLOR").as_deref()),
    }
}
