//! Where a story runs: SQLite always (a fresh temporary file per test), PostgreSQL when
//! `TABULA_TEST_DATABASE_URL` is set (a fresh schema per test, dropped afterwards even
//! when the test fails). Without the variable the PostgreSQL tests say once that they
//! were skipped, and pass. Shared by the story tests (`story.rs`, `campaign.rs`).

use std::future::Future;
use std::io::Write;
use std::sync::{Arc, Once};

use rand::RngExt;
use sqlx::Connection;
use tabula_store::{NewSeat, Role, Store};

const PG_VAR: &str = "TABULA_TEST_DATABASE_URL";

// ---------------------------------------------------------------------------------
// Fixtures: where a story runs, and how it reopens its store.
// ---------------------------------------------------------------------------------

/// How to open the same store again.
#[derive(Clone)]
pub enum Reopen {
    Sqlite { url: String },
    Postgres { url: String, schema: String },
}

impl Reopen {
    /// Opens the store (again).
    pub async fn open(&self) -> Arc<dyn Store> {
        match self {
            Reopen::Sqlite { url } => tabula_store::open(url).await,
            Reopen::Postgres { url, schema } => tabula_store::open_with_schema(url, schema).await,
        }
        .expect("the store opens")
    }
}

/// What a story is given: the store, and the way to open it again.
pub struct Db {
    pub store: Arc<dyn Store>,
    pub reopen: Reopen,
}

impl Db {
    pub fn store(&self) -> &dyn Store {
        &*self.store
    }
}

pub async fn on_sqlite<F, Fut>(story: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("tabula.db").display());
    let reopen = Reopen::Sqlite { url };
    let store = reopen.open().await;
    assert_eq!(store.backend(), "sqlite");
    story(Db { store, reopen }).await;
    // `dir` (and the file) goes when the test ends, pass or fail.
}

pub async fn on_postgres<F, Fut>(story: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Ok(url) = std::env::var(PG_VAR) else {
        static SAID: Once = Once::new();
        SAID.call_once(|| {
            // Straight to stderr: the test harness captures println!.
            let _ = writeln!(
                std::io::stderr(),
                "PostgreSQL story tests skipped: {PG_VAR} is not set \
                 (e.g. {PG_VAR}=postgres://root@127.0.0.1:5432/test)"
            );
        });
        return;
    };
    let bits: u64 = rand::rng().random();
    let schema = format!("tabula_test_{bits:016x}");
    let reopen = Reopen::Postgres {
        url: url.clone(),
        schema: schema.clone(),
    };
    let store = reopen.open().await;
    assert_eq!(store.backend(), "postgres");
    let keep = Arc::clone(&store);
    // On its own task, so that a failing story comes back here as an error and the
    // schema is dropped before the failure is passed on.
    let outcome = tokio::spawn(story(Db { store, reopen })).await;
    keep.close().await;
    drop(keep);
    let mut admin = sqlx::PgConnection::connect(&url)
        .await
        .expect("a plain connection to drop the test schema");
    sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
        .execute(&mut admin)
        .await
        .expect("the test schema drops");
    let _ = admin.close().await;
    if let Err(failed) = outcome {
        match failed.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(failed) => panic!("the story did not finish: {failed}"),
        }
    }
}

/// `story!(name)` tells story `name` on SQLite (`sqlite::name`) and on PostgreSQL
/// (`postgres::name`).
macro_rules! stories {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::common::on_sqlite(super::$name).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::common::on_postgres(super::$name).await;
                }
            )*
        }
    };
}

/// A seat named `name` shown as `"{name} (shown)"`.
pub fn seat(name: &str, role: Role, token_hash: &str) -> NewSeat {
    NewSeat {
        seat: name.into(),
        role,
        display_name: format!("{name} (shown)"),
        token_hash: token_hash.into(),
    }
}
