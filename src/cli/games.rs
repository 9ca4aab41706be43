//! `osolve games`: solves the games of game databases (WThor, GGF, transcript lists) from N
//! empties to their end and checks WThor's recorded theoretical scores. Parses the arguments,
//! opens (or resumes) the output through `osolve::drivers::output`, writes each finished game
//! as `osolve::report::games` words it, reports bad games and disagreements on standard error,
//! and turns the summary into an exit code. The work itself is `osolve::games::analysis`; the
//! output, resume, shard and progress options are shared with `osolve analyze`
//! (`super::batch`).

use super::args::{LimitArgs, REFUSED_HINT};
use super::batch::{end_run, exit_code, BatchArgs, Ended, Progress};
use super::exit::EXIT_BAD_INPUT;
use super::inputs::{check_readable, EmptyInputs};
use super::interrupt::interrupt;
use super::paths;
use super::show::{write_file, PictureTarget};
use anyhow::bail;
use clap::{Args, ValueEnum};
use osolve::drivers::batch::{self, BatchError, Shard};
use osolve::drivers::output::{Output, ResultOptions};
use osolve::games::analysis::{analyze_games, GameAnalysis, GameWork, GamesOptions, GamesSummary};
use osolve::games::players::Players;
use osolve::games::wthor::Names;
use osolve::games::{count_games, open_games_input, Game, GameError, GameErrorKind};
use osolve::notation::input_name;
use osolve::report::batch::{
    already_in_output, refusal, skipped_line, what_next, SKIPPED_UNFINISHED,
};
use osolve::report::chart::game_svg;
use osolve::report::games::{self as report, Format};
use osolve::report::players::{players_file, PlayersFormat};
use osolve::search::{StopHandle, TooManyEmpties};
use std::io;
use std::path::PathBuf;

/// Output formats as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// A block of lines per game, for people.
    Text,
    /// One JSON object per game.
    Jsonl,
    /// One row per game, with a header.
    Csv,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Text => Format::Text,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Csv => Format::Csv,
        }
    }
}

