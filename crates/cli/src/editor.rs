//! The interactive terminal's line editor: line editing, history kept across
//! sessions, and Tab completion of commands, seats and names, with `rustyline`.
//!
//! History lives in `$TABULA_HISTORY` when set, else
//! `$XDG_STATE_HOME/tabula/history`, else `~/.local/state/tabula/history`
//! ([`history_path`]); at most [`MAX_HISTORY`] lines are kept. A history file
//! that cannot be read or written is skipped with a warning: play goes on.

use std::io;
use std::path::PathBuf;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Config, Context, Editor, Helper};

use tabula_engine::play::{self, Completions, LineSource, MAX_LINE};

/// The most lines of history kept.
pub const MAX_HISTORY: usize = 1_000;

/// Where the history file is (see the module docs); `None` when no home is
/// known.
pub fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TABULA_HISTORY") {
        return Some(PathBuf::from(p));
    }
    let state = match std::env::var_os("XDG_STATE_HOME") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".local/state"),
    };
    Some(state.join("tabula/history"))
}

/// Completes from the words the driver offers before each line.
#[derive(Default)]
struct TableHelper {
    offered: Completions,
}

impl Completer for TableHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = line.get(..pos).unwrap_or(line);
        let (start, words) = play::complete(before, &self.offered);
        let pairs = words
            .into_iter()
            .map(|w| Pair {
                display: w.clone(),
                replacement: w,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for TableHelper {
    type Hint = String;
}
impl Highlighter for TableHelper {}
impl Validator for TableHelper {}
impl Helper for TableHelper {}

/// A line source for a person at a terminal: a `rustyline` editor.
pub struct EditorLines {
    editor: Editor<TableHelper, DefaultHistory>,
    history: Option<PathBuf>,
}

impl EditorLines {
    /// An editor with the history file loaded (when there is one).
    ///
    /// # Errors
    /// The terminal cannot be set up.
    pub fn new() -> io::Result<Self> {
        let config = Config::builder()
            .max_history_size(MAX_HISTORY)
            .map_err(io::Error::other)?
            .auto_add_history(false)
            .build();
        let mut editor = Editor::with_config(config).map_err(io::Error::other)?;
        editor.set_helper(Some(TableHelper::default()));
        let history = history_path();
        if let Some(path) = &history
            && path.exists()
            && let Err(e) = editor.load_history(path)
        {
            eprintln!("(history {} not read: {e})", path.display());
        }
        Ok(EditorLines { editor, history })
    }

    fn remember(&mut self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        let _ = self.editor.add_history_entry(line);
        if let Some(path) = &self.history {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Err(e) = self.editor.append_history(path) {
                eprintln!("(history {} not written: {e})", path.display());
                self.history = None;
            }
        }
    }
}

impl LineSource for EditorLines {
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize> {
        match self.editor.readline("> ") {
            Ok(line) => {
                if line.len() > MAX_LINE {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("a command line may be at most {MAX_LINE} bytes; stopping"),
                    ));
                }
                self.remember(&line);
                buf.push_str(&line);
                buf.push('\n');
                Ok(line.len() + 1)
            }
            // Ctrl-C clears the line, as in a shell; Ctrl-D ends play.
            Err(ReadlineError::Interrupted) => {
                buf.push('\n');
                Ok(1)
            }
            Err(ReadlineError::Eof) => Ok(0),
            Err(e) => Err(io::Error::other(e)),
        }
    }

    fn prompts(&self) -> bool {
        true
    }

    fn offer(&mut self, completions: Completions) {
        if let Some(h) = self.editor.helper_mut() {
            h.offered = completions;
        }
    }
}
