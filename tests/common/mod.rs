//! The harness every integration test in tests/ shares (`mod common;`): where the repository
//! is, running the `osolve` binary (to completion, with a scripted standard input, in a
//! protocol session driven line by line, or in the background to be interrupted by a signal),
//! temporary files, and an exact solver of the library. Each test crate uses only some of it.
//!
//! Runs of the binary start in the repository's root unless a directory is given, so that
//! relative paths such as `positions/ffo-40.obf` name the shipped files. Outputs are checked
//! to be UTF-8 and exit codes to be the program's own (a run killed by a signal fails the
//! test), except where a helper says it returns the raw bytes or status.
#![allow(dead_code)]

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command as Process, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::{sleep, JoinHandle};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use osolve::board::Square;
use osolve::search::{SolveOptions, Solver};
use tempfile::TempDir;

// ---- Paths ---------------------------------------------------------------------------------

/// The repository's root (where Cargo.toml, positions/ and tests/data/ are).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A path inside the repository, as text (for command-line arguments).
pub fn repo(path: &str) -> String {
    root()
        .join(path)
        .to_str()
        .expect("a UTF-8 path")
        .to_string()
}

/// The `osolve` binary cargo built for the tests.
pub fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("osolve")
}

// ---- Temporary files -----------------------------------------------------------------------

/// A fresh temporary directory, removed when the value is dropped.
pub fn temp_dir() -> TempDir {
    TempDir::new().expect("a temporary directory")
}

/// Writes `contents` to `dir/name` and returns the path.
pub fn write_file(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, contents).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    path
}

/// The number of whole lines in a file (0 when it does not exist yet).
pub fn whole_lines(path: &Path) -> usize {
    fs::read(path).map_or(0, |bytes| bytes.iter().filter(|&&b| b == b'\n').count())
}

// ---- Running the binary to completion ------------------------------------------------------

/// `osolve` as an assert_cmd command in the repository's root, to add arguments to.
pub fn osolve() -> Command {
    osolve_in(root())
}

/// `osolve` as an assert_cmd command in `dir`.
pub fn osolve_in(dir: &Path) -> Command {
    let mut command = Command::new(binary());
    command.current_dir(dir);
    command
}

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Bytes that must be UTF-8 (`what` names them in the failure).
pub fn utf8(bytes: Vec<u8>, what: &str) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{what} is not UTF-8: {e}"))
}

/// The exit code of a run that ended by itself (not by a signal).
pub fn code(status: ExitStatus) -> i32 {
    status
        .code()
        .unwrap_or_else(|| panic!("osolve did not exit by itself: {status}"))
}

/// Runs `osolve ARGS` in the repository's root: exit code, standard output, standard error.
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_in(root(), args)
}

/// Runs `osolve ARGS` in `dir`: exit code, standard output, standard error.
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    finished(osolve_in(dir).args(args))
}

/// Runs `osolve ARGS` in the repository's root with `input` as its standard input.
pub fn run_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    finished(osolve().args(args).write_stdin(input.to_string()))
}

/// Runs a prepared command: exit code, standard output, standard error (both UTF-8).
pub fn finished(command: &mut Command) -> (i32, String, String) {
    let output = command.output().expect("osolve runs");
    (
        code(output.status),
        utf8(output.stdout, "standard output"),
        utf8(output.stderr, "standard error"),
    )
}

// ---- Protocol sessions ---------------------------------------------------------------------

/// Runs `osolve PROTOCOL --threads 1 --hash-mb 16 ARGS` (`gtp` or `nboard`) on `script`, at
/// most two minutes, checks that it exits 0 and returns what it wrote.
pub fn session(protocol: &str, args: &[&str], script: &str) -> String {
    let output = osolve()
        .arg(protocol)
        .args(["--threads", "1", "--hash-mb", "16"])
        .args(args)
        .write_stdin(script.to_string())
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap_or_else(|e| panic!("osolve {protocol} runs: {e}"));
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status,
        text(&output.stderr)
    );
    utf8(output.stdout, "the session's output")
}

/// A program driven line by line over its standard input and output (standard error
/// discarded): a protocol engine, osolve's or another one.
pub struct Interactive {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    watchdog: Option<Watchdog>,
}

