//! Running the server on a socket (`tabula serve`): open the store, bind, serve
//! until Ctrl-C or SIGTERM, then finish the requests in flight.

use std::net::SocketAddr;

use tokio::net::TcpListener;

use crate::listen::{self, ConnectionLimits, Plain, Tls};
use crate::state::{AppState, Settings};
use crate::{app, auth};

/// The address `tabula serve` binds by default.
pub const DEFAULT_BIND: &str = "127.0.0.1:7878";

/// The database `tabula serve` opens by default: `tabula.db` in the working
/// directory, created if missing.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://tabula.db";

/// What `tabula serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen.
    pub bind: SocketAddr,
    /// The store's URL (`sqlite://...` or `postgres://...`).
    pub database_url: String,
    /// The create token: when set, `POST /api/tables` needs it as the bearer
    /// token. Required for a bind that is not loopback.
    pub create_token: Option<String>,
    /// The server's address as players reach it (`https://tabula.example`),
    /// `--public-url`: the base of the links it hands out, and a host it
    /// answers for besides the loopback names ([`Settings::allowed_hosts`]).
    /// Without it, a loopback bind answers for the loopback names only, and a
    /// non-loopback bind does not check hosts (and says so in its log).
    pub public_url: Option<String>,
    /// `--tls-cert FILE`, `--tls-key FILE`: serve HTTPS with this PEM
    /// certificate chain and private key (both or neither).
    pub tls: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// `--expire-days N`: tables nobody touched for N days are deleted
    /// ([`Settings::expire_after_days`]); `None` (`--expire-days 0`): never.
    pub expire_after_days: Option<u32>,
    /// `--commands-per-seat N`, `--commands-per-address N`: the rate limits
    /// and quotas ([`crate::quota::Quotas`]; the defaults are far above what a
    /// table at play sends, a load benchmark raises them).
    pub quotas: crate::quota::Quotas,
}