/// Arguments of `osolve games`.
#[derive(Args)]
pub struct GamesArgs {
    /// Games files: WThor .wtb (player names from WTHOR.JOU beside it), GGF, or move
    /// transcripts one per line; the kind is told from the content. `-` is standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Solve each game from the position with N empties to its end, scoring every move played.
    #[arg(long, value_name = "N", value_parser = super::args::parse_empties)]
    empties: Option<u32>,
    /// Compare the exact score at the database's own depth (WThor header byte 14) with the
    /// theoretical score it records for every game; exit 1 if one differs.
    #[arg(long)]
    check_theoretical: bool,
    /// Output format [default: from OUT's extension (.txt, .jsonl, .csv), else text].
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Keep the games whose moves stop before the game is over (resigned, lost on time) and
    /// solve them from where they stopped; without it they are skipped.
    #[arg(long)]
    from_end: bool,
    /// Also draw each solved game as DIR/game-NN.svg (NN counts the games from 1): black's
    /// exact score after every move from N empties to the end, each losing move marked.
    #[arg(long, value_name = "DIR", requires = "empties")]
    svg: Option<PathBuf>,
    /// Write statistics per player to FILE (.csv or .json): games, moves judged, perfect-move
    /// rate, average loss per move and per game, as black and as white.
    #[arg(long, value_name = "FILE", requires = "empties")]
    players: Option<PathBuf>,
    #[command(flatten)]
    batch: BatchArgs,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Runs the subcommand: exit 0 when all went well, 1 when `--check-theoretical` found a
/// disagreement, 2 when a bad game or file was skipped or a file held no game, 130 when
/// interrupted (after flushing every finished game).
pub fn run(mut args: GamesArgs) -> anyhow::Result<i32> {
    args.batch.normalize();
    // The signal handler goes in before anything can take long.
    interrupt();
    let batch = &args.batch;
    if args.empties.is_none() && !args.check_theoretical {
        bail!(
            "nothing to do: give --empties N (solve each game from N empties) and/or \
             --check-theoretical (check the database's theoretical scores)"
        );
    }
    let shard = batch.shard()?;
    // Every input is looked at once before anything is written: a typo should not cost a run.
    let mut unreadable = false;
    for path in &args.files {
        if let Err(message) = check_readable(path, "a games file") {
            stderr_line!("osolve: {message}");
            unreadable = true;
        }
    }
    if unreadable {
        return Ok(EXIT_BAD_INPUT);
    }
    let format = args
        .format
        .map(Format::from)
        .or_else(|| batch.output.as_deref().and_then(Format::from_path))
        .unwrap_or(Format::Text);
    // Before anything is opened for writing: the output must not be one of the inputs, nor
    // a names file that a WThor database beside it reads (`.JOU`, `.TRN`).
    if let Some(out) = &batch.output {
        let mut read = args.files.clone();
        for file in args.files.iter().filter(|f| !paths::is_std_stream(f)) {
            read.extend(Names::files_beside(file));
        }
        paths::refuse_input_as_output(out, "-o", read.iter().map(PathBuf::as_path))?;
    }
    let players_format = match &args.players {
        Some(path) => match PlayersFormat::from_path(path) {
            Some(format) => Some(format),
            None => bail!(
                "--players {}: name a .csv or a .json file (the extension says the format)",
                path.display()
            ),
        },
        None => None,
    };
    if args.players.is_some() && batch.resume {
        bail!(
            "--players counts the games solved in one run, and --resume skips those already \
             written: run without --resume to count every game"
        );
    }
    let inputs_read = || args.files.iter().map(PathBuf::as_path);
    if let Some(players) = &args.players {
        paths::refuse_input_as_output(players, "--players", inputs_read())?;
        if let Some(out) = &batch.output {
            if paths::same_file(players, out) {
                bail!(
                    "--players {}: it is also the output (-o); choose another file",
                    players.display()
                );
            }
        }
    }
    let pictures = args.svg.as_deref().map(|dir| {
        PictureTarget::directory_named(
            dir,
            count_games(&args.files, Shard::ALL, args.from_end),
            "game",
        )
    });
    if let Some(target) = &pictures {
        target.refuse_inputs("--svg", inputs_read())?;
        target.prepare("--svg")?;
    }
    // The options that change what a record says, recorded in a file output.
    let result_options = ResultOptions {
        options: vec![
            ("--empties", args.empties.map(|n| n.to_string()), None),
            (
                "--check-theoretical",
                args.check_theoretical.then(String::new),
                None,
            ),
            ("--from-end", args.from_end.then(String::new), None),
        ],
        record: Box::new(format.options_record()),
    };
    // The theoretical scores of the games a resumed output holds, to count them in the
    // verdict as an uninterrupted run would.
    let mut recorded = Vec::new();
    let mut output = Output::open(
        batch.output.as_deref(),
        batch.resume,
        format.header(),
        &format,
        &result_options,
        |reader, first_line| report::written_from(format, reader, first_line, Some(&mut recorded)),
    )?;
    let options = GamesOptions {
        empties: args.empties,
        check_theoretical: args.check_theoretical,
        batch: batch::Options {
            limits: args.limits.limits(),
            ..batch.options(shard, &output)
        },
        force: args.limits.force,
        from_end: args.from_end,
    };
    let progress = batch.show_progress(
        &mut output,
        || count_games(&args.files, shard, args.from_end).map(|games| vec![1.0; games]),
        ("game", "games"),
    );
    let mut sink = CliSink {
        recorded: recorded.into_iter(),
        resumed_check: GamesSummary::default(),
        from_end: args.from_end,
        output,
        progress,
        format,
        pictures,
        players: args.players.as_ref().map(|_| Players::default()),
    };
    // Each file read to its end without a game is said after the run.
    let empty_inputs = EmptyInputs::default();
    let watched = empty_inputs.clone();
    let from_end = args.from_end;
    // Each input is opened when the one before it ends.
    let games = args.files.clone().into_iter().flat_map(move |path| {
        watched.watch_games(input_name(&path), open_games_input(&path, from_end))
    });
    let result = analyze_games(games, &options, &mut sink);
    let all_empty = empty_inputs.all(args.files.len());
    let ended = |s: &GamesSummary| Ended {
        interrupted: s.interrupted,
        done: s.analysed,
        resumed: s.resumed,
        empty: all_empty,
    };
    // The statistics of the games finished, written even when the run was interrupted; not
    // when it could not start (its tables could not be made) or had no game to read: the
    // file is left as it was.
    let started =
        !matches!(result, Err(BatchError::Search(_) | BatchError::Tables(_))) && !all_empty;
    if let (Some(path), Some(format), Some(players), true) =
        (&args.players, players_format, &sink.players, started)
    {
        write_file(path, players_file(format, &players.sorted()).as_bytes())?;
    }
    let mut summary = match end_run(
        batch,
        &mut sink.output,
        &mut sink.progress,
        result,
        ("game", "games"),
        ended,
    )? {
        Ok(summary) => summary,
        Err(code) => return Ok(code),
    };
    let empty = empty_inputs.report();
    if all_empty {
        // Each input has said it holds no game: a summary of nothing read, solved or checked
        // would only repeat it in zeros.
        return Ok(exit_code(false, true));
    }
    // The verdict of the whole output: the resumed games count as if checked now.
    summary.merge_resumed(std::mem::take(&mut sink.resumed_check));
    if batch.quiet {
        if args.check_theoretical {
            stderr_line!("{}", report::check_verdict(&summary));
        }
    } else {
        stderr_text!(
            "{}",
            report::summary(&summary, args.empties, args.check_theoretical)
        );
    }
    let wrong = args.check_theoretical && !summary.disagreements.is_empty();
    Ok(exit_code(
        wrong,
        !summary.skipped.is_empty() || summary.refused > 0 || empty,
    ))
}

/// Writes each finished game (and its picture) and keeps the progress and the players'
/// statistics up to date.
struct CliSink {
    /// The theoretical score each game of a resumed output records, in order.
    recorded: std::vec::IntoIter<Option<u32>>,
    /// The theoretical-score check of those games.
    resumed_check: GamesSummary,
    /// `--from-end`: where the position of a game that ended early is.
    from_end: bool,
    output: Output,
    progress: Progress,
    format: Format,
    /// Where the pictures go (`--svg DIR`).
    pictures: Option<PictureTarget>,
    /// The statistics per player (`--players FILE`).
    players: Option<Players>,
}

impl batch::Sink<GameWork> for CliSink {
    fn register(&mut self, handle: StopHandle) {
        interrupt().register(handle);
    }

