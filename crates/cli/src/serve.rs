//! `tabula serve`, `tabula table new` and `tabula table list`: flags in, calls
//! to `tabula-server` out, printing. The server, the store and table creation
//! live in `tabula-server`.

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::Subcommand;

use tabula_engine::core::Seeded;
use tabula_engine::core::notation::Dialect;
use tabula_engine::{ChosenSettings, DiceSetting, SystemId};
use tabula_server::AppError;
use tabula_server::create::{self, Created};
use tabula_server::serve::{DEFAULT_BIND, DEFAULT_DATABASE_URL, ServeError, ServeOptions};
use tabula_store::TableSummary;

use crate::common::{CliError, Ctx, read_file};

/// The base of the links `tabula table new` prints by default.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:7878";

/// The options of `tabula serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on. Anything but loopback needs --create-token.
    #[arg(long, default_value = DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// The database: sqlite://FILE (created if missing) or postgres://...
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// Only requests with `Authorization: Bearer TOKEN` may create tables.
    #[arg(long, env = "TABULA_CREATE_TOKEN", hide_env_values = true)]
    pub create_token: Option<String>,
    /// The server's address as players reach it (`https://tabula.example`): the
    /// base of its links and the one host it answers for besides loopback.
    /// Without it, a non-loopback --bind does not check the Host header.
    #[arg(long, env = "TABULA_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Serve HTTPS with this PEM certificate chain (with --tls-key).
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The PEM private key of --tls-cert.
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Delete the tables (not a campaign's) nobody played at for this many
    /// days, with their logs and links; 0: never.
    #[arg(long, env = "TABULA_EXPIRE_DAYS", default_value_t = tabula_server::state::EXPIRE_AFTER_DAYS)]
    pub expire_days: u32,
    /// Commands a minute one seat's link may send (`/commands`, `/policy`,
    /// `/undo`); past it 429 with Retry-After. Raise it for a load benchmark.
    #[arg(long, default_value_t = tabula_server::quota::Quotas::default().commands_per_seat,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub commands_per_seat: u32,
    /// Commands a minute from one address, every seat together.
    #[arg(long, default_value_t = tabula_server::quota::Quotas::default().commands_per_address,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub commands_per_address: u32,
}

/// `tabula table ...`.
#[derive(Debug, Subcommand)]
pub enum TableCommand {
    /// Create a table in the database from a table file and the sheets beside
    /// it; print each seat's link.
    New(NewArgs),
    /// List the tables in the database, newest first.
    List(DbArgs),
    /// Print the record of the night: a table's whole log as one seat may
    /// see it, with talk and every roll (Markdown or HTML).
    Record(RecordArgs),
    /// Print every seat's link again, by issuing each seat a new token (the
    /// old links stop working). For an operator who lost the links; a
    /// campaign's table gets its links from the campaign.
    Links(LinksArgs),
    /// Delete a table with its log and its links, for good (what its GM's
    /// Delete does). A campaign's ended table stays as the campaign's
    /// history. Stop the server first on SQLite (it holds the file).
    Delete(DeleteArgs),
}

/// The options of `tabula table delete`.
#[derive(Debug, clap::Args)]
pub struct DeleteArgs {
    /// The table's id (`tabula table list`).
    pub id: String,
    #[command(flatten)]
    pub db: DbArgs,
}

/// The options of `tabula table record`.
#[derive(Debug, clap::Args)]
pub struct RecordArgs {
    /// The table's id (`tabula table list`).
    pub id: String,
    /// The seat whose record it is: `gm` (the default: everything) or a
    /// player's seat (without other seats' secrets).
    #[arg(long, default_value = "gm")]
    pub seat: String,
    /// `md` or `html`.
    #[arg(long, default_value = "md")]
    pub format: String,
    #[command(flatten)]
    pub db: DbArgs,
}