/// `tabula serve` could not start or stopped on a failure.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A non-loopback bind without a create token: anyone on the network could
    /// create tables.
    #[error(
        "refusing to listen on {0} without a create token: anyone who reaches it could create tables; pass --create-token TOKEN (or set TABULA_CREATE_TOKEN), or bind 127.0.0.1"
    )]
    OpenBind(SocketAddr),
    /// The create token is empty or not plain visible ASCII.
    #[error("the create token must be 1 to 256 visible ASCII characters")]
    BadCreateToken,
    /// `--public-url` is not an `http://` or `https://` URL with a host.
    #[error(
        "--public-url must be an http:// or https:// URL naming the server's host (e.g. https://tabula.example), not {0:?}"
    )]
    BadPublicUrl(String),
    /// The TLS certificate or key cannot be used.
    #[error("{0}")]
    Tls(#[from] crate::listen::TlsError),
    /// The store could not be opened.
    #[error("cannot open the store: {0}")]
    Store(#[from] tabula_store::StoreError),
    /// The address could not be bound, or serving failed.
    #[error("cannot listen on {addr}: {source}")]
    Io {
        /// The address.
        addr: SocketAddr,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// Check `options` before anything is opened.
///
/// # Errors
/// [`ServeError::OpenBind`], [`ServeError::BadCreateToken`],
/// [`ServeError::BadPublicUrl`].
pub fn check(options: &ServeOptions) -> Result<(), ServeError> {
    if let Some(url) = &options.public_url
        && crate::guard::url_host(url).is_none()
    {
        return Err(ServeError::BadPublicUrl(url.chars().take(256).collect()));
    }
    if let Some(t) = &options.create_token
        && auth::plausible(t).is_none()
    {
        return Err(ServeError::BadCreateToken);
    }
    if !options.bind.ip().is_loopback() && options.create_token.is_none() {
        return Err(ServeError::OpenBind(options.bind));
    }
    Ok(())
}

/// Open the store, bind, call `ready` with the bound address and the store's
/// backend, and serve until Ctrl-C or SIGTERM; then stop accepting, tell open
/// WebSockets to close, finish the requests in flight, and close the store.
///
/// # Errors
/// [`ServeError`].
pub async fn run(
    options: ServeOptions,
    ready: impl FnOnce(SocketAddr, &'static str),
) -> Result<(), ServeError> {
    check(&options)?;
    let tls = match &options.tls {
        Some((cert, key)) => Some(Tls::from_files(cert, key)?),
        None => None,
    };
    let store = tabula_store::open(&options.database_url).await?;
    let listener = TcpListener::bind(options.bind)
        .await
        .map_err(|source| ServeError::Io {
            addr: options.bind,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Io {
        addr: options.bind,
        source,
    })?;
    let settings = Settings {
        create_token_hash: options.create_token.as_deref().map(auth::hash_token),
        base_url: match &options.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None if tls.is_some() => format!("https://{addr}"),
            None => format!("http://{addr}"),
        },
        allowed_hosts: allowed_hosts(&options),
        expire_after_days: options.expire_after_days,
        quotas: options.quotas.clone(),
        ..Settings::default()
    };
    if settings.allowed_hosts.is_none() {
        tracing::warn!(
            bind = %addr,
            "hosts are not checked: a web page a visitor of this server opens elsewhere may reach it by DNS rebinding; pass --public-url URL to answer for that host only"
        );
    }
    let limits = ConnectionLimits::from(&settings);
    let state = AppState::with_settings(store.clone(), settings);
    // Other servers' appends (PostgreSQL): catch this one's tables up.
    let follower = tokio::spawn(state.clone().follow_store());
    // Issue 28: tables nobody touched for the days set expire.
    let expirer = tokio::spawn(state.clone().expire_periodically());
    ready(addr, store.backend());
    let on_signal = state.clone();
    let stop = async move {
        shutdown_signal().await;
        tracing::info!("shutting down: finishing requests in flight");
        on_signal.begin_shutdown();
    };
    let guard = axum::middleware::from_fn_with_state(state.clone(), crate::guard::check_host);
    let site = tabula_web::with_api(app(state)).layer(guard);
    match tls {
        Some(tls) => listen::serve(listener, site, limits, tls, stop).await,
        None => listen::serve(listener, site, limits, Plain, stop).await,
    }
    .map_err(|source| ServeError::Io { addr, source })?;
    // The feed holds a connection of the store's pool: end it before closing.
    follower.abort();
    let _ = follower.await;
    expirer.abort();
    let _ = expirer.await;
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// The hosts `options` answer for ([`Settings::allowed_hosts`]): the
/// loopback names and the `--public-url`'s host; `None` (not checked) for a
/// non-loopback bind without `--public-url`.
pub fn allowed_hosts(options: &ServeOptions) -> Option<Vec<String>> {
    match options
        .public_url
        .as_deref()
        .and_then(crate::guard::url_host)
    {
        Some(host) => Some(vec![host]),
        None if options.bind.ip().is_loopback() => Some(Vec::new()),
        None => None,
    }
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(bind: &str, token: Option<&str>) -> ServeOptions {
        ServeOptions {
            bind: bind.parse().unwrap(),
            database_url: DEFAULT_DATABASE_URL.into(),
            create_token: token.map(str::to_string),
            public_url: None,
            tls: None,
            expire_after_days: None,
            quotas: crate::quota::Quotas::default(),
        }
    }

    #[test]
    fn the_public_url_names_the_one_other_host_answered_for() {
        let mut o = options("0.0.0.0:7878", Some("s3cret"));
        assert_eq!(allowed_hosts(&o), None, "open bind, no public URL");
        o.public_url = Some("https://Tabula.example/".into());
        assert!(check(&o).is_ok());
        assert_eq!(allowed_hosts(&o), Some(vec!["tabula.example".to_string()]));
        let o = options("127.0.0.1:7878", None);
        assert_eq!(allowed_hosts(&o), Some(Vec::new()), "loopback only");
        for bad in ["tabula.example", "ftp://x", "https://", "null"] {
            let mut o = options("127.0.0.1:7878", None);
            o.public_url = Some(bad.into());
            assert!(
                matches!(check(&o), Err(ServeError::BadPublicUrl(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_open_bind_needs_a_create_token() {
        assert!(check(&options("127.0.0.1:7878", None)).is_ok());
        assert!(check(&options("[::1]:7878", None)).is_ok());
        assert!(matches!(
            check(&options("0.0.0.0:7878", None)),
            Err(ServeError::OpenBind(_))
        ));
        assert!(check(&options("0.0.0.0:7878", Some("s3cret"))).is_ok());
        assert!(matches!(
            check(&options("127.0.0.1:7878", Some(""))),
            Err(ServeError::BadCreateToken)
        ));
    }
}
