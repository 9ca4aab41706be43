//! The live line on standard error for one long search (`osolve solve`, `show --analyze` and
//! `--solve`): it appears only when standard error is a terminal, `--quiet` is not given and
//! the search has run for a second; it is redrawn in place with the solver's latest progress
//! event (written by `report::live`) and wiped before the result is printed. [`Live`] holds
//! the latest event; the solver's callback only stores it there.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use osolve::report::live::{live_line, waiting_line};
use osolve::search::{LatestProgress, ProgressFn};
use std::io::{self, IsTerminal};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a search runs before the line shows (short solves never flicker).
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How often the line is redrawn.
const REDRAW: Duration = Duration::from_millis(120);

/// The latest progress event of a solver, when the live line is wanted at all.
#[derive(Clone)]
pub struct Live {
    latest: Option<LatestProgress>,
}

impl Live {
    /// The live view of a command: on when standard error is a terminal and not `quiet`.
    pub fn new(quiet: bool) -> Live {
        let on = !quiet && io::stderr().is_terminal();
        Live {
            latest: on.then(LatestProgress::new),
        }
    }

    /// The solver's progress callback (`None` when off: the solver then sends nothing).
    pub fn callback(&self) -> Option<ProgressFn> {
        self.latest.as_ref().map(LatestProgress::callback)
    }

    /// Starts the line for a search described by `what` (`<position>:1 (30 empties)`).
    pub fn start(&self, what: String) -> Spinner {
        let Some(latest) = &self.latest else {
            return Spinner {
                done: None,
                thread: None,
            };
        };
        latest.take();
        let (done, wake) = mpsc::channel();
        let latest = latest.clone();
        let thread = std::thread::spawn(move || spin(&what, &wake, &latest));
        Spinner {
            done: Some(done),
            thread: Some(thread),
        }
    }
}

/// The line of one search; [`Spinner::finish`] (or dropping it) wipes it.
pub struct Spinner {
    /// Dropped to stop the line at once.
    done: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Wipes the line (before the result is printed).
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.done = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Waits [`SHOW_AFTER`], then redraws the line from `latest` until `done` is dropped.
fn spin(what: &str, done: &Receiver<()>, latest: &LatestProgress) {
    let start = Instant::now();
    if done.recv_timeout(SHOW_AFTER) != Err(RecvTimeoutError::Timeout) {
        return;
    }
    let bar = ProgressBar::new_spinner().with_elapsed(start.elapsed());
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("{spinner} {wide_msg}").expect("the template is valid");
    bar.set_style(style);
    loop {
        let line = match latest.get() {
            Some(event) => live_line(what, &event),
            None => waiting_line(what, start.elapsed()),
        };
        bar.set_message(line);
        bar.tick();
        if done.recv_timeout(REDRAW) != Err(RecvTimeoutError::Timeout) {
            break;
        }
    }
    bar.finish_and_clear();
}
