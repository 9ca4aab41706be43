//! `osolve show`: draws positions, on the terminal (in colour when it is one) and as SVG (or PNG
//! in builds with the `png` feature), plain, with every legal move's exact score (`--analyze`),
//! or with the principal variation numbered on its squares (`--solve`). The marks come from
//! `osolve::drivers::show` (the one solver under the rules of the run, which refuses positions
//! too deep to finish); the pictures are made by `osolve::report::{picture, svg, colour}`.
//! Also writes the pictures of `osolve analyze --svg DIR`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::{ArgGroup, Args};
use osolve::board::rules::Variant;
use osolve::drivers::show::{Marker, Marking, NotShown};
use osolve::notation::{parse_text_with, Parsed, Source};
use osolve::report::batch::{refusal, skipped_line, what_next};
use osolve::report::colour;
use osolve::report::live::live_subject;
use osolve::report::picture::{interrupted_line, Marks, Picture};
use osolve::report::svg::svg;
use osolve::report::unfinished::shown_unfinished;
use osolve::search::SolveOptions;

use super::args::{LimitArgs, SearchArgs, REFUSED_HINT};
use super::estimate::EstimateArgs;
use super::exit::{
    exit_code, write_failed, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, STDOUT_FAILED,
};
use super::inputs::{inline_name, EmptyInputs};
use super::paths;
use super::variant::{stdout_style, VariantArgs};

/// Arguments of `osolve show`.
#[derive(Args, Debug)]
#[command(group(
    ArgGroup::new("input").required(true).multiple(true).args(["files", "positions"])
))]
pub struct ShowArgs {
    /// Files of positions, one per line, in any notation ('-' is standard input).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// One position in any notation (repeatable); shown after the files.
    #[arg(
        short = 'p',
        long = "position",
        value_name = "TEXT",
        allow_hyphen_values = true
    )]
    positions: Vec<String>,
    /// Score every legal move exactly and write each score on its square.
    #[arg(long, conflicts_with = "solve")]
    analyze: bool,
    /// Solve exactly and number the principal variation on its squares.
    #[arg(long)]
    solve: bool,
    /// Write the picture as SVG: to OUT for one position (`-` is standard output); for several,
    /// OUT is a directory (created if needed) that gets position-01.svg, position-02.svg, ...
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
    /// Write the picture as PNG, like --svg (needs a build with the `png` feature).
    #[arg(long, value_name = "OUT")]
    png: Option<PathBuf>,
    /// Draw discs as X and O even on a terminal.
    #[arg(long)]
    ascii: bool,
    /// Do not draw on the terminal (only write the files).
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    estimate: EstimateArgs,
}

/// Where the pictures of a run go: one file (`-` is standard output), or numbered files in a
/// directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureTarget {
    /// The picture of the only position.
    File(PathBuf),
    /// `STEM-NN.<extension>` for the N-th position (or game), from 1, with `digits` digits at
    /// least (zero-padded, so that the names sort in order); the stem is `position` or `game`.
    Directory {
        /// The directory.
        dir: PathBuf,
        /// Digits of the numbers.
        digits: usize,
        /// What the pictures are of, the start of their names.
        stem: &'static str,
    },
}

impl PictureTarget {
    /// The target of `out` for `count` positions: a directory when there are several, when
    /// `out` is one already, or when it ends with a slash.
    pub fn new(out: &Path, count: usize) -> PictureTarget {
        let slash = out.as_os_str().to_string_lossy().ends_with('/');
        if count > 1 || out.is_dir() || slash {
            PictureTarget::directory(out, Some(count))
        } else {
            PictureTarget::File(out.to_path_buf())
        }
    }

    /// Numbered pictures in `dir`, numbered with the digits of `count` (at least two).
    pub fn directory(dir: &Path, count: Option<usize>) -> PictureTarget {
        PictureTarget::directory_named(dir, count, "position")
    }

    /// Numbered pictures `STEM-NN` in `dir`, numbered with the digits of `count` (at least two).
    pub fn directory_named(dir: &Path, count: Option<usize>, stem: &'static str) -> PictureTarget {
        let digits = count.unwrap_or(0).to_string().len().max(2);
        PictureTarget::Directory {
            dir: dir.to_path_buf(),
            digits,
            stem,
        }
    }

    /// The file of the `number`-th position (from 1).
    pub fn path(&self, number: usize, extension: &str) -> PathBuf {
        match self {
            PictureTarget::File(path) => path.clone(),
            PictureTarget::Directory { dir, digits, stem } => {
                dir.join(format!("{stem}-{number:0digits$}.{extension}"))
            }
        }
    }

