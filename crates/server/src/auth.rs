//! Seat tokens: 128 random bits from the operating system, written as 32
//! lowercase hex characters; only their SHA-256 hash is stored.

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use sha2::{Digest, Sha256};

use crate::error::AppError;

/// Bytes of randomness in a token (128 bits).
pub const TOKEN_BYTES: usize = 16;

/// The longest bearer value read; anything longer is no token of ours.
pub const MAX_TOKEN_CHARS: usize = 256;

/// A fresh secret token: [`TOKEN_BYTES`] bytes from the operating system's
/// random source, as lowercase hex (32 characters).
///
/// # Errors
/// [`AppError::Internal`] when the operating system gives no randomness.
pub fn new_token() -> Result<String, AppError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random source: {e}")))?;
    Ok(hex::encode(bytes))
}

/// The hash the store keeps for `token`: SHA-256 of its UTF-8 bytes, as 64
/// lowercase hex characters.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The bearer token of `Authorization: Bearer TOKEN`, if there is one that
/// could be a token (visible ASCII, at most [`MAX_TOKEN_CHARS`]).
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    plausible(token.trim())
}

/// `token` if it could be a token (1 to [`MAX_TOKEN_CHARS`] visible ASCII
/// characters).
pub fn plausible(token: &str) -> Option<&str> {
    let ok = !token.is_empty()
        && token.len() <= MAX_TOKEN_CHARS
        && token.bytes().all(|b| b.is_ascii_graphic());
    ok.then_some(token)
}

/// True when `id` looks like a table id (32 lowercase hex characters); other
/// ids are refused before the store is asked.
pub fn plausible_table_id(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Equal without an early exit (for comparing hashes of secrets).
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_differ() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), a);
    }

    #[test]
    fn bearer_reads_the_header_and_refuses_junk() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert(AUTHORIZATION, "Bearer abc".parse().unwrap());
        assert_eq!(bearer(&h), Some("abc"));
        h.insert(AUTHORIZATION, "Basic abc".parse().unwrap());
        assert_eq!(bearer(&h), None);
        h.insert(AUTHORIZATION, "Bearer ".parse().unwrap());
        assert_eq!(bearer(&h), None);
        assert!(plausible_table_id("0123456789abcdef0123456789abcdef"));
        assert!(!plausible_table_id("0123456789ABCDEF0123456789abcdef"));
        assert!(!plausible_table_id("../etc"));
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
    }
}
