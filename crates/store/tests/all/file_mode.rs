//! Issue 28: the SQLite file and its `-wal` and `-shm` files are created
//! readable and writable by their owner only.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_sqlite_file_and_its_wal_and_shm_are_0600() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let store = tabula_store::open(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    // Migrating wrote through the WAL: all three files exist while it is open.
    store.count_tables().await.unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let path = std::path::PathBuf::from(format!("{}{suffix}", db.display()));
        assert_eq!(
            mode(&path),
            0o600,
            "{} is readable by other users",
            path.display()
        );
    }
    store.close().await;
}