    /// Refuses a target that would write over one of `inputs`: the file itself, or in a
    /// directory an input named like its pictures (`position-...`). `what` names the option.
    pub fn refuse_inputs<'a>(
        &self,
        what: &str,
        inputs: impl IntoIterator<Item = &'a Path>,
    ) -> anyhow::Result<()> {
        match self {
            PictureTarget::File(path) => paths::refuse_input_as_output(path, what, inputs),
            PictureTarget::Directory { dir, stem, .. } => {
                let prefix = format!("{stem}-");
                for input in inputs {
                    let in_dir = match input.parent() {
                        Some(parent) if !parent.as_os_str().is_empty() => parent,
                        _ => Path::new("."),
                    };
                    let named = input
                        .file_name()
                        .is_some_and(|name| name.to_string_lossy().starts_with(&prefix));
                    if named && !paths::is_std_stream(input) && paths::same_file(in_dir, dir) {
                        bail!(
                            "{what} {}: the input {} is in that directory with a picture's \
                             name; writing the pictures could destroy it, choose another \
                             directory",
                            dir.display(),
                            input.display()
                        );
                    }
                }
                Ok(())
            }
        }
    }

    /// Creates the directory when the target is one, or checks that the file can be written;
    /// `what` names the option in the message when a file is in the way.
    pub fn prepare(&self, what: &str) -> anyhow::Result<()> {
        match self {
            // One picture, written after its analysis: a path that cannot take it is said first.
            PictureTarget::File(path) => paths::check_writable(path),
            PictureTarget::Directory { dir, stem, .. } => {
                if paths::is_std_stream(dir) {
                    bail!(
                        "{what} -: several {stem}s need a directory for their pictures, not \
                         standard output"
                    );
                }
                if dir.exists() && !dir.is_dir() {
                    bail!(
                        "{what} {}: several {stem}s need a directory for their pictures, and {} \
                         is a file",
                        dir.display(),
                        dir.display()
                    );
                }
                fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
            }
        }
    }
}

/// Writes `bytes` to `path`, or to standard output for `-`.
pub fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if paths::is_std_stream(path) {
        let mut out = io::stdout().lock();
        if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
            write_failed(e, STDOUT_FAILED, EXIT_OK)?;
        }
        return Ok(());
    }
    fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `picture` as SVG to `path` (`-` is standard output).
pub fn write_svg(path: &Path, picture: &Picture) -> anyhow::Result<()> {
    write_file(path, svg(picture).as_bytes())
}

/// Writes `picture` as PNG to `path` (`-` is standard output).
#[cfg(feature = "png")]
fn write_png(path: &Path, picture: &Picture) -> anyhow::Result<()> {
    let bytes = osolve::report::svg::png(&svg(picture)).map_err(anyhow::Error::msg)?;
    write_file(path, &bytes)
}

#[cfg(not(feature = "png"))]
fn write_png(_path: &Path, _picture: &Picture) -> anyhow::Result<()> {
    bail!(PNG_MISSING)
}

/// What a build without PNG support says to `--png`.
#[cfg(not(feature = "png"))]
const PNG_MISSING: &str = "--png needs osolve built with the png feature \
     (cargo build --release --features png); --svg works in every build";

