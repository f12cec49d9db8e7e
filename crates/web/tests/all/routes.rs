//! The page's routes without a socket: pages, assets, content types, the
//! security headers and the QR code.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use axum::response::Response;
use tower::ServiceExt;

async fn get(path: &str) -> Response {
    tabula_web::routes::<()>()
        .oneshot(Request::get(path).body(Body::empty()).expect("request"))
        .await
        .expect("infallible")
}

async fn body_text(r: Response) -> String {
    let bytes = axum::body::to_bytes(r.into_body(), 1 << 22)
        .await
        .expect("body");
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

fn header_of(r: &Response, name: header::HeaderName) -> String {
    r.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn lobby_and_table_pages_are_html_with_a_strict_policy() {
    for (path, marker) in [("/", "lobby.js"), ("/t/0123abcd", "table.js")] {
        let r = get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert_eq!(
            header_of(&r, header::CONTENT_TYPE),
            "text/html; charset=utf-8"
        );
        let csp = header_of(&r, header::CONTENT_SECURITY_POLICY);
        assert!(csp.contains("default-src 'none'"), "{csp}");
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert!(!csp.contains("unsafe-eval"), "{csp}");
        assert_eq!(header_of(&r, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
        assert_eq!(header_of(&r, header::REFERRER_POLICY), "no-referrer");
        let html = body_text(r).await;
        assert!(html.contains(marker), "{path} loads {marker}");
        assert!(html.contains("<html lang=\"en\">"));
        assert!(
            !html.contains("<script>") && !html.contains(" style="),
            "no inline script or style in {path}"
        );
    }
}

#[tokio::test]
async fn every_asset_is_served_with_its_type_and_unknown_names_are_404() {
    for a in tabula_web::assets() {
        let r = get(&format!("/assets/{}", a.name)).await;
        assert_eq!(r.status(), StatusCode::OK, "{}", a.name);
        assert_eq!(header_of(&r, header::CONTENT_TYPE), a.content_type());
        assert_eq!(header_of(&r, header::ETAG), a.etag());
        assert_eq!(header_of(&r, header::CACHE_CONTROL), "no-cache");
        assert!(!header_of(&r, header::CONTENT_SECURITY_POLICY).is_empty());
    }
    for bad in [
        "/assets/nope.js",
        "/assets/../Cargo.toml",
        "/assets/%2e%2e/Cargo.toml",
        "/assets/",
        "/assets/web/table.js",
    ] {
        let r = get(bad).await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{bad}");
    }
}

#[tokio::test]
async fn an_unchanged_asset_is_not_sent_again() {
    let a = tabula_web::asset("table.js").expect("table.js");
    let r = tabula_web::routes::<()>()
        .oneshot(
            Request::get("/assets/table.js")
                .header(header::IF_NONE_MATCH, a.etag())
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    assert!(body_text(r).await.is_empty());
}

#[tokio::test]
async fn qr_codes_by_get_and_post_and_their_limits() {
    let r = get("/qr?text=http%3A%2F%2F127.0.0.1%3A7878%2Ft%2Fabc%23def").await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(header_of(&r, header::CONTENT_TYPE), "image/svg+xml");
    assert!(body_text(r).await.contains("<svg"));

    for bad in ["/qr", "/qr?text=", &format!("/qr?text={}", "a".repeat(600))] {
        let r = get(bad).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{bad}");
    }

    let post = |body: Vec<u8>| async move {
        tabula_web::routes::<()>()
            .oneshot(
                Request::post("/qr")
                    .header(header::CONTENT_TYPE, "text/plain")
                    .body(Body::from(body))
                    .expect("request"),
            )
            .await
            .expect("infallible")
    };
    let r = post(b"http://127.0.0.1:7878/t/abc#secret".to_vec()).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(body_text(r).await.contains("<path"));
    assert_eq!(
        post(vec![b'a'; 10_000]).await.status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        post(vec![0xff, 0xfe]).await.status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(post(Vec::new()).await.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_routes_merge_into_a_router_with_state() {
    #[derive(Clone)]
    struct AppState;
    let app: axum::Router = axum::Router::new()
        .route("/healthz", axum::routing::get(|| async { "ok" }))
        .merge(tabula_web::routes::<AppState>())
        .with_state(AppState);
    let r = app
        .oneshot(Request::get("/").body(Body::empty()).expect("request"))
        .await
        .expect("infallible");
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn builder_and_campaign_pages_are_html_with_the_same_policy() {
    for (path, marker) in [
        ("/new/tiers", "/assets/builder.js"),
        ("/new/no-such-book", "/assets/builder.js"),
        ("/c/0123456789abcdef0123456789abcdef", "/assets/campaign.js"),
    ] {
        let r = get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert_eq!(
            header_of(&r, header::CONTENT_TYPE),
            "text/html; charset=utf-8"
        );
        let csp = header_of(&r, header::CONTENT_SECURITY_POLICY);
        assert!(csp.contains("default-src 'none'"), "{csp}");
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert_eq!(header_of(&r, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
        assert_eq!(header_of(&r, header::REFERRER_POLICY), "no-referrer");
        assert_eq!(header_of(&r, header::X_FRAME_OPTIONS), "DENY");
        let html = body_text(r).await;
        assert!(html.contains(marker), "{path} loads {marker}");
        assert!(html.contains("<html lang=\"en\">"));
        assert!(
            !html.contains("<script>") && !html.contains(" style="),
            "no inline script or style in {path}"
        );
    }
    for bad in [
        "/new",
        "/new/",
        "/c",
        "/c/",
        "/new/tiers/extra",
        "/c/abc/def",
    ] {
        assert_eq!(get(bad).await.status(), StatusCode::NOT_FOUND, "{bad}");
    }
}

/// The ids a script looks up (`$("id")`, `getElementById("id")`).
fn ids_used(js: &str) -> Vec<String> {
    let mut out = Vec::new();
    for marker in ["$(\"", "getElementById(\""] {
        let mut rest = js;
        while let Some(at) = rest.find(marker) {
            rest = &rest[at + marker.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_id_a_page_script_looks_up_is_in_its_page_or_made_by_it() {
    for (html, js) in [
        ("index.html", "lobby.js"),
        ("table.html", "table.js"),
        ("new.html", "builder.js"),
        ("campaign.html", "campaign.js"),
    ] {
        let page = std::str::from_utf8(tabula_web::asset(html).expect(html).bytes).expect("utf-8");
        let script = std::str::from_utf8(tabula_web::asset(js).expect(js).bytes).expect("utf-8");
        let used = ids_used(script);
        assert!(!used.is_empty(), "{js} looks up ids");
        for id in used {
            let in_page = page.contains(&format!("id=\"{id}\""));
            let made = script.contains(&format!("id: \"{id}\""));
            assert!(in_page || made, "{js} looks up #{id}, which {html} lacks");
        }
        // Every script a page loads is one of the page's files.
        for chunk in page.split("src=\"/assets/").skip(1) {
            let name = chunk.split('"').next().unwrap_or_default();
            assert!(tabula_web::asset(name).is_some(), "{html} loads {name}");
        }
    }
}
