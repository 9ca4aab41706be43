//! `osolve show`: draws positions, on the terminal (in colour when it is one) and as SVG (or PNG
//! in builds with the `png` feature), plain, with every legal move's exact score (`--analyze`),
//! or with the principal variation numbered on its squares (`--solve`). The pictures are made by
//! `osolve::report::{picture, svg, colour}`; the scores come from the one solver under the
//! rules of the run. Also writes the pictures of
//! `osolve analyze --svg DIR`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::{ArgGroup, Args};
use osolve::board::rules::{Rules, Variant, VariantPosition};
use osolve::notation::{open_path, parse_text_with, Parsed, Source, INLINE_NAME};
use osolve::report::colour;
use osolve::report::picture::{Marks, Picture};
use osolve::report::svg::svg;
use osolve::search::Solver;

use super::variant::{stdout_style, variant_position, VariantArgs};
use super::{SearchArgs, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK};

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
    /// Write the picture as SVG: to OUT for one position; for several, OUT is a directory
    /// (created if needed) that gets position-1.svg, position-2.svg, ...
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
}

/// Where the pictures of a run go: one file, or numbered files in a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureTarget {
    /// The picture of the only position.
    File(PathBuf),
    /// `position-N.<extension>` for the N-th position, from 1.
    Directory(PathBuf),
}

impl PictureTarget {
    /// The target of `out` for `count` positions: a directory when there are several, when
    /// `out` is one already, or when it ends with a slash.
    pub fn new(out: &Path, count: usize) -> PictureTarget {
        let slash = out.as_os_str().to_string_lossy().ends_with('/');
        if count > 1 || out.is_dir() || slash {
            PictureTarget::Directory(out.to_path_buf())
        } else {
            PictureTarget::File(out.to_path_buf())
        }
    }

    /// The file of the `number`-th position (from 1).
    pub fn path(&self, number: usize, extension: &str) -> PathBuf {
        match self {
            PictureTarget::File(path) => path.clone(),
            PictureTarget::Directory(dir) => dir.join(format!("position-{number}.{extension}")),
        }
    }

    /// Creates the directory when the target is one.
    pub fn prepare(&self) -> anyhow::Result<()> {
        if let PictureTarget::Directory(dir) = self {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        Ok(())
    }
}

/// Writes `picture` as SVG to `path`.
pub fn write_svg(path: &Path, picture: &Picture) -> anyhow::Result<()> {
    fs::write(path, svg(picture)).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `picture` as PNG to `path`.
#[cfg(feature = "png")]
fn write_png(path: &Path, picture: &Picture) -> anyhow::Result<()> {
    let bytes = osolve::report::svg::png(&svg(picture)).map_err(anyhow::Error::msg)?;
    fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(not(feature = "png"))]
fn write_png(_path: &Path, _picture: &Picture) -> anyhow::Result<()> {
    bail!(PNG_MISSING)
}

/// What a build without PNG support says to `--png`.
#[cfg(not(feature = "png"))]
const PNG_MISSING: &str = "--png needs osolve built with the png feature \
     (cargo build --release --features png); --svg works in every build";

/// The marks of one position: legal moves, or scores or a line from the one solver under the
/// rules of the run.
enum Engine {
    Plain,
    Solver(Box<Solver>, Variant),
}

/// Runs the subcommand.
pub fn run(args: ShowArgs) -> anyhow::Result<i32> {
    #[cfg(not(feature = "png"))]
    if args.png.is_some() {
        bail!(PNG_MISSING);
    }
    let variant = args.variant.variant();
    let rules = variant.rules;
    let (items, mut bad_input) = read_inputs(&args, rules)?;
    let interrupt = super::interrupt();
    let mut engine = if !args.analyze && !args.solve {
        Engine::Plain
    } else {
        let solver = Solver::new(args.search.options(false))?;
        interrupt.register(solver.stop_handle());
        Engine::Solver(Box::new(solver), variant)
    };
    let svg_target = args
        .svg
        .as_deref()
        .map(|p| PictureTarget::new(p, items.len()));
    let png_target = args
        .png
        .as_deref()
        .map(|p| PictureTarget::new(p, items.len()));
    for target in svg_target.iter().chain(&png_target) {
        target.prepare()?;
    }
    let style = stdout_style(args.ascii);
    let mut out = io::stdout().lock();
    for (k, parsed) in items.iter().enumerate() {
        let position = match variant_position(parsed, rules) {
            Ok(position) => position,
            Err(e) => {
                eprintln!("osolve: {e}");
                bad_input = true;
                continue;
            }
        };
        let Some(marks) = marks(&mut engine, args.analyze, &position) else {
            eprintln!(
                "interrupted: {k} position{} shown",
                if k == 1 { "" } else { "s" }
            );
            return Ok(EXIT_INTERRUPTED);
        };
        let picture = Picture::new(&position, marks, parsed.source.to_string());
        if !args.quiet {
            let text = format!("{}\n{}\n", parsed.source, colour::diagram(&picture, style));
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    break;
                }
                return Err(anyhow::Error::new(e).context("cannot write to standard output"));
            }
        }
        if let Some(target) = &svg_target {
            write_svg(&target.path(k + 1, "svg"), &picture)?;
        }
        if let Some(target) = &png_target {
            write_png(&target.path(k + 1, "png"), &picture)?;
        }
    }
    Ok(if bad_input { EXIT_BAD_INPUT } else { EXIT_OK })
}

/// Every position of the inputs, files first, then the `-p` texts; bad lines are reported and
/// skipped (the flag says there were some). An unreadable file ends the run.
fn read_inputs(args: &ShowArgs, rules: Rules) -> anyhow::Result<(Vec<Parsed>, bool)> {
    let mut results = Vec::new();
    for path in &args.files {
        if path != Path::new("-") && path.is_dir() {
            bail!(
                "cannot read {}: it is a directory, expected a file of positions",
                path.display()
            );
        }
        let reader = open_path(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {}", path.display(), e.kind))?;
        results.extend(reader.with_rules(rules));
    }
    let several = args.positions.len() > 1;
    for (k, text) in args.positions.iter().enumerate() {
        let name = if several {
            format!("<position {}>", k + 1)
        } else {
            INLINE_NAME.to_string()
        };
        results.push(parse_text_with(text, Source::new(name, 1), rules));
    }
    let mut bad_input = false;
    let mut items = Vec::new();
    for result in results {
        match result {
            Ok(parsed) => items.push(parsed),
            Err(e) => {
                eprintln!("osolve: {e}");
                bad_input = true;
            }
        }
    }
    Ok((items, bad_input))
}

/// The marks for `position`; `None` when the search was stopped.
fn marks(engine: &mut Engine, analyze: bool, position: &VariantPosition) -> Option<Marks> {
    match engine {
        Engine::Plain => Some(Marks::Legal),
        Engine::Solver(solver, variant) if variant.is_standard() => {
            let board = position.position();
            if analyze {
                let (scores, _) = solver.score_moves(&board).ok()?;
                Some(Marks::Scores(scores))
            } else {
                let solution = solver.solve(&board).ok()?;
                Some(Marks::Line {
                    pv: solution.pv,
                    score: solution.score,
                    wld: false,
                })
            }
        }
        Engine::Solver(solver, variant) => {
            if analyze {
                let (scores, _) = solver
                    .try_score_moves_game(position, variant.scoring)
                    .ok()?;
                Some(Marks::Scores(scores))
            } else {
                let solution = solver.try_solve_game(position, variant.scoring).ok()?;
                Some(Marks::Line {
                    pv: solution.pv,
                    score: solution.score,
                    wld: false,
                })
            }
        }
    }
}