/// Runs the subcommand.
pub fn run(args: ShowArgs) -> anyhow::Result<i32> {
    #[cfg(not(feature = "png"))]
    if args.png.is_some() {
        bail!(PNG_MISSING);
    }
    let variant = args.variant.variant();
    let depth_refused = args
        .estimate
        .refusal(false, &args.limits, variant)
        .or_else(|| {
            (args.estimate.depth.is_some() && !args.analyze && !args.solve)
                .then(|| "--depth needs --analyze or --solve (what to estimate)".to_string())
        });
    if let Some(refused) = depth_refused {
        stderr_line!("osolve: {refused}");
        return Ok(EXIT_BAD_INPUT);
    }
    let interrupt = super::interrupt::interrupt();
    // Nothing is shown before every input is read: a signal meanwhile (standard input may keep
    // it waiting) ends the run at once, with what a signal before the first picture says.
    let farewell = Box::new(|| interrupted_line(0));
    let (items, mut bad_input) =
        interrupt.at_once_while(Some(farewell), || read_inputs(&args, variant))?;
    let svg_target = args
        .svg
        .as_deref()
        .map(|p| PictureTarget::new(p, items.len()));
    let png_target = args
        .png
        .as_deref()
        .map(|p| PictureTarget::new(p, items.len()));
    // Before any picture is written: an input must not be overwritten.
    for (target, what) in [(&svg_target, "--svg"), (&png_target, "--png")] {
        if let Some(target) = target {
            target.refuse_inputs(what, args.files.iter().map(PathBuf::as_path))?;
        }
    }
    // The live line of each search on a terminal, unless --quiet.
    let live = super::spinner::Live::new(args.quiet);
    let marking = if args.analyze {
        Marking::Scores
    } else if args.solve {
        Marking::Line
    } else {
        Marking::Legal
    };
    let options = SolveOptions {
        force: args.limits.force,
        progress: live.callback(),
        ..args.search.options(false)
    };
    let mut marker =
        Marker::new(marking, options, args.limits.limits())?.with_depth(args.estimate.depth);
    if let Some(handle) = marker.stop_handle() {
        interrupt.register(handle);
    }
    for (target, what) in [(&svg_target, "--svg"), (&png_target, "--png")] {
        if let Some(target) = target {
            target.prepare(what)?;
        }
    }
    // A picture on standard output leaves no room for the diagram there.
    let to_stdout = [&args.svg, &args.png]
        .into_iter()
        .any(|out| out.as_deref().is_some_and(paths::is_std_stream));
    let quiet = args.quiet || to_stdout;
    let style = stdout_style(args.ascii);
    let mut out = io::stdout().lock();
    for (k, parsed) in items.iter().enumerate() {
        if interrupt.is_set() {
            stderr_line!("{}", interrupted_line(k));
            return Ok(EXIT_INTERRUPTED);
        }
        let spinner = live.start(live_subject(
            &parsed.source,
            parsed.position.board.empties(),
        ));
        let shown = marker.mark(&parsed.position);
        spinner.finish();
        let shown = match shown {
            Ok(shown) => shown,
            Err(NotShown::Refused(refused)) => {
                // Left out, and the run goes on: `(skipped)`, as analyze says it.
                let refused = refusal(&parsed.source, refused, REFUSED_HINT);
                stderr_line!("osolve: {}", skipped_line(refused, what_next(false)));
                bad_input = true;
                continue;
            }
            Err(NotShown::Stopped) => {
                stderr_line!("{}", interrupted_line(k));
                return Ok(EXIT_INTERRUPTED);
            }
            Err(NotShown::Rules) => {
                bail!("--depth: estimates are made under Othello rules with official scoring only")
            }
        };
        if let Some(bounds) = &shown.unfinished {
            stderr_line!(
                "osolve: {}",
                shown_unfinished(&parsed.source, bounds, &shown.marked)
            );
        }
        let marks = Marks::from(shown.marked);
        let picture = Picture::new(&parsed.position, marks, parsed.source.to_string())
            .with_estimate(shown.exactness.estimate_depth());
        if !quiet {
            let text = colour::shown(&picture, style);
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                // A closed pipe ends the pictures quietly; any other error ends the run.
                write_failed(e, STDOUT_FAILED, EXIT_OK)?;
                break;
            }
        }
        if let Some(target) = &svg_target {
            write_svg(&target.path(k + 1, "svg"), &picture)?;
        }
        if let Some(target) = &png_target {
            write_png(&target.path(k + 1, "png"), &picture)?;
        }
    }
    // A signal after the last picture counts as well.
    if interrupt.is_set() {
        stderr_line!("{}", interrupted_line(items.len()));
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(exit_code(false, false, bad_input))
}

/// Every position of the inputs, files first, then the `-p` texts; bad lines, and files without
/// a single position, are reported and skipped (the flag says there were some). An unreadable
/// file ends the run.
fn read_inputs(args: &ShowArgs, variant: Variant) -> anyhow::Result<(Vec<Parsed>, bool)> {
    let mut results = Vec::new();
    let empty_inputs = EmptyInputs::default();
    for path in &args.files {
        let reader = super::inputs::open_input(path).map_err(anyhow::Error::msg)?;
        let name = reader.name().to_string();
        results.extend(empty_inputs.watch(name, reader.with_variant(variant)));
    }
    let count = args.positions.len();
    for (k, text) in args.positions.iter().enumerate() {
        let name = inline_name(k, count);
        results.push(parse_text_with(text, Source::new(name, 1), variant));
    }
    let mut bad_input = false;
    let mut items = Vec::new();
    for result in results {
        match result {
            Ok(parsed) => items.push(parsed),
            Err(e) => {
                stderr_line!("osolve: {}", skipped_line(e, what_next(false)));
                bad_input = true;
            }
        }
    }
    // A file without a single position is bad input too.
    bad_input |= empty_inputs.report();
    Ok((items, bad_input))
}