    fn resumed(&mut self, game: &Game) -> io::Result<()> {
        let key = report::key(self.format, game);
        self.output
            .resumed
            .confirm(&key, "game", || report::input_item(game))?;
        let exact = self.recorded.next().flatten();
        if let Some(d) = self.resumed_check.add_resumed(game, exact, self.from_end) {
            let line = report::disagreement_line(&d.game, &d.theoretical);
            self.progress.message(&already_in_output(&line));
        }
        Ok(())
    }

    fn done(&mut self, analysis: GameAnalysis) -> io::Result<()> {
        let record = report::record(self.format, &analysis);
        // Every game is solved from the same empties: each counts the same in the ETA.
        self.output.write(&record, analysis.nodes, 1.0)?;
        if let Some(players) = &mut self.players {
            players.add(&analysis);
        }
        if let (Some(target), Some(svg)) = (&self.pictures, game_svg(&analysis)) {
            write_file(&target.path(analysis.index + 1, "svg"), svg.as_bytes())
                .map_err(io::Error::other)?;
        }
        if let Some(theoretical) = analysis.theoretical.filter(|t| !t.agrees()) {
            let line = report::disagreement_line(&analysis.game.id.to_string(), &theoretical);
            self.progress.message(&line);
        }
        Ok(())
    }

    fn bad(&mut self, error: GameError) -> io::Result<()> {
        let what_next = if matches!(error.kind, GameErrorKind::Unfinished { .. }) {
            SKIPPED_UNFINISHED
        } else {
            what_next(false)
        };
        self.progress.message(&skipped_line(error, what_next));
        Ok(())
    }

    fn refused(&mut self, game: Game, reason: TooManyEmpties) -> io::Result<()> {
        let refused = refusal(&game.id, reason, REFUSED_HINT);
        self.progress
            .message(&skipped_line(refused, what_next(false)));
        Ok(())
    }
}