/// The options of `tabula table links`.
#[derive(Debug, clap::Args)]
pub struct LinksArgs {
    /// The table's id (`tabula table list`).
    pub id: String,
    #[command(flatten)]
    pub db: DbArgs,
    /// The server's address as players reach it, for the links.
    #[arg(long, default_value = DEFAULT_BASE_URL)]
    pub base_url: String,
}

/// The database flag every `table` subcommand takes.
#[derive(Debug, clap::Args)]
pub struct DbArgs {
    /// The database: sqlite://FILE (created if missing) or postgres://...
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
}

/// The options of `tabula table new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The system id: sour-grapes, scratch, tiers, bastards, sapio.
    pub system: String,
    /// The table file (TOML); the sheets it names are read beside it.
    pub table: PathBuf,
    #[command(flatten)]
    pub db: DbArgs,
    /// The server's address as players reach it, for the links.
    #[arg(long, default_value = DEFAULT_BASE_URL)]
    pub base_url: String,
    /// The table's name (default: the table file's title).
    #[arg(long)]
    pub name: Option<String>,
    /// Whose meaning free dice notation has at the table: d20, roll20 or
    /// foundry. Wins over the table file's `dice_dialect` (default: the
    /// file's, else d20).
    #[arg(long, value_name = "DIALECT", value_parser = crate::roll::dialect_arg)]
    pub dice_dialect: Option<Dialect>,
    /// Who may type dice and cards: players (each seat its own) or table
    /// (the table rolls every player's). Wins over the table file's `dice`
    /// (default: the file's, else players).
    #[arg(long, value_name = "WHO", value_parser = dice_arg)]
    pub dice: Option<DiceSetting>,
}

/// `--dice`: `players` or `table`.
fn dice_arg(text: &str) -> Result<DiceSetting, String> {
    match text {
        "players" => Ok(DiceSetting::Players),
        "table" => Ok(DiceSetting::Table),
        _ => Err(format!(
            "{text:?} is not a dice setting: players (each seat may type its own) or table (the table rolls every player's)"
        )),
    }
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the runtime: {e}")))
}

pub(crate) fn app_error(e: AppError) -> CliError {
    if e.status().is_client_error() {
        CliError::BadInput(e.to_string())
    } else {
        CliError::Failure(e.to_string())
    }
}

pub(crate) fn store_error(e: tabula_store::StoreError) -> CliError {
    match e {
        tabula_store::StoreError::BadUrl(_) => CliError::BadInput(e.to_string()),
        _ => CliError::Failure(format!("cannot open the database: {e}")),
    }
}

/// `tabula serve`.
///
/// # Errors
/// Bad input for an open bind without a create token or a bad database URL;
/// failures when the store or the socket cannot be opened.
pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    let options = ServeOptions {
        bind: args.bind,
        database_url: args.database_url,
        create_token: args.create_token,
        public_url: args.public_url,
        tls: args.tls_cert.zip(args.tls_key),
        expire_after_days: (args.expire_days > 0).then_some(args.expire_days),
        quotas: tabula_server::quota::Quotas {
            commands_per_seat: args.commands_per_seat,
            commands_per_address: args.commands_per_address,
            ..tabula_server::quota::Quotas::default()
        },
    };
    tabula_server::serve::check(&options).map_err(CliError::bad)?;
    // Issue 28: no token in the log at any level (see tabula_server::logging).
    let spec = std::env::var("RUST_LOG").ok();
    let _ = tabula_server::logging::init(
        spec.as_deref(),
        std::io::stderr,
        std::io::stderr().is_terminal(),
    );
    let closed = options.create_token.is_some();
    let tls = options.tls.is_some();
    runtime()?
        .block_on(tabula_server::serve::run(options, |addr, backend| {
            // A closed stdout (`tabula serve | head -1`) must not stop the
            // server: the banner is best effort.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", banner(addr, backend, closed, tls));
            let _ = out.flush();
        }))
        .map_err(|e| match e {
            ServeError::OpenBind(_) | ServeError::BadCreateToken | ServeError::BadPublicUrl(_) => {
                CliError::bad(e)
            }
            ServeError::Store(e) => store_error(e),
            e @ ServeError::Tls(_) => CliError::bad(e),
            e => CliError::Failure(e.to_string()),
        })
}

