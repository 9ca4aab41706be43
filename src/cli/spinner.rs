//! A spinner on standard error for one long search (`osolve solve` of a single deep position):
//! it appears only when standard error is a terminal and the search has run for a second, shows
//! what is being solved and the time elapsed, and is wiped before the result is printed. The
//! search reports nothing while it runs, so the spinner says only that it is alive.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a search runs before the spinner shows (short solves never flicker).
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// The spinner of one search; [`Spinner::finish`] (or dropping it) wipes it.
pub struct Spinner {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts the spinner for a search described by `what` (`<position>:1 (30 empties)`);
    /// nothing happens when standard error is not a terminal.
    pub fn start(what: String) -> Spinner {
        let done = Arc::new(AtomicBool::new(false));
        let thread = io::stderr().is_terminal().then(|| {
            let done = Arc::clone(&done);
            std::thread::spawn(move || spin(&what, &done))
        });
        Spinner { done, thread }
    }

    /// Wipes the spinner (before the result is printed).
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
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

/// Waits [`SHOW_AFTER`], then spins until `done`.
fn spin(what: &str, done: &AtomicBool) {
    let start = Instant::now();
    while start.elapsed() < SHOW_AFTER {
        if done.load(Ordering::SeqCst) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let bar = ProgressBar::new_spinner().with_elapsed(start.elapsed());
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{spinner} solving {msg} {elapsed_precise}")
        .expect("the template is valid");
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    while !done.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50));
    }
    bar.finish_and_clear();
}
