//! The rules-variant options (`--rules`, `--scoring`) shared by the subcommands (the readers
//! build every position under them), and the terminal style of the diagrams.

use std::io::{self, IsTerminal};

use clap::{Args, ValueEnum};
use osolve::board::rules::{Rules, Scoring, Variant};
use osolve::report::colour::{use_colour, TermStyle};

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

/// Rules and scoring of the solving subcommands.
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

/// How diagrams go to standard output: colour on a terminal unless `NO_COLOR` is set, Unicode
/// discs on a terminal unless `--ascii`.
pub fn stdout_style(ascii: bool) -> TermStyle {
    let terminal = io::stdout().is_terminal();
    TermStyle {
        unicode: terminal && !ascii,
        colour: use_colour(terminal, std::env::var_os("NO_COLOR").as_deref()),
    }
}
