//! Middleware of [`crate::app`] that guards the server as a whole (issue 28):
//! the body limit of the routes that take a whole character sheet.

use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower::{Layer, ServiceExt};

/// The largest request body of a route that takes a whole character sheet as
/// a JSON string (adding a character, the GM's edit, validating a sheet, a
/// draft from a sheet): 3 MiB, so a sheet of up to
/// [`tabula_store::MAX_SHEET_BYTES`] (1 MiB) fits however JSON escapes it. A
/// larger body is refused with 413 `body-too-large`; a sheet over 1 MiB in a
/// smaller body with 413 `sheet-too-large`. Every other route keeps
/// [`crate::MAX_BODY_BYTES`].
pub const MAX_SHEET_BODY_BYTES: usize = 3 << 20;

/// True for the paths (under `/api`) whose body is a whole sheet.
pub fn takes_a_sheet(path: &str) -> bool {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    matches!(
        parts.as_slice(),
        ["", "api", "campaigns", _, "characters"]
            | ["", "api", "campaigns", _, "characters", _, "sheet"]
            | ["", "api", "systems", _, "sheets", "validate"]
            | ["", "api", "systems", _, "builder", "from-sheet"]
    )
}

/// Give the routes of [`takes_a_sheet`] the body limit
/// [`MAX_SHEET_BODY_BYTES`]; the others pass unchanged.
pub async fn sheet_body_limit(req: Request, next: Next) -> Response {
    if takes_a_sheet(req.uri().path()) {
        match DefaultBodyLimit::max(MAX_SHEET_BODY_BYTES)
            .layer(next)
            .oneshot(req)
            .await
        {
            Ok(response) => response,
            Err(never) => match never {},
        }
    } else {
        next.run(req).await
    }
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sheet_routes_are_the_four_that_take_a_sheet() {
        let id = "0123456789abcdef0123456789abcdef";
        assert!(takes_a_sheet(&format!("/api/campaigns/{id}/characters")));
        assert!(takes_a_sheet(&format!(
            "/api/campaigns/{id}/characters/{id}/sheet"
        )));
        assert!(takes_a_sheet("/api/systems/tiers/sheets/validate"));
        assert!(takes_a_sheet("/api/systems/tiers/builder/from-sheet"));
        assert!(!takes_a_sheet("/api/tables"));
        assert!(!takes_a_sheet(&format!("/api/tables/{id}/commands")));
        assert!(!takes_a_sheet(&format!("/api/campaigns/{id}/tables")));
    }
}
