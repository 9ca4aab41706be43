//! The text protocols through which GUIs and match programs drive the engine: the Go Text
//! Protocol as Othello engines speak it ([`gtp`]) and NBoard's protocol ([`nboard`]). Each
//! server reads commands from any reader and writes responses to any writer (standard input
//! and output in `osolve gtp` / `osolve nboard`, buffers in tests). What they share lives here:
//! input read on its own thread, so that a search can be stopped by a line that arrives while
//! it runs (NBoard's `ping`) or by the end of the input, with the search on a scoped thread
//! that is always joined before the server goes on.

pub mod gtp;
pub mod nboard;

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::engine::Stopper;
use crate::notation::read_bounded_line;

/// The longest command line kept (a GGF game of 60 moves with evaluations and times is about
/// 2 KB); the rest of a longer line is dropped and the line reported as too long.
pub const MAX_LINE: usize = 1 << 16;

/// How often a waiting server looks whether its search finished.
const POLL: Duration = Duration::from_millis(2);

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line without its line ending (invalid UTF-8 replaced).
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes.
    TooLong,
}

/// Lines read on a thread of their own, so a running search can watch for them.
pub struct Input {
    lines: Receiver<Line>,
    /// Lines that arrived during a search, for after it.
    pending: VecDeque<Line>,
    ended: bool,
    /// The last search was stopped by an interrupting line (not by the end of the input).
    interrupted: bool,
}

impl Input {
    /// Starts reading `reader`. The reading thread ends at the end of the input (or when the
    /// server is gone); while it waits on a terminal it holds nothing the server needs.
    pub fn spawn<R: BufRead + Send + 'static>(mut reader: R) -> Input {
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = Vec::new();
            while let Ok(Some(too_long)) = read_bounded_line(&mut reader, &mut buffer, MAX_LINE) {
                let line = if too_long {
                    Line::TooLong
                } else {
                    let text = String::from_utf8_lossy(&buffer);
                    Line::Text(text.trim_end_matches('\r').to_string())
                };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Input {
            lines,
            pending: VecDeque::new(),
            ended: false,
            interrupted: false,
        }
    }

    /// The next line, waiting for it; `None` at the end of the input.
    pub fn next_line(&mut self) -> Option<Line> {
        if let Some(line) = self.pending.pop_front() {
            return Some(line);
        }
        if self.ended {
            return None;
        }
        match self.lines.recv() {
            Ok(line) => Some(line),
            Err(_) => {
                self.ended = true;
                None
            }
        }
    }

    /// True once the end of the input was seen (lines read before it may still be pending).
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// True when the last search of [`Input::during`] was stopped by an interrupting line.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// Runs `search` on a scoped thread and waits for it, meanwhile keeping every line that
    /// arrives for later. A line for which `interrupts` holds stops the search through
    /// `stopper` (it then returns its best so far) when it is the next line to answer: it
    /// came straight after the command searching (a `ping` already waiting stops the search
    /// at once), not after other commands still waiting, which are then answered in turn
    /// (`hint 3`, `go`, `ping 2` sent together: the hint is answered in full, the ping stops
    /// the `go`). The end of the input stops the search too when no line is left to answer
    /// (the controller is gone; a script that wrote its commands ahead still gets full
    /// answers). The search thread is joined before this returns.
    pub fn during<T: Send>(
        &mut self,
        stopper: &Stopper,
        interrupts: impl Fn(&str) -> bool,
        search: impl FnOnce() -> T + Send,
    ) -> T {
        self.during_with(stopper, interrupts, search, || {})
    }

    /// [`Input::during`], calling `waiting` on this thread every few milliseconds while the
    /// search runs (NBoard's `status` lines).
    pub fn during_with<T: Send>(
        &mut self,
        stopper: &Stopper,
        interrupts: impl Fn(&str) -> bool,
        search: impl FnOnce() -> T + Send,
        mut waiting: impl FnMut(),
    ) -> T {
        self.interrupted = false;
        let interrupting = |line: &Line| matches!(line, Line::Text(text) if interrupts(text));
        let mut stopped = false;
        if self.pending.front().is_some_and(interrupting) {
            stopper.stop();
            stopped = true;
            self.interrupted = true;
        }
        std::thread::scope(|scope| {
            let worker = scope.spawn(search);
            while !worker.is_finished() {
                waiting();
                if self.ended {
                    if !stopped && self.pending.is_empty() {
                        stopper.stop();
                        stopped = true;
                    }
                    std::thread::sleep(POLL);
                    continue;
                }
                match self.lines.recv_timeout(POLL) {
                    Ok(line) => {
                        if !stopped && self.pending.is_empty() && interrupting(&line) {
                            stopper.stop();
                            stopped = true;
                            self.interrupted = true;
                        }
                        self.pending.push_back(line);
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => self.ended = true,
                }
            }
            match worker.join() {
                Ok(value) => value,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    }
}

/// `text` as a decimal number of seconds (`2`, `0.5`), at most a year; `None` otherwise.
pub fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && (0.0..=365.0 * 86400.0).contains(&value))
        .then(|| Duration::from_secs_f64(value))
}
