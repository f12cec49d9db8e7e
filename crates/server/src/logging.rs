//! The log of `tabula serve`: tracing to a writer (stderr), filtered by
//! `RUST_LOG` (default `info`), with the `log` crate's records (the
//! WebSocket library's) taken in too.
//!
//! No secret reaches it at any level (issue 28): the request log records
//! method, path, table, seat, seq, status and latency (never a header, the
//! query or a body; see [`crate::app`]), and the WebSocket library's targets
//! ([`QUIET_TARGETS`]) are capped at INFO whatever `RUST_LOG` says, because at
//! DEBUG and TRACE they write every message and frame, a first message's
//! `{"token": ...}` included.

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// Crates whose DEBUG and TRACE events carry WebSocket payloads (tokens):
/// capped at INFO.
pub const QUIET_TARGETS: &[&str] = &["tungstenite", "tokio_tungstenite"];

/// The filter of `tabula serve`'s log: `spec` in `RUST_LOG`'s syntax (`None`
/// or unreadable: `info`), with every target of [`QUIET_TARGETS`] capped at
/// INFO (a directive of `spec` for them is replaced).
pub fn filter(spec: Option<&str>) -> EnvFilter {
    let mut filter = spec
        .and_then(|s| EnvFilter::try_new(s).ok())
        .unwrap_or_else(|| EnvFilter::new("info"));
    for target in QUIET_TARGETS {
        if let Ok(directive) = format!("{target}=info").parse() {
            filter = filter.add_directive(directive);
        }
    }
    filter
}

/// Install the process's log: events passing [`filter`]`(spec)` written to
/// `writer` (colored when `ansi`), and the `log` crate's records bridged in.
///
/// # Errors
/// When a global subscriber or logger is already installed.
pub fn init<W>(
    spec: Option<&str>,
    writer: W,
    ansi: bool,
) -> Result<(), tracing_subscriber::util::TryInitError>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    use tracing_subscriber::util::SubscriberInitExt;
    tracing_subscriber::fmt()
        .with_env_filter(filter(spec))
        .with_writer(writer)
        .with_ansi(ansi)
        .finish()
        .try_init()
}
