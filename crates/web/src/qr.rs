//! QR codes of seat links, drawn on the server (the `qrcode` crate) as SVG.

use axum::extract::Query;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use qrcode::QrCode;
use qrcode::render::svg;
use serde::Deserialize;

use crate::secure;

/// The longest text a QR code is drawn for, in bytes (a seat link is about 100).
pub const MAX_QR_TEXT_BYTES: usize = 512;

/// Why no QR code was drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QrError {
    /// The text is empty.
    Empty,
    /// The text is longer than [`MAX_QR_TEXT_BYTES`] (the length given).
    TooLong(usize),
    /// The encoder refused the text (the message is the encoder's).
    Encode(String),
}

impl std::fmt::Display for QrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QrError::Empty => f.write_str("no text to encode"),
            QrError::TooLong(n) => write!(
                f,
                "a QR code holds at most {MAX_QR_TEXT_BYTES} bytes here, not {n}"
            ),
            QrError::Encode(m) => write!(f, "cannot encode this text: {m}"),
        }
    }
}

impl std::error::Error for QrError {}

/// The QR code of `text` as an SVG document (black on white, a quiet zone
/// around it, at least 200 px wide; it scales without blurring).
///
/// # Errors
/// [`QrError::Empty`], [`QrError::TooLong`] past [`MAX_QR_TEXT_BYTES`], or
/// [`QrError::Encode`].
pub fn qr_svg(text: &str) -> Result<String, QrError> {
    if text.is_empty() {
        return Err(QrError::Empty);
    }
    if text.len() > MAX_QR_TEXT_BYTES {
        return Err(QrError::TooLong(text.len()));
    }
    let code = QrCode::new(text.as_bytes()).map_err(|e| QrError::Encode(e.to_string()))?;
    Ok(code
        .render::<svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .quiet_zone(true)
        .build())
}

/// `GET /qr?text=...`.
#[derive(Deserialize)]
pub(crate) struct QrQuery {
    #[serde(default)]
    text: String,
}

fn answer(text: &str) -> Response {
    let r = match qr_svg(text) {
        Ok(svg) => {
            let mut r = svg.into_response();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("image/svg+xml"),
            );
            r.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            r
        }
        Err(e) => (StatusCode::BAD_REQUEST, format!("{e}\n")).into_response(),
    };
    secure(r)
}

pub(crate) async fn get_qr(
    query: Result<Query<QrQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    match query {
        Ok(Query(q)) => answer(&q.text),
        Err(e) => secure((StatusCode::BAD_REQUEST, format!("{e}\n")).into_response()),
    }
}

pub(crate) async fn post_qr(body: axum::body::Bytes) -> Response {
    if body.len() > MAX_QR_TEXT_BYTES {
        let e = QrError::TooLong(body.len());
        return secure((StatusCode::BAD_REQUEST, format!("{e}\n")).into_response());
    }
    match std::str::from_utf8(&body) {
        Ok(text) => answer(text.trim()),
        Err(_) => secure((StatusCode::BAD_REQUEST, "the text is not UTF-8\n").into_response()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_link_and_refuses_empty_or_long_text() {
        let svg = qr_svg("http://127.0.0.1:7878/t/0123456789abcdef0123456789abcdef#00112233445566778899aabbccddeeff")
            .expect("a link fits");
        assert!(svg.contains("<svg"));
        assert!(svg.contains("<path"));
        assert_eq!(qr_svg(""), Err(QrError::Empty));
        assert_eq!(
            qr_svg(&"a".repeat(MAX_QR_TEXT_BYTES + 1)),
            Err(QrError::TooLong(MAX_QR_TEXT_BYTES + 1))
        );
        assert!(qr_svg(&"a".repeat(MAX_QR_TEXT_BYTES)).is_ok());
    }
}
