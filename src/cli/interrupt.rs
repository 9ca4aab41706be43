//! Ctrl-C and SIGTERM: the process-wide state that stops every registered search at the first
//! signal and ends the process at the second. At the bottom of cli/: the subcommands register
//! their searches and say what a second signal should print.

use super::exit::EXIT_INTERRUPTED;
use osolve::search::StopHandle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// Ctrl-C / SIGTERM: the first one stops every registered search; the drivers then print what
/// was finished and exit with `EXIT_INTERRUPTED`. A second one exits at once.
pub struct Interrupt {
    flag: AtomicBool,
    /// Exit at the first signal (commands with nothing finished to keep: `train`, `perft`).
    at_once: AtomicBool,
    handles: Mutex<Vec<StopHandle>>,
    /// What to say when a second signal ends the process at once (what was written so far).
    farewell: Mutex<Option<Farewell>>,
}

/// The message of a process ended at once by a second signal.
pub type Farewell = Box<dyn Fn() -> String + Send>;

impl Interrupt {
    /// True once a signal arrived.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
    /// Stops `handle`'s searches when a signal arrives (at once if one already did).
    pub fn register(&self, handle: StopHandle) {
        if self.is_set() {
            handle.stop();
        }
        self.handles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(handle);
    }
    /// Says `farewell()` instead of a bare `interrupted` when a second signal ends the process
    /// at once (everything finished is written and flushed by then).
    pub fn set_farewell(&self, farewell: Farewell) {
        *self.farewell.lock().unwrap_or_else(|e| e.into_inner()) = Some(farewell);
    }
    /// Makes the first signal end the process at once with `EXIT_INTERRUPTED`, for commands
    /// that cannot stop part-way with something to keep.
    pub fn exit_at_once(&self) {
        self.at_once.store(true, Ordering::SeqCst);
        if self.is_set() {
            std::process::exit(EXIT_INTERRUPTED);
        }
    }
    /// Runs `read` with the first signal ending the process at once with `EXIT_INTERRUPTED`,
    /// saying `farewell()` (`None`: `interrupted`): for the input a command reads whole before
    /// it starts (`show`, `bench --suite`), when nothing is finished to keep and standard input
    /// may be waited on for ever. Afterwards a signal stops the searches again.
    pub fn at_once_while<T>(&self, farewell: Option<Farewell>, read: impl FnOnce() -> T) -> T {
        let kept = std::mem::replace(&mut *self.farewells(), farewell);
        let was = self.at_once.swap(true, Ordering::SeqCst);
        if self.is_set() {
            self.end();
        }
        let value = read();
        self.at_once.store(was, Ordering::SeqCst);
        *self.farewells() = kept;
        value
    }
    fn farewells(&self) -> std::sync::MutexGuard<'_, Option<Farewell>> {
        self.farewell.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// Ends the process with `EXIT_INTERRUPTED`, saying the farewell (or `interrupted`).
    fn end(&self) -> ! {
        match self.farewells().as_ref() {
            Some(message) => stderr_line!("{}", message()),
            None => stderr_line!("interrupted"),
        }
        std::process::exit(EXIT_INTERRUPTED);
    }
    fn trigger(&self) {
        // A second signal means "now": the first one is still waiting for a search or for
        // input (a terminal on standard input) to finish.
        if self.flag.swap(true, Ordering::SeqCst) || self.at_once.load(Ordering::SeqCst) {
            self.end();
        }
        for h in self
            .handles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            h.stop();
        }
    }
}

/// The process-wide interrupt state; installs the signal handler on first use.
pub fn interrupt() -> &'static Interrupt {
    static INTERRUPT: OnceLock<Interrupt> = OnceLock::new();
    INTERRUPT.get_or_init(|| {
        let _ = ctrlc::set_handler(|| interrupt().trigger());
        Interrupt {
            flag: AtomicBool::new(false),
            at_once: AtomicBool::new(false),
            handles: Mutex::new(Vec::new()),
            farewell: Mutex::new(None),
        }
    })
}
