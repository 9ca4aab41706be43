//! `osolve solve`: solves every position of the inputs exactly, in command-line order, and prints
//! one report per position as soon as it is proven (human, `--quiet` or `--json`, all formatted
//! by `osolve::report::solve`). Bad lines are reported and skipped, and so is a file without a
//! single position (exit 2 at the end); a file that cannot be read stops the run before anything
//! is solved; Ctrl-C or SIGTERM stops the
//! search, keeps what was printed, says on standard error what the stopped search had proven
//! and exits 130. Every rule set goes through the one solver;
//! under `--rules reversi` or `--scoring raw` the reports add the rules. With `--time-limit` or `--node-limit` a
//! position whose search hits the limit is reported unfinished with its proven bounds; without
//! a limit, positions too deep to finish are refused (by the solver) unless `--force`. The run
//! is `osolve::drivers::solve::solve_each`'s; here are the arguments, the input order, the
//! live line and the printing. No parsing, search or formatting logic here.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::{ArgGroup, ArgMatches, Args, FromArgMatches};
use osolve::board::rules::Variant;
use osolve::drivers::solve::{solve_each_with, EachSink};
use osolve::notation::{parse_text_with, ParseError, Parsed, Source};
use osolve::report::batch::{refusal, skipped_line, what_next};
use osolve::report::live::live_subject;
use osolve::report::solve::{interrupted_line, solved_report, stopped_report, Format};
use osolve::report::unfinished::{quiet_stopped, StoppedSolve};
use osolve::search::{Solution, SolveError, SolveOptions, Solver, Unfinished};

use super::args::{LimitArgs, SearchArgs, REFUSED_HINT};
use super::estimate::EstimateArgs;
use super::exit::{
    exit_code, write_failed, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, STDOUT_FAILED,
};
use super::inputs::{inline_name, open_input, EmptyInputs};
use super::spinner::{Live, Spinner};
use super::variant::{stdout_style, VariantArgs};

/// The options of `osolve solve` as clap parses them; [`SolveArgs`] adds their order.
#[derive(Args, Debug)]
#[command(group(
    ArgGroup::new("input").required(true).multiple(true).args(["files", "positions"])
))]
struct Flags {
    /// Files of positions, one per line, in any notation ('-' is standard input).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// One position in any notation: board string, 8-line diagram, OBF line or transcript
    /// (repeatable). Inputs are solved in command-line order.
    #[arg(
        short = 'p',
        long = "position",
        value_name = "TEXT",
        allow_hyphen_values = true
    )]
    positions: Vec<String>,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    estimate: EstimateArgs,
    /// Prove only win, draw or loss (faster); the score is then 1, 0 or -1.
    #[arg(long)]
    wld: bool,
    /// One JSON object per position per line.
    #[arg(long)]
    json: bool,
    /// Draw discs as X and O even on a terminal.
    #[arg(long)]
    ascii: bool,
    /// Only the result line of each position, after its source.
    #[arg(short, long)]
    quiet: bool,
}

/// One input of the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Input {
    /// A file of positions (or `-`).
    File(PathBuf),
    /// Inline text given with `-p`, and the source name it is reported under.
    Inline {
        /// The text.
        text: String,
        /// `<position>` when there is one `-p`, else `<position K>` counting from 1.
        name: String,
    },
}

/// Arguments of `osolve solve`: the options, and the files and `-p` texts merged in the order
/// they were given (clap keeps each list in order; their indices interleave them).
#[derive(Debug)]
pub struct SolveArgs {
    flags: Flags,
    inputs: Vec<Input>,
}

impl FromArgMatches for SolveArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let flags = Flags::from_arg_matches(matches)?;
        let inputs = ordered_inputs(matches, &flags);
        Ok(SolveArgs { flags, inputs })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.flags.update_from_arg_matches(matches)?;
        self.inputs = ordered_inputs(matches, &self.flags);
        Ok(())
    }
}

impl Args for SolveArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        Flags::augment_args(command)
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Flags::augment_args_for_update(command)
    }
}

/// Files and `-p` texts in command-line order.
fn ordered_inputs(matches: &ArgMatches, flags: &Flags) -> Vec<Input> {
    let indices = |id: &str| -> Vec<usize> {
        matches
            .indices_of(id)
            .map(|indices| indices.collect())
            .unwrap_or_default()
    };
    let count = flags.positions.len();
    let mut inputs: Vec<(usize, Input)> = indices("files")
        .into_iter()
        .zip(&flags.files)
        .map(|(index, path)| (index, Input::File(path.clone())))
        .collect();
    inputs.extend(
        indices("positions")
            .into_iter()
            .zip(&flags.positions)
            .enumerate()
            .map(|(k, (index, text))| {
                let name = inline_name(k, count);
                let text = text.clone();
                (index, Input::Inline { text, name })
            }),
    );
    inputs.sort_by_key(|&(index, _)| index);
    inputs.into_iter().map(|(_, input)| input).collect()
}

/// A stream of parsed positions (or errors) from one input.
type Positions = Box<dyn Iterator<Item = Result<Parsed, ParseError>>>;

