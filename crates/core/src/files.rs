//! Reading the files a table names (character sheets), always with a size cap.
//!
//! A table file lists its characters by file name. On the terminal those names
//! are paths beside the table file ([`std::path::Path`] implements
//! [`SheetFiles`]); on the server they are the texts uploaded with the table
//! ([`InMemoryFiles`]), so a table sent over the network can never read the
//! server's disk. Every read is capped at [`MAX_FILE_BYTES`], so a file that never
//! ends (`/dev/zero`) is refused in bounded memory.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The largest table, sheet or script file read, in bytes (1 MiB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A file could not be read. Every variant names the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum FileError {
    /// No such file (or, in memory, no file of that name was uploaded).
    #[error("{name}: no such file")]
    NotFound {
        /// The file's name as given.
        name: String,
    },
    /// The name is a directory.
    #[error("{name}: is a directory, not a file")]
    Directory {
        /// The file's name as given.
        name: String,
    },
    /// The file is longer than the cap.
    #[error("{name}: larger than {max_bytes} bytes; refused")]
    TooLarge {
        /// The file's name as given.
        name: String,
        /// The cap, [`MAX_FILE_BYTES`] unless a caller gave its own.
        max_bytes: u64,
    },
    /// The file is not UTF-8 text.
    #[error("{name}: not UTF-8 text")]
    NotText {
        /// The file's name as given.
        name: String,
    },
    /// Any other I/O error (permissions, ...), with the system's words.
    #[error("{name}: cannot read: {reason}")]
    Unreadable {
        /// The file's name as given.
        name: String,
        /// What the operating system said.
        reason: String,
    },
}

/// Read a whole text file, refusing one longer than `max_bytes` without reading
/// more than `max_bytes + 1` bytes of it.
///
/// # Errors
/// [`FileError`] naming `path`: missing, a directory, too large, not UTF-8, or
/// unreadable.
pub fn read_text_capped(path: &Path, max_bytes: u64) -> Result<String, FileError> {
    let name = path.display().to_string();
    let unreadable = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => FileError::NotFound { name: name.clone() },
        std::io::ErrorKind::IsADirectory => FileError::Directory { name: name.clone() },
        _ => FileError::Unreadable {
            name: name.clone(),
            reason: e.to_string(),
        },
    };
    if path.is_dir() {
        return Err(FileError::Directory { name });
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(FileError::TooLarge { name, max_bytes });
    }
    String::from_utf8(bytes).map_err(|_| FileError::NotText { name })
}

/// Where a table's character sheets come from, by the name the table file gives.
pub trait SheetFiles {
    /// The text of the file `name` names.
    ///
    /// # Errors
    /// [`FileError`] naming `name`.
    fn read(&self, name: &str) -> Result<String, FileError>;
}

/// Sheets beside the table file: `name` is a path relative to this directory.
impl SheetFiles for Path {
    fn read(&self, name: &str) -> Result<String, FileError> {
        read_text_capped(&self.join(name), MAX_FILE_BYTES).map_err(|e| rename(e, name))
    }
}

impl SheetFiles for PathBuf {
    fn read(&self, name: &str) -> Result<String, FileError> {
        self.as_path().read(name)
    }
}

/// Sheets uploaded with a table (the server's `"files"`): file name -> text.
/// Nothing is read from disk.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InMemoryFiles(pub BTreeMap<String, String>);

impl SheetFiles for InMemoryFiles {
    fn read(&self, name: &str) -> Result<String, FileError> {
        let text = self.0.get(name).ok_or_else(|| FileError::NotFound {
            name: name.to_string(),
        })?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(FileError::TooLarge {
                name: name.to_string(),
                max_bytes: MAX_FILE_BYTES,
            });
        }
        Ok(text.clone())
    }
}

/// No sheets: what a command line reads when nothing was sent with it
/// (every read is [`FileError::NotFound`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoSheets;

impl SheetFiles for NoSheets {
    fn read(&self, name: &str) -> Result<String, FileError> {
        Err(FileError::NotFound {
            name: name.to_string(),
        })
    }
}

/// True when a command's word names a character sheet file sent with the
/// command rather than a kind the table knows: it ends in `.toml` (any
/// case). The GM's `add sheets/mira.toml` (issue 27, item 6: add a
/// participant "from an uploaded sheet") reads that file from the
/// [`SheetFiles`] the command came with: the table file's directory at the
/// terminal, the files sent with the request on the server.
pub fn names_sheet_file(word: &str) -> bool {
    let word = word.trim();
    word.len() > ".toml".len()
        && word
            .get(word.len() - ".toml".len()..)
            .is_some_and(|end| end.eq_ignore_ascii_case(".toml"))
}

/// The text of the character sheet file `file` (a GM's `add FILE.toml`),
/// read from `sheets` and checked by the book's validating reader `check`
/// (which answers every broken rule, each naming its field and rule); the
/// one place every book turns a missing or broken sheet into
/// [`crate::system::CommandParseError::Sheet`] (issue 27, item 6).
///
/// # Errors
/// [`crate::system::CommandParseError::Sheet`] naming `file`: the
/// [`FileError`] as one problem (not sent, too large, not text), or every
/// problem `check` gives.
pub fn read_checked_sheet<T, P, C>(
    sheets: &dyn SheetFiles,
    file: &str,
    check: C,
) -> Result<String, crate::system::CommandParseError>
where
    C: FnOnce(&str) -> Result<T, Vec<P>>,
    P: ToString,
{
    let refused = |problems: Vec<String>| crate::system::CommandParseError::Sheet {
        file: file.trim().to_string(),
        problems,
    };
    let text = sheets
        .read(file.trim())
        .map_err(|e| refused(vec![e.to_string()]))?;
    check(&text).map_err(|ps| refused(ps.iter().map(ToString::to_string).collect()))?;
    Ok(text)
}

/// Errors name the file as the table gave it, not the joined path.
fn rename(e: FileError, name: &str) -> FileError {
    let name = name.to_string();
    match e {
        FileError::NotFound { .. } => FileError::NotFound { name },
        FileError::Directory { .. } => FileError::Directory { name },
        FileError::TooLarge { max_bytes, .. } => FileError::TooLarge { name, max_bytes },
        FileError::NotText { .. } => FileError::NotText { name },
        FileError::Unreadable { reason, .. } => FileError::Unreadable { name, reason },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_never_ends_is_refused_in_bounded_memory() {
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            assert!(matches!(
                read_text_capped(zero, 1000),
                Err(FileError::TooLarge {
                    max_bytes: 1000,
                    ..
                })
            ));
        }
    }

    #[test]
    fn a_directory_and_a_missing_file_are_named() {
        let dir = std::env::temp_dir();
        assert!(matches!(
            read_text_capped(&dir, 10),
            Err(FileError::Directory { .. })
        ));
        let e = Path::new("/nonexistent-dir")
            .read("kodos.toml")
            .unwrap_err();
        assert_eq!(
            e,
            FileError::NotFound {
                name: "kodos.toml".into()
            }
        );
    }

    #[test]
    fn uploaded_files_are_read_by_name_only() {
        let mut files = InMemoryFiles::default();
        files.0.insert("a.toml".into(), "x = 1".into());
        assert_eq!(files.read("a.toml").unwrap(), "x = 1");
        assert!(matches!(
            files.read("/etc/passwd"),
            Err(FileError::NotFound { .. })
        ));
    }
}
