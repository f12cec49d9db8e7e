//! Serving the app on a socket with bounds a hostile network cannot stretch
//! (issue 28, "A long evening on a hostile network"): how long a client may
//! take to send a request's head ([`Settings::header_timeout`], which is also
//! how long a kept-alive connection may sit idle waiting for its next request),
//! and how many connections are open at once ([`Settings::max_connections`]).
//! The body's timeout is a layer of [`crate::app`] ([`Settings::body_timeout`]).
//!
//! HTTP/1.1 only (WebSockets upgrade from it): hyper's HTTP/1 connection runs
//! the header timer from the connection's first byte on, so a client that
//! connects and sends nothing is closed too.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tower::ServiceExt;

use crate::state::Settings;

/// How long the accept loop waits after the operating system refused to
/// accept (e.g. out of file descriptors) before it tries again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// The socket-level bounds of [`serve`], read from [`Settings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// [`Settings::header_timeout`].
    pub header_timeout: Duration,
    /// [`Settings::max_connections`].
    pub max_connections: usize,
}

impl From<&Settings> for ConnectionLimits {
    fn from(s: &Settings) -> Self {
        ConnectionLimits {
            header_timeout: s.header_timeout,
            max_connections: s.max_connections,
        }
    }
}

/// Turns an accepted TCP stream into the stream HTTP is spoken on (identity
/// for plain HTTP; the TLS handshake for `--tls-cert`).
pub trait Acceptor: Clone + Send + Sync + 'static {
    /// The stream HTTP is spoken on.
    type Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    /// Make it; an error (a failed handshake) drops the connection.
    fn accept(
        &self,
        tcp: tokio::net::TcpStream,
    ) -> impl Future<Output = std::io::Result<Self::Stream>> + Send;
}

/// One connection's place among [`Settings::max_connections`], carried in
/// each request's extensions: a WebSocket keeps it (the upgrade takes the
/// socket away from the HTTP connection), so it is counted until it closes.
#[derive(Clone, Debug)]
pub struct ConnectionPermit(#[allow(dead_code)] Arc<OwnedSemaphorePermit>);

/// Plain HTTP.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl Acceptor for Plain {
    type Stream = tokio::net::TcpStream;
    async fn accept(&self, tcp: tokio::net::TcpStream) -> std::io::Result<Self::Stream> {
        Ok(tcp)
    }
}

/// HTTPS (`tabula serve --tls-cert FILE --tls-key FILE`): the TLS handshake
/// (rustls, TLS 1.2 and 1.3, ALPN `http/1.1`) before HTTP. Issue 28.
#[derive(Clone)]
pub struct Tls(tokio_rustls::TlsAcceptor);

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tls")
    }
}

/// The certificate or key of [`Tls`] could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The certificate file holds no PEM certificate, or a broken one.
    #[error("the TLS certificate file holds no usable PEM certificate: {0}")]
    Certificate(String),
    /// The key file holds no PEM private key, or a broken one.
    #[error("the TLS key file holds no usable PEM private key: {0}")]
    Key(String),
    /// The certificate and key do not go together (or rustls refused them).
    #[error("the TLS certificate and key cannot be used together: {0}")]
    Config(String),
}

impl Tls {
    /// From a PEM certificate chain (the server's first) and its PEM
    /// private key (PKCS#8, PKCS#1 or SEC1).
    ///
    /// # Errors
    /// [`TlsError::Certificate`], [`TlsError::Key`], [`TlsError::Config`].
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Tls, TlsError> {
        use rustls_pki_types::pem::PemObject;
        use rustls_pki_types::{CertificateDer, PrivateKeyDer};
        use tokio_rustls::rustls;
        let certs = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| TlsError::Certificate(e.to_string()))?;
        if certs.is_empty() {
            return Err(TlsError::Certificate("no CERTIFICATE block".into()));
        }
        let key =
            PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| TlsError::Key(e.to_string()))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Config(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(|e| TlsError::Config(e.to_string()))?;
        // HTTP/1.1 only: WebSockets upgrade from it.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Tls(tokio_rustls::TlsAcceptor::from(Arc::new(config))))
    }

    /// From the PEM files `cert` and `key`.
    ///
    /// # Errors
    /// [`TlsError`].
    pub fn from_files(cert: &std::path::Path, key: &std::path::Path) -> Result<Tls, TlsError> {
        let read = |p: &std::path::Path| {
            std::fs::read(p).map_err(|source| TlsError::Read {
                path: p.display().to_string(),
                source,
            })
        };
        Tls::from_pem(&read(cert)?, &read(key)?)
    }
}

impl Acceptor for Tls {
    type Stream = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    async fn accept(&self, tcp: tokio::net::TcpStream) -> std::io::Result<Self::Stream> {
        self.0.accept(tcp).await
    }
}

/// Serve `app` on `listener` until `shutdown` resolves, then stop accepting,
/// let every connection finish the request it is on (kept-alive connections
/// are closed after it), and return when they are all closed.
///
/// Each request carries the peer's [`ConnectInfo<std::net::SocketAddr>`]. At most
/// `limits.max_connections` connections are open at once: past that the
/// server stops accepting (the operating system queues the rest) until one
/// closes. A connection whose request head (or, kept alive, whose next
/// request head) has not fully arrived within `limits.header_timeout` is
/// closed.
///
/// # Errors
/// Never at present (accept failures are logged and retried); the `Result`
/// leaves room for a failure to bind that a caller should see.
pub async fn serve<A: Acceptor>(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    acceptor: A,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let mut shutdown = pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed; retrying");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = tcp.set_nodelay(true);
        let app = app.clone();
        let builder = builder.clone();
        let acceptor = acceptor.clone();
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let permit = ConnectionPermit(Arc::new(permit));
            // The handshake (TLS) is bounded by the header timeout too.
            let stream =
                match tokio::time::timeout(limits.header_timeout, acceptor.accept(tcp)).await {
                    Ok(Ok(s)) => s,
                    Ok(Err(e)) => {
                        tracing::debug!(%peer, error = %e, "handshake failed");
                        return;
                    }
                    Err(_) => {
                        tracing::debug!(%peer, "handshake timed out");
                        return;
                    }
                };
            let service = app.map_request(move |mut req: Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                req.extensions_mut().insert(permit.clone());
                req
            });
            let conn = builder
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
                .with_upgrades();
            let mut conn = pin!(conn);
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(%peer, error = %e, "connection closed with an error");
                    }
                    return;
                }
                _ = stop.wait_for(|s| *s) => {}
            }
            conn.as_mut().graceful_shutdown();
            if let Err(e) = conn.await {
                tracing::debug!(%peer, error = %e, "connection closed with an error");
            }
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Every connection task holds a permit: when all are back, all are closed.
    let all = u32::try_from(limits.max_connections.max(1)).unwrap_or(u32::MAX);
    let _ = permits.acquire_many(all).await;
    Ok(())
}