/// What `tabula serve` prints once it listens.
fn banner(addr: SocketAddr, backend: &str, closed: bool, tls: bool) -> String {
    let scheme = if tls { "https" } else { "http" };
    let auth = if closed {
        " -H 'Authorization: Bearer CREATE_TOKEN'"
    } else {
        ""
    };
    format!(
        "Tabula is serving on {scheme}://{addr} (store: {backend}). Stop with Ctrl-C.\n\
         Open {scheme}://{addr}/ in a browser: pick a system and an example, create the table,\n\
         and send each player the link of their seat (open the GM's yourself).\n\
         Or from a script, create a table from a bundled example; the answer holds each seat's secret link:\n  \
         curl -s -X POST {scheme}://{addr}/api/tables -H 'Content-Type: application/json'{auth} \
         -d '{{\"system\": \"bastards\", \"example\": \"table\"}}'\n\
         Then, as a seat: curl -s {scheme}://{addr}/api/tables/TABLE/view -H 'Authorization: Bearer TOKEN'\n\
         (docs/API.md lists every endpoint.)"
    )
}

/// `tabula table new|list`.
///
/// # Errors
/// Bad input for an unknown system, an unreadable or broken table file or a
/// bad database URL; failures when the database fails.
pub fn table(command: TableCommand, ctx: Ctx) -> Result<(), CliError> {
    match command {
        TableCommand::New(args) => new_table(args, ctx),
        TableCommand::List(args) => list_tables(args, ctx),
        TableCommand::Record(args) => record_table(args),
        TableCommand::Links(args) => table_links(args, ctx),
        TableCommand::Delete(args) => delete_table(args, ctx),
    }
}

fn delete_table(args: DeleteArgs, ctx: Ctx) -> Result<(), CliError> {
    use tabula_store::StoreError;
    runtime()?.block_on(async {
        let store = tabula_store::open(&args.db.database_url)
            .await
            .map_err(store_error)?;
        let deleted = store.delete_table(&args.id).await;
        store.close().await;
        deleted.map_err(|e| match e {
            StoreError::NotFound => {
                CliError::BadInput(format!("no table {:?} in the database", args.id))
            }
            e @ StoreError::EndedCampaignTable => CliError::BadInput(e.to_string()),
            e => CliError::Failure(format!("cannot delete the table: {e}")),
        })
    })?;
    let done = serde_json::json!({"deleted": args.id});
    ctx.emit(&done, || {
        format!("Deleted table {} with its log and its links.", args.id)
    })
}

fn record_table(args: RecordArgs) -> Result<(), CliError> {
    use tabula_engine::record::{RecordFormat, record};
    let format = RecordFormat::parse(&args.format).ok_or_else(|| {
        CliError::BadInput(format!("--format is md or html, not {:?}", args.format))
    })?;
    let text = runtime()?.block_on(async {
        let store = tabula_store::open(&args.db.database_url)
            .await
            .map_err(store_error)?;
        let loaded = tabula_server::state::load_whole(store.as_ref(), &args.id).await;
        store.close().await;
        let table = loaded.map_err(app_error)?;
        let seat = table
            .resolve_seat(&args.seat)
            .map_err(|e| CliError::BadInput(format!("--seat: {e}")))?;
        Ok::<_, CliError>(record(&table, &seat, &format!("Table {}", args.id), format))
    })?;
    print!("{text}");
    Ok(())
}