impl Interactive {
    /// Starts `program ARGS`.
    pub fn start(program: &Path, args: &[&str]) -> Interactive {
        let mut child = Process::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().expect("piped standard output"));
        Interactive {
            child,
            input,
            output,
            watchdog: None,
        }
    }

    /// Starts `osolve ARGS`.
    pub fn osolve(args: &[&str]) -> Interactive {
        Interactive::start(&binary(), args)
    }

    /// The program's process id (to send it a signal).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Kills the program if it still runs after `limit` (which then fails the test: its output
    /// ends early, and `wait` says so).
    pub fn with_watchdog(mut self, limit: Duration) -> Interactive {
        self.watchdog = Some(Watchdog::arm(self.child.id(), limit));
        self
    }

    /// Writes `text` and a newline to the program's input, and flushes it.
    pub fn send(&mut self, text: &str) {
        let input = self.input.as_mut().expect("the input is still open");
        writeln!(input, "{text}").expect("the program reads its input");
        input.flush().expect("the program reads its input");
    }

    /// The next line of output without its line end and trailing spaces; `None` at the end
    /// of the output.
    pub fn next_line(&mut self) -> Option<String> {
        let mut line = String::new();
        let read = self
            .output
            .read_line(&mut line)
            .expect("the output is UTF-8");
        (read > 0).then(|| line.trim_end().to_string())
    }

    /// The next line of output, which must come.
    pub fn read_line(&mut self) -> String {
        self.next_line()
            .expect("the program closed its output early")
    }

    /// Closes the program's input (the end of input a controller gives when it is gone).
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Closes the input, waits for the program to end and returns its status; fails if the
    /// watchdog had to kill it.
    pub fn wait(mut self) -> ExitStatus {
        self.close_input();
        let status = self.child.wait().expect("the program is waited for");
        if let Some(watchdog) = self.watchdog.take() {
            assert!(!watchdog.disarm(), "the program was killed by the watchdog");
        }
        status
    }
}

/// A thread that kills a process with SIGKILL unless disarmed within its limit.
struct Watchdog {
    disarm: mpsc::Sender<()>,
    fired: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Watchdog {
    fn arm(pid: u32, limit: Duration) -> Watchdog {
        let (disarm, disarmed) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&fired);
        let thread = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = disarmed.recv_timeout(limit) {
                flag.store(true, Ordering::SeqCst);
                let _ = Process::new("kill").args(["-9", &pid.to_string()]).status();
            }
        });
        Watchdog {
            disarm,
            fired,
            thread,
        }
    }

    /// Stops the watchdog; whether it had fired.
    fn disarm(self) -> bool {
        let _ = self.disarm.send(());
        self.thread.join().expect("the watchdog ends");
        self.fired.load(Ordering::SeqCst)
    }
}

// ---- Background runs and signals -----------------------------------------------------------

/// Sends `signal` (such as `-TERM` or `-INT`) to process `pid` with kill(1), checking that it
/// was delivered (the process still ran).
pub fn send_signal(pid: u32, signal: &str) {
    let status = Process::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(
        status.success(),
        "kill {signal} {pid}: the process had ended"
    );
}

/// Starts `osolve SUBCOMMAND ARGS` in the background in the repository's root, its standard
/// output discarded and its standard error piped (for the batch commands, which write a file).
pub fn spawn(subcommand: &str, args: &[&str]) -> Child {
    Process::new(binary())
        .current_dir(root())
        .arg(subcommand)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("osolve starts")
}

/// Waits (at most two minutes) until `path` holds at least `lines` whole lines, failing if
/// `child` ends first.
pub fn wait_for_lines(child: &mut Child, path: &Path, lines: usize) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while whole_lines(path) < lines {
        assert!(
            Instant::now() < deadline,
            "no progress in {}",
            path.display()
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before the signal"
        );
        sleep(Duration::from_millis(10));
    }
}

/// Waits until `path` holds at least `lines` whole lines, then sends `signal` to `child` and
/// returns its exit code and standard error.
pub fn interrupt_after(mut child: Child, path: &Path, lines: usize, signal: &str) -> (i32, String) {
    wait_for_lines(&mut child, path, lines);
    send_signal(child.id(), signal);
    let output = child.wait_with_output().unwrap();
    (output.status.code().unwrap_or(-1), text(&output.stderr))
}

