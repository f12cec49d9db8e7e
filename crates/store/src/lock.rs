//! One SQLite file, one process: an exclusive lock on the file `DATABASE.lock` beside
//! the database, held while any store of this process has the database open. Stores
//! of one process share the lock (SQLite itself orders their writes); another process
//! is refused with [`StoreError::Locked`]. The operating system lets the lock go when
//! the process ends, however it ends (`kill -9` included).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

use crate::StoreError;

/// The lock of one database file, released when the last store holding it drops it.
#[derive(Debug)]
pub(crate) struct FileLock {
    _file: File,
}

type Held = Mutex<HashMap<PathBuf, Weak<FileLock>>>;

fn held() -> &'static Held {
    static HELD: OnceLock<Held> = OnceLock::new();
    HELD.get_or_init(Held::default)
}

/// The lock file of database `db`: its path with `.lock` appended.
pub(crate) fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes (or shares, within this process) the lock of database file `db`.
///
/// # Errors
/// [`StoreError::Locked`] when another process holds it; [`StoreError::Database`]
/// when the lock file cannot be opened.
pub(crate) fn lock(db: &Path) -> Result<Arc<FileLock>, StoreError> {
    let path = lock_path(db);
    let io = |e: std::io::Error| {
        StoreError::Database(format!("cannot open the lock file {}: {e}", path.display()))
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io)?;
    let key = path.canonicalize().map_err(io)?;
    let mut held = held().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(lock) = held.get(&key).and_then(Weak::upgrade) {
        return Ok(lock);
    }
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            return Err(StoreError::Locked {
                lock: path.display().to_string(),
                holder: if holder.is_empty() {
                    "an unknown process".into()
                } else {
                    holder.to_string()
                },
            });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
    }
    // Best effort: the pid only makes the other process's message clearer.
    let _ = file
        .set_len(0)
        .and_then(|()| write!(file, "pid {}", std::process::id()));
    let lock = Arc::new(FileLock { _file: file });
    held.retain(|_, weak| weak.strong_count() > 0);
    held.insert(key, Arc::downgrade(&lock));
    Ok(lock)
}