fn table_links(args: LinksArgs, ctx: Ctx) -> Result<(), CliError> {
    use tabula_server::auth::{hash_token, new_token};
    let links: Vec<create::SeatLink> = runtime()?.block_on(async {
        let store = tabula_store::open(&args.db.database_url)
            .await
            .map_err(store_error)?;
        let result = async {
            let loaded = store
                .load_table_tail(&args.id)
                .await
                .map_err(store_error)?
                .ok_or_else(|| CliError::BadInput(format!("no table {:?} in the database", args.id)))?;
            if let Some(campaign) = loaded.summary.campaign {
                return Err(CliError::BadInput(format!(
                    "table {} belongs to campaign {campaign}: its seats open it with their campaign links (the campaign's GM reissues them on the campaign page)",
                    args.id
                )));
            }
            let mut links = Vec::new();
            for seat in store.seats(&args.id).await.map_err(store_error)? {
                let token = new_token().map_err(app_error)?;
                store
                    .reissue_token(&args.id, &seat.seat, &hash_token(&token))
                    .await
                    .map_err(store_error)?;
                links.push(create::SeatLink {
                    link: create::link(&args.base_url, &args.id, &token),
                    role: seat.role,
                    seat: seat.seat,
                    token,
                });
            }
            Ok(links)
        }
        .await;
        store.close().await;
        result
    })?;
    ctx.emit(&links, || {
        let mut out = format!(
            "New links for table {} (the old ones no longer open it). Each link is that seat's secret: give it to that seat only.\n",
            args.id
        );
        let width = links.iter().map(|s| s.seat.len()).max().unwrap_or(0);
        for s in &links {
            out.push_str(&format!("  {:<width$}  {}\n", s.seat, s.link));
        }
        out.trim_end().to_string()
    })
}

fn new_table(args: NewArgs, ctx: Ctx) -> Result<(), CliError> {
    let system: SystemId = args.system.parse().map_err(CliError::bad)?;
    let text = read_file(&args.table)?;
    let chosen = ChosenSettings {
        dice: args.dice,
        dice_dialect: args.dice_dialect,
    };
    let dir = args.table.parent().unwrap_or(Path::new(".")).to_path_buf();
    let table = create::setup(system, &text, &dir, Seeded::from_entropy(), chosen)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", args.table.display())))?;
    let name = create::table_name(system, &text, args.name.as_deref());
    let created: Created = runtime()?.block_on(async {
        let store = tabula_store::open(&args.db.database_url)
            .await
            .map_err(store_error)?;
        let created = create::register(
            store.as_ref(),
            &table,
            &name,
            &args.base_url,
            tabula_server::MAX_TABLES,
        )
        .await
        .map_err(app_error);
        store.close().await;
        created
    })?;
    ctx.emit(&created, || {
        let mut out = format!(
            "Created table {} ({}, {:?}).\nEach link is that seat's secret: give it to that seat only.\n",
            created.table, created.system, created.name
        );
        let width = created.seats.iter().map(|s| s.seat.len()).max().unwrap_or(0);
        for s in &created.seats {
            out.push_str(&format!("  {:<width$}  {}\n", s.seat, s.link));
        }
        out.trim_end().to_string()
    })
}

fn list_tables(args: DbArgs, ctx: Ctx) -> Result<(), CliError> {
    let tables: Vec<TableSummary> = runtime()?.block_on(async {
        let store = tabula_store::open(&args.database_url)
            .await
            .map_err(store_error)?;
        let tables = create::list(store.as_ref()).await.map_err(app_error);
        store.close().await;
        tables
    })?;
    ctx.emit(&tables, || {
        if tables.is_empty() {
            return "no tables yet: create one with `tabula table new SYSTEM TABLE_FILE`".into();
        }
        let mut out = format!(
            "{:<32}  {:<11}  {:>6}  {:>5}  name\n",
            "id", "system", "seq", "seats"
        );
        for t in &tables {
            out.push_str(&format!(
                "{:<32}  {:<11}  {:>6}  {:>5}  {}\n",
                t.id, t.system, t.seq, t.seats, t.name
            ));
        }
        out.trim_end().to_string()
    })
}