/// `osolve ARGS` running in the background with its standard output and error piped, to be
/// read from and stopped by a signal.
pub struct Background {
    child: Child,
    stdout: BufReader<ChildStdout>,
    signalled: Option<Instant>,
    /// Standard input, held open until the program ends (see [`Background::waiting`]).
    input: Option<ChildStdin>,
}

/// How a background run ended.
pub struct Stopped {
    /// The exit code, or -1 when it did not exit by itself.
    pub code: i32,
    /// Standard output not read before.
    pub stdout: String,
    pub stderr: String,
    /// From the signal to the end.
    pub took: Duration,
}

impl Background {
    /// Starts `osolve ARGS` in `dir`.
    pub fn start(dir: &Path, args: &[&str]) -> Background {
        Background::spawn(dir, args, Stdio::inherit())
    }

    /// Starts `osolve ARGS` in `dir` with a pipe for standard input that stays open and empty
    /// until the program ends: it waits on its input as on a terminal where nothing is typed.
    pub fn waiting(dir: &Path, args: &[&str]) -> Background {
        let mut running = Background::spawn(dir, args, Stdio::piped());
        running.input = running.child.stdin.take();
        running
    }

    fn spawn(dir: &Path, args: &[&str], input: Stdio) -> Background {
        let mut child = Process::new(binary())
            .current_dir(dir)
            .args(args)
            .stdin(input)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("osolve starts");
        let stdout = BufReader::new(child.stdout.take().expect("piped standard output"));
        Background {
            child,
            stdout,
            signalled: None,
            input: None,
        }
    }

    /// The next line of standard output, with its line end ("" at the end of the output).
    pub fn read_line(&mut self) -> String {
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .expect("standard output is UTF-8");
        line
    }

    /// Waits (at most two minutes) until `path` holds at least `lines` whole lines, failing if
    /// the program ends first.
    pub fn wait_for_lines(&mut self, path: &Path, lines: usize) {
        wait_for_lines(&mut self.child, path, lines);
    }

    /// Sends `signal` (`-TERM`, `-INT`), which must reach the running program.
    pub fn signal(&mut self, signal: &str) {
        send_signal(self.child.id(), signal);
        self.signalled = Some(Instant::now());
    }

    /// Waits at most `limit` for the program to end (failing the test if it does not) and
    /// returns how it ended.
    pub fn stop_within(self, limit: Duration) -> Stopped {
        let Background {
            child,
            mut stdout,
            signalled,
            input,
        } = self;
        let watchdog = Watchdog::arm(child.id(), limit);
        let output = child.wait_with_output().expect("osolve is waited for");
        drop(input);
        let took = signalled.map_or(Duration::ZERO, |at| at.elapsed());
        assert!(!watchdog.disarm(), "osolve did not stop within {limit:?}");
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut rest).expect("standard output is UTF-8");
        Stopped {
            code: output.status.code().unwrap_or(-1),
            stdout: rest,
            stderr: utf8(output.stderr, "standard error"),
            took,
        }
    }
}

// ---- The library ---------------------------------------------------------------------------

/// An exact solver (not WLD) with `threads` threads and a table of `hash_mb` MiB.
pub fn solver(threads: usize, hash_mb: usize) -> Solver {
    Solver::new(SolveOptions {
        threads,
        hash_mb,
        wld: false,
        force: false,
        progress: None,
    })
    .expect("the solver builds")
}

/// A square by its name (`"g8"`).
pub fn sq(name: &str) -> Square {
    name.parse()
        .unwrap_or_else(|_| panic!("{name} is not a square"))
}

/// Asserts what an interrupted `osolve solve` says on standard error when its last search had
/// proven nothing yet: `SOURCE  unfinished (interrupted): score unknown  nodes ...`, then
/// `interrupted: SOLVED position(s) solved`.
pub fn assert_stopped_unknown(stderr: &str, source: &str, solved: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    let stopped = format!("{source}  unfinished (interrupted): score unknown  nodes ");
    assert!(lines[0].starts_with(&stopped), "{}", lines[0]);
    assert_eq!(lines[1], format!("interrupted: {solved}"));
}