/// Runs the subcommand.
pub fn run(args: SolveArgs) -> anyhow::Result<i32> {
    let SolveArgs { flags, inputs } = args;
    let variant: Variant = flags.variant.variant();
    if let Some(refusal) = flags.estimate.refusal(flags.wld, &flags.limits, variant) {
        stderr_line!("osolve: {refusal}");
        return Ok(EXIT_BAD_INPUT);
    }
    // Every file is opened before anything is solved: a typo should not cost a long search.
    let mut streams = Vec::with_capacity(inputs.len());
    let mut unreadable = false;
    let empty_inputs = EmptyInputs::default();
    for input in inputs {
        match input {
            Input::File(path) => match open_input(&path) {
                Ok(stream) => {
                    let name = stream.name().to_string();
                    let stream = empty_inputs.watch(name, stream.with_variant(variant));
                    streams.push(Box::new(stream) as Positions);
                }
                Err(message) => {
                    stderr_line!("osolve: {message}");
                    unreadable = true;
                }
            },
            Input::Inline { text, name } => {
                let parsed = parse_text_with(&text, Source::new(name, 1), variant);
                streams.push(Box::new(std::iter::once(parsed)));
            }
        }
    }
    if unreadable {
        return Ok(EXIT_BAD_INPUT);
    }

    let format = if flags.json {
        Format::Json
    } else if flags.quiet {
        Format::Quiet
    } else {
        Format::Human(stdout_style(flags.ascii))
    };
    let interrupt = super::interrupt::interrupt();
    // The live line on a terminal, unless --quiet.
    let live = Live::new(flags.quiet);
    let mut solver = Box::new(Solver::new(SolveOptions {
        force: flags.limits.force,
        progress: live.callback(),
        ..flags.search.options(flags.wld)
    })?);
    solver.set_limits(flags.limits.limits());
    interrupt.register(solver.stop_handle());

    let mut printer = Printer {
        out: io::stdout().lock(),
        format,
        wld: flags.wld,
        threads: solver.threads(),
        live,
        spinner: None,
        bad_input: false,
        stopped: None,
    };
    let items = streams.into_iter().flatten();
    let depth = flags.estimate.depth;
    let totals = match solve_each_with(&mut solver, depth, items, &mut printer) {
        Ok(totals) => totals,
        Err(e) => {
            let closed = if printer.bad_input {
                EXIT_BAD_INPUT
            } else {
                EXIT_OK
            };
            return write_failed(e, STDOUT_FAILED, closed);
        }
    };
    // A signal after the last answer (while more input was awaited) counts as well.
    if totals.interrupted || interrupt.is_set() {
        // What the stopped search had proven, then how many were finished.
        if let Some(stopped) = printer.stopped.take() {
            stderr_text!("{stopped}");
        }
        stderr_line!("{}", interrupted_line(totals.solved));
        return Ok(EXIT_INTERRUPTED);
    }
    // A file without a single position is bad input too.
    let empty = empty_inputs.report();
    Ok(exit_code(false, false, printer.bad_input || empty))
}

/// Prints each answer of the run as it comes, in the run's format; errors and refusals go to
/// standard error after the reports before them.
struct Printer<'a> {
    out: io::StdoutLock<'a>,
    format: Format,
    wld: bool,
    threads: usize,
    /// The live line of the searches, and that of the search under way.
    live: Live,
    spinner: Option<Spinner>,
    /// A line was bad or a position refused.
    bad_input: bool,
    /// The one-line report of the search a stop request ended (its proven bounds), said on
    /// standard error after the run: it is not an answer.
    stopped: Option<String>,
}

impl EachSink for Printer<'_> {
    fn bad(&mut self, error: &ParseError) -> io::Result<()> {
        self.bad_input = true;
        // Reports already printed come first, so the error sits where it happened.
        self.out.flush()?;
        // Left out, and the run goes on: `(skipped)`, as analyze, games and train say it.
        stderr_line!("osolve: {}", skipped_line(error, what_next(false)));
        Ok(())
    }

    fn start(&mut self, parsed: &Parsed) {
        let what = live_subject(&parsed.source, parsed.position.board.empties());
        self.spinner = Some(self.live.start(what));
    }

    fn finish(&mut self) {
        if let Some(spinner) = self.spinner.take() {
            spinner.finish();
        }
    }

    fn answer(&mut self, parsed: &Parsed, result: Result<Solution, SolveError>) -> io::Result<()> {
        self.answer_with_estimate(parsed, result, None)
    }

    fn answer_with_estimate(
        &mut self,
        parsed: &Parsed,
        result: Result<Solution, SolveError>,
        estimate: Option<Solution>,
    ) -> io::Result<()> {
        let source = &parsed.source;
        let report = match result {
            Err(SolveError::Refused(refused)) => {
                self.bad_input = true;
                self.out.flush()?;
                let refused = refusal(source, refused, REFUSED_HINT);
                stderr_line!("osolve: {}", skipped_line(refused, what_next(false)));
                return Ok(());
            }
            Err(SolveError::Unfinished(unfinished)) => {
                let stopped = StoppedSolve {
                    position: &parsed.position,
                    wld: self.wld,
                    threads: self.threads,
                    unfinished: &unfinished,
                    estimate: estimate.as_ref(),
                };
                stopped_report(source, &stopped, self.format)
            }
            Ok(solution) => solved_report(source, &solution, self.format),
        };
        self.out.write_all(report.as_bytes())?;
        self.out.flush()
    }

    fn interrupted(&mut self, parsed: &Parsed, unfinished: &Unfinished) -> io::Result<()> {
        let stopped = StoppedSolve {
            position: &parsed.position,
            wld: self.wld,
            threads: self.threads,
            unfinished,
            estimate: None,
        };
        self.stopped = Some(quiet_stopped(&parsed.source, &stopped));
        Ok(())
    }
}
