//! The page wired in front of the server's app, as `tabula serve` runs it:
//! the page's routes answer first, every other path reaches the API. No
//! browser needed.

use crate::common;

use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn the_page_and_the_api_share_one_origin() {
    let server = common::Server::start().await;
    let (status, page) = server.api(Method::GET, "/", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.as_str().unwrap_or("").contains("/assets/lobby.js"));
    let (status, page) = server
        .api(
            Method::GET,
            "/t/0123456789abcdef0123456789abcdef",
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.as_str().unwrap_or("").contains("/assets/table.js"),
        "the table page is this crate's"
    );
    for (path, marker) in [
        ("/new/tiers", "/assets/builder.js"),
        ("/c/0123456789abcdef0123456789abcdef", "/assets/campaign.js"),
    ] {
        let (status, page) = server.api(Method::GET, path, None, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            page.as_str().unwrap_or("").contains(marker),
            "{path} is this crate's page"
        );
    }
    let (status, _) = server.api(Method::GET, "/healthz", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, examples) = server.api(Method::GET, "/api/examples", None, None).await;
    assert_eq!(status, StatusCode::OK, "{examples}");
    let table = server.create("bastards", "table", 1).await;
    let (status, view) = server
        .api(
            Method::GET,
            &format!("/api/tables/{}/view", table.id),
            Some(table.token("Stella")),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["seat"], json!("Stella"));
    assert_eq!(view["system"], json!("bastards"));
    // The endpoints the character pages use answer through the same router.
    let (status, draft) = server
        .api(Method::GET, "/api/systems/tiers/builder", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{draft}");
    assert!(draft["view"]["steps"].is_array(), "{draft}");
    let (status, list) = server.api(Method::GET, "/api/campaigns", None, None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let (status, _) = server
        .api(
            Method::GET,
            "/api/campaigns/0123456789abcdef0123456789abcdef",
            None,
            None,
        )
        .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a campaign needs its token"
    );
    let (status, _) = server
        .api(Method::GET, "/api/no-such-route", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the server's own 404");
}
