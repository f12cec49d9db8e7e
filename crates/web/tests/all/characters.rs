//! Characters and campaigns in a real browser (Debian's Chromium through
//! chromedriver; the server and the page on 127.0.0.1 over a throwaway SQLite
//! file): a Tiers character built from the empty draft with the page's
//! controls only, a legal character of each of the five books made by a
//! newcomer who follows only the page's prompts, a campaign made in the lobby
//! and played from its page, and a player's campaign page that shows only
//! that player's characters.
//!
//! Skipped with a line on stderr when Chromium is not installed; a failure
//! instead under `TABULA_REQUIRE_BROWSER=1` (CI).

use crate::common;

use std::path::Path;

use axum::http::{Method, StatusCode};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use common::*;

/// WebDriver's Tab key: leaving a field commits its value (`change`).
const TAB: &str = "\u{E004}";
/// Control+A then the modifiers released (WebDriver's Control and Null keys).
const SELECT_ALL: &str = "\u{E009}a\u{E000}";

/// The browser for one test (or `None`: skipped), holding the one-at-a-time lock.
async fn browser(test: &str) -> Option<(Driver, tokio::sync::MutexGuard<'static, ()>)> {
    let (chromium, driver) = browser_paths(test)?;
    let guard = ONE_AT_A_TIME.lock().await;
    Some((Driver::start(&chromium, &driver).await, guard))
}

/// The path of an example file of Tiers, for a file input.
fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/tiers")
        .join(name)
        .canonicalize()
        .expect("the example exists")
        .display()
        .to_string()
}

/// The text of an example file of Tiers.
fn example_text(name: &str) -> String {
    std::fs::read_to_string(example(name)).expect("the example reads")
}

/// Wait until `script` (returning a value) answers something other than
/// null, false or an empty string; answer it.
async fn wait_for(c: &Client, what: &str, script: &str) -> Value {
    until(what, || async {
        let v = js(c, script).await;
        let empty = v.is_null() || v == json!(false) || v == json!("");
        (!empty).then_some(v)
    })
    .await
}

/// Wait until the page has drawn (`<body data-ready="true">`).
async fn wait_page(c: &Client) {
    wait_for(
        c,
        "the page to draw",
        "return document.body.dataset.ready === 'true';",
    )
    .await;
}

/// Wait until the builder has an answer for every change sent.
async fn builder_idle(c: &Client) {
    wait_for(
        c,
        "the builder's answers",
        "return (document.body.dataset.pending || '0') === '0' && document.body.dataset.busy !== 'true';",
    )
    .await;
}

/// Type `text` into the builder's field `key` and leave it (Tab), then wait
/// for the builder's answer.
async fn fill(c: &Client, key: &str, text: &str) {
    let id = format!(
        "field-{}",
        key.replace(
            |ch: char| !ch.is_ascii_alphanumeric() && ch != '_' && ch != '-',
            "_"
        )
    );
    let input = until(&format!("the field {key}"), || async {
        c.find(Locator::Id(&id)).await.ok()
    })
    .await;
    // Select what is there and type over it (Ctrl+A, release, the text, Tab).
    input
        .send_keys(&format!("{SELECT_ALL}{text}{TAB}"))
        .await
        .expect("typed");
    builder_idle(c).await;
}

/// The value of the builder's control for `key`.
async fn field_value(c: &Client, key: &str) -> String {
    js(
        c,
        &format!("const e = document.querySelector('input[data-key=\"{key}\"], select[data-key=\"{key}\"]'); return e ? e.value : null;"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// What the builder says is left of its first budget.
async fn budget_left(c: &Client) -> i64 {
    js(
        c,
        "const b = document.querySelector('#budgets li[data-left]'); return b ? Number(b.dataset.left) : null;",
    )
    .await
    .as_i64()
    .expect("a budget")
}

/// Click the element `css`.
async fn click(c: &Client, css: &str) {
    let e = until(&format!("{css} to be there"), || async {
        c.find(Locator::Css(css)).await.ok()
    })
    .await;
    e.click()
        .await
        .unwrap_or_else(|e| panic!("{css} clicked: {e}"));
}

/// Build a legal level-1 Tiers character called `name` on the builder page
/// with its controls only; on the way, an over-budget Strength is refused
/// with its rule and changes nothing. Answers the finished sheet.
async fn build_tiers_character(c: &Client, name: &str) -> String {
    wait_page(c).await;
    let steps = js(
        c,
        "return [...document.querySelectorAll('#steps section.step h2')].map(h => h.innerText);",
    )
    .await;
    let steps: Vec<String> = steps
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s.as_str().map(String::from))
        .collect();
    assert!(
        steps.len() >= 5
            && steps[0].starts_with("1.")
            && steps.last().is_some_and(|s| s.contains("Stats and Tiers")),
        "the book's steps in its order: {steps:?}"
    );
    assert_eq!(
        js(c, "return document.getElementById('finish').disabled;").await,
        json!(true),
        "Finish waits for a complete character"
    );
    fill(c, "name", name).await;
    fill(c, "weapon", "Quarterstaff").await;
    fill(c, "level", "1").await;
    assert_eq!(budget_left(c).await, 4, "level 1: 16 SP, 12 placed");

    // 10 SP in Strength is over the budget: refused, with the rule, and
    // nothing changes.
    fill(c, "stats.Strength", "10").await;
    let refusal = wait_for(
        c,
        "the refusal next to Strength",
        "const r = document.querySelector('.refusal[data-key=\"stats.Strength\"]'); return r ? r.innerText : '';",
    )
    .await;
    let refusal = refusal.as_str().unwrap_or_default();
    assert!(
        refusal.contains("Refused")
            && refusal.contains("Rule:")
            && refusal.contains("Tiers, \"Leveling Up\""),
        "the refusal cites the book's rule: {refusal}"
    );
    assert_eq!(
        field_value(c, "stats.Strength").await,
        "3",
        "nothing changed"
    );
    assert_eq!(budget_left(c).await, 4, "the budget is untouched");

    // 7 SP: tier 2 of Strength, its Roleplay Bonus shown at once.
    fill(c, "stats.Strength", "7").await;
    assert_eq!(budget_left(c).await, 0);
    let bonus = js(
        c,
        "const d = document.querySelector('[data-derived=\"Strength: Roleplay Bonus\"]'); return d ? d.innerText : '';",
    )
    .await;
    assert!(
        bonus.as_str().unwrap_or_default().starts_with("+2"),
        "the derived Roleplay Bonus: {bonus}"
    );
    assert_eq!(
        js(
            c,
            "return !!document.querySelector('.refusal[data-key=\"stats.Strength\"]:not(:empty)');"
        )
        .await,
        json!(false),
        "the refusal is gone after an accepted change"
    );
    // A Sample Item, as a checkbox.
    click(
        c,
        "input[type=checkbox][data-key=\"sample_items\"][value=\"Fast Potion\"]",
    )
    .await;
    builder_idle(c).await;
    assert_eq!(
        js(
            c,
            "return document.querySelector('input[type=checkbox][value=\"Fast Potion\"]').checked;"
        )
        .await,
        json!(true)
    );
    wait_for(
        c,
        "Finish to be enabled",
        "return !document.getElementById('finish').disabled;",
    )
    .await;
    click(c, "#finish").await;
    let sheet = wait_for(
        c,
        "the finished sheet",
        "const f = document.getElementById('finished'); return f.hidden ? '' : document.getElementById('sheet-text').textContent;",
    )
    .await;
    let download = js(
        c,
        "const a = document.getElementById('download'); return a ? [a.getAttribute('href'), a.getAttribute('download')] : null;",
    )
    .await;
    assert!(
        download[0]
            .as_str()
            .unwrap_or_default()
            .starts_with("blob:"),
        "Download is a blob link: {download}"
    );
    assert_eq!(download[1], json!(format!("{}.toml", name.to_lowercase())));
    sheet.as_str().expect("the sheet").to_string()
}

/// Every form control and button has a name a screen reader reads.
async fn assert_labelled(c: &Client) {
    let v = js(
        c,
        "const bad = []; \
         for (const e of document.querySelectorAll('input, select, textarea, button, a[href], summary')) { \
           if (e.type === 'hidden' || e.closest('[hidden]')) continue; \
           const name = (e.labels && e.labels.length ? [...e.labels].map(l => l.textContent).join(' ') : '') \
             || e.getAttribute('aria-label') || (e.getAttribute('aria-labelledby') ? 'x' : '') \
             || (e.textContent || '').trim() || e.getAttribute('title') || ''; \
           if (!name.trim()) bad.push(e.outerHTML.slice(0, 120)); \
         } \
         return bad;",
    )
    .await;
    assert_eq!(v, json!([]), "controls without an accessible name");
}

/// The page fits `width` CSS pixels (no sideways scrolling).
async fn assert_fits(c: &Client, width: u32) {
    set_viewport(c, width, 844).await;
    let w = js(c, "return document.documentElement.scrollWidth;").await;
    assert!(
        w.as_u64().unwrap_or(u64::MAX) <= u64::from(width),
        "the page is {w} px wide at {width} px"
    );
}

/// A whole-page screenshot; the viewport is made as tall as the page first,
/// so a sticky column shows whole, then set back.
async fn screenshot(c: &Client, name: &str) {
    let size = js(
        c,
        "window.scrollTo(0, 0); return [window.innerWidth, window.innerHeight, document.documentElement.scrollHeight];",
    )
    .await;
    let dim = |i: usize| u32::try_from(size[i].as_u64().unwrap_or(900)).unwrap_or(900);
    set_viewport(c, dim(0), dim(2).min(8000)).await;
    let png = full_page_png(c).await;
    set_viewport(c, dim(0), dim(1)).await;
    assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
    let path = save_screenshot(name, &png);
    eprintln!("screenshot: {}", path.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_builds_a_tiers_character_with_the_pages_controls() {
    let Some((mut driver, _one)) = browser("browser_builds_a_tiers_character").await else {
        return;
    };
    let server = Server::start().await;
    let c = driver.session(1280, 900).await;
    c.goto(&format!("{}/", server.base))
        .await
        .expect("the lobby");
    // The lobby offers a new character of each of the five books.
    let offered = wait_for(
        &c,
        "the new-character links",
        "const a = [...document.querySelectorAll('#new-character a')].map(a => a.getAttribute('href')); return a.length ? a : null;",
    )
    .await;
    assert_eq!(
        offered,
        json!([
            "/new/sour-grapes",
            "/new/scratch",
            "/new/tiers",
            "/new/bastards",
            "/new/sapio"
        ])
    );
    click(&c, "#new-character a[href=\"/new/tiers\"]").await;
    let sheet = build_tiers_character(&c, "Mira").await;
    let (status, v) = server
        .api(
            Method::POST,
            "/api/systems/tiers/sheets/validate",
            None,
            Some(json!({ "sheet": sheet })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["valid"],
        json!(true),
        "the finished sheet validates: {v}\n{sheet}"
    );
    assert_eq!(v["name"], json!("Mira"));
    assert_labelled(&c).await;
    screenshot(&c, "builder-1280").await;

    // Import: an uploaded broken sheet is checked, each problem with its rule.
    type_into(&c, "import-file", &example("broken-character.toml")).await;
    let result = wait_for(
        &c,
        "the import check",
        "const r = document.querySelector('#import-result [data-kind]'); return r ? [r.dataset.kind, r.innerText] : null;",
    )
    .await;
    assert_eq!(result[0], json!("invalid"), "{result}");
    assert!(
        result[1]
            .as_str()
            .unwrap_or_default()
            .contains("Rule: Tiers, \""),
        "{result}"
    );
    // A pasted legal sheet is accepted.
    let text = c
        .find(Locator::Id("import-text"))
        .await
        .expect("the paste box");
    text.clear().await.expect("cleared");
    text.send_keys(&example_text("john.toml"))
        .await
        .expect("pasted");
    click(&c, "#import-check").await;
    let result = wait_for(
        &c,
        "the import check of John",
        "const r = document.querySelector('#import-result [data-kind]'); return r && r.dataset.kind !== 'invalid' ? [r.dataset.kind, r.innerText] : null;",
    )
    .await;
    assert_eq!(result[0], json!("valid"), "{result}");

    // A reload keeps the draft (this tab's session).
    c.refresh().await.expect("reloaded");
    wait_page(&c).await;
    assert_eq!(field_value(&c, "name").await, "Mira");

    // A legal imported sheet opens in the builder as its draft: John's name
    // and level are the fields' values, and the draft is complete.
    let text = c
        .find(Locator::Id("import-text"))
        .await
        .expect("the paste box");
    text.clear().await.expect("cleared");
    text.send_keys(&example_text("john.toml"))
        .await
        .expect("pasted");
    click(&c, "#import-check").await;
    wait_for(
        &c,
        "the import check of John again",
        "return document.getElementById('import-edit') ? true : null;",
    )
    .await;
    click(&c, "#import-edit").await;
    until("John's sheet in the builder", || async {
        (field_value(&c, "name").await == "John").then_some(())
    })
    .await;
    let complete = js(&c, "return !document.getElementById('finish').disabled;").await;
    assert_eq!(complete, json!(true), "John's imported sheet is complete");

    assert_fits(&c, 390).await;
    screenshot(&c, "builder-390").await;
    let _ = c.close().await;
}

/// The seat links the lobby showed for a new campaign: (seat, link).
async fn created_campaign_links(c: &Client, seats: usize) -> Vec<(String, String)> {
    let v = until("a campaign link per seat", || async {
        let v = js(
            c,
            "return [...document.querySelectorAll('#campaign-created .seat-card')].map(s => [s.dataset.seat, s.querySelector('input.link').value]);",
        )
        .await;
        let a = v.as_array().cloned().unwrap_or_default();
        (a.len() >= seats).then_some(a)
    })
    .await;
    v.iter()
        .map(|s| {
            (
                s[0].as_str().unwrap_or_default().to_string(),
                s[1].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Type `text` into the element with id `id` (a file input takes a path).
async fn type_into(c: &Client, id: &str, text: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("#{id} is on the page: {e}"))
        .send_keys(text)
        .await
        .unwrap_or_else(|e| panic!("#{id} takes the keys: {e}"));
}

/// The characters a campaign page shows, by name.
async fn shown_characters(c: &Client) -> Vec<String> {
    js_strings(
        c,
        "return [...document.querySelectorAll('#characters .character')].map(a => a.dataset.name);",
    )
    .await
}

/// The kinds of the history events of character `name` on a campaign page.
async fn history_kinds(c: &Client, name: &str) -> Vec<String> {
    js_strings(
        c,
        &format!("const a = document.querySelector('#characters .character[data-name=\"{name}\"]'); return a ? [...a.querySelectorAll('ol.history li')].map(l => l.dataset.kind) : [];"),
    )
    .await
}

/// Give advancement command `command` (with `args`) to `name` from the
/// campaign page; answers the result's kind (`ok`, `error`) and text.
async fn advance(c: &Client, name: &str, command: &str, args: &str) -> (String, String) {
    let form = format!("#characters .character[data-name=\"{name}\"] form.advance");
    let loads = body_number(c, "loads").await;
    c.find(Locator::Css(&format!("{form} select.advance-command")))
        .await
        .expect("the command list")
        .select_by_value(command)
        .await
        .expect("the command is offered");
    let input = c
        .find(Locator::Css(&format!("{form} input.advance-args")))
        .await
        .expect("the arguments");
    input.clear().await.expect("cleared");
    if !args.is_empty() {
        input.send_keys(args).await.expect("typed");
    }
    click(c, &format!("{form} button[type=submit]")).await;
    until(&format!("the answer to {command}"), || async {
        let v = js(
            c,
            &format!("const r = document.querySelector('{form} .advance-result [data-kind]'); return r ? [r.dataset.kind, r.innerText] : null;"),
        )
        .await;
        let kind = v[0].as_str().unwrap_or_default().to_string();
        // An accepted command reloads the campaign; wait for it.
        let reloaded = kind != "ok" || js(c, "return Number(document.body.dataset.loads || 0);").await.as_u64().unwrap_or(0) > loads;
        (!kind.is_empty() && reloaded).then(|| (kind, v[1].as_str().unwrap_or_default().to_string()))
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_campaign_from_the_lobby_to_an_ended_encounter_and_advancement() {
    let Some((mut driver, _one)) = browser("browser_campaign").await else {
        return;
    };
    let server = Server::start().await;
    let c = driver.session(1280, 900).await;
    c.goto(&format!("{}/", server.base))
        .await
        .expect("the lobby");
    wait_for(
        &c,
        "the campaigns list",
        "return document.getElementById('campaigns').getAttribute('aria-busy') === 'false';",
    )
    .await;
    c.find(Locator::Id("campaign-system"))
        .await
        .expect("the system list")
        .select_by_value("tiers")
        .await
        .expect("Tiers is offered");
    type_into(&c, "campaign-name", "Goblin Summer").await;
    type_into(&c, "campaign-players", "John, Cristy").await;
    click(&c, "#create-campaign").await;
    let links = created_campaign_links(&c, 3).await;
    let seats: Vec<&str> = links.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(seats, ["gm", "John", "Cristy"]);
    for (_, link) in &links {
        assert!(
            link.starts_with(&format!("{}/c/", server.base)) && link.contains('#'),
            "{link}"
        );
    }
    let listed = wait_for(
        &c,
        "the campaign in the list",
        "const r = document.querySelector('#campaigns tr[data-campaign] a'); return r ? [r.innerText, r.getAttribute('href')] : null;",
    )
    .await;
    assert_eq!(listed[0], json!("Goblin Summer"));
    let gm_link = links[0].1.clone();
    let (campaign_id, gm_token) = gm_link
        .rsplit_once("/c/")
        .and_then(|(_, rest)| rest.split_once('#'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .expect("an id and a token");
    assert_labelled(&c).await;

    // The GM's campaign page; a new character from its link, for John.
    c.goto(&gm_link).await.expect("the campaign page");
    wait_page(&c).await;
    assert_eq!(shown_characters(&c).await, Vec::<String>::new());
    let href = js(
        &c,
        "return document.getElementById('new-character').getAttribute('href');",
    )
    .await;
    assert_eq!(
        href,
        json!(format!("/new/tiers?campaign={campaign_id}#{gm_token}"))
    );
    click(&c, "#new-character").await;
    wait_for(
        &c,
        "the campaign's seats to choose the owner",
        "return !document.getElementById('owner-field').hidden && !!document.querySelector('#owner option[value=\"John\"]');",
    )
    .await;
    let sheet = build_tiers_character(&c, "John").await;
    assert!(sheet.contains("name = \"John\""), "{sheet}");
    c.find(Locator::Id("owner"))
        .await
        .expect("the owner list")
        .select_by_value("John")
        .await
        .expect("John is a seat");
    click(&c, "#add-to-campaign").await;
    let added = wait_for(
        &c,
        "the character to join the campaign",
        "const r = document.querySelector('#added [data-kind]'); return r ? [r.dataset.kind, r.innerText] : null;",
    )
    .await;
    assert_eq!(added[0], json!("ok"), "{added}");
    click(&c, "#added a").await;
    wait_page(&c).await;
    assert_eq!(shown_characters(&c).await, ["John"]);
    assert_eq!(history_kinds(&c, "John").await, ["created"]);

    // Cristy's sheet imported for Cristy (a file upload).
    c.find(Locator::Id("import-owner"))
        .await
        .expect("the owner list")
        .select_by_value("Cristy")
        .await
        .expect("Cristy is a seat");
    type_into(&c, "import-file", &example("cristy.toml")).await;
    click(&c, "#import-add").await;
    let imported = wait_for(
        &c,
        "the import",
        "const r = document.querySelector('#import-result [data-kind]'); return r ? [r.dataset.kind, r.innerText] : null;",
    )
    .await;
    assert_eq!(imported[0], json!("ok"), "{imported}");
    wait_for(
        &c,
        "Cristy on the page",
        "return !!document.querySelector('#characters .character[data-name=\"Cristy\"]');",
    )
    .await;

    // The GM opens a table of the campaign's characters, Steve as an NPC,
    // in Foundry's dice notation (issue 30, item 3).
    type_into(&c, "table-file", &example("table.toml")).await;
    type_into(&c, "npc-files", &example("steve.toml")).await;
    c.find(Locator::Id("dice-dialect"))
        .await
        .expect("the dice notation list")
        .select_by_value("foundry")
        .await
        .expect("Foundry is offered");
    click(&c, "#open-table").await;
    let opened = wait_for(
        &c,
        "the opened table",
        "const e = document.getElementById('open-error').innerText; if (e) return ['error', e]; const a = document.getElementById('open-as-me'); return a ? ['ok', a.getAttribute('href')] : null;",
    )
    .await;
    assert_eq!(opened[0], json!("ok"), "{opened}");
    let table_href = opened[1].as_str().unwrap_or_default().to_string();
    assert!(
        table_href.starts_with("/t/") && table_href.ends_with(&format!("#{gm_token}")),
        "the table link carries the GM's own campaign token: {table_href}"
    );
    wait_for(
        &c,
        "the table in the campaign's list, in play",
        "return !!document.querySelector('#tables li[data-table][data-ended=\"false\"]');",
    )
    .await;
    assert_labelled(&c).await;
    screenshot(&c, "campaign-gm-1280").await;

    // The table page: the GM ends the encounter; what was written is shown.
    click(&c, "#open-as-me").await;
    wait_ready(&c).await;
    wait_for(
        &c,
        "the campaign's GM controls",
        "return !document.getElementById('campaign-gm').hidden;",
    )
    .await;
    let notation = js(
        &c,
        "return document.getElementById('roll-dialect').innerText;",
    )
    .await;
    assert_eq!(notation, json!(" (Foundry VTT notation)"), "{notation}");
    // One end button at a campaign table: the book's own end command is not
    // shown beside "End encounter and write back" (issue 27, bug 15).
    let book_end_hidden = js(
        &c,
        "return document.getElementById('end-encounter').hidden;",
    )
    .await;
    assert_eq!(book_end_hidden, json!(true), "one end button");
    click(&c, "#end-campaign").await;
    let ended = wait_for(
        &c,
        "the encounter's end",
        "const r = document.querySelector('#ended [data-kind]'); return r ? [r.dataset.kind, r.innerText] : null;",
    )
    .await;
    assert_eq!(ended[0], json!("ok"), "{ended}");
    let ended_text = ended[1].as_str().unwrap_or_default();
    assert!(
        ended_text.contains("John") && ended_text.contains("Cristy"),
        "{ended_text}"
    );
    // Each change is said once (issue 27, bug 15: the summary repeated the list).
    for line in ended_text.lines().filter(|l| l.contains("->")) {
        assert_eq!(
            ended_text.matches(line.trim()).count(),
            1,
            "said twice: {line:?} in {ended_text}"
        );
    }
    // The page hears the end live: a notice, and the actions take no input.
    let banner = wait_for(
        &c,
        "the ended notice",
        "const b = document.getElementById('ended-banner'); return b.hidden ? null : [b.innerText, document.getElementById('actions').inert];",
    )
    .await;
    assert!(
        banner[0].as_str().unwrap_or_default().contains("ended"),
        "{banner}"
    );
    assert_eq!(banner[1], json!(true), "the actions are inert: {banner}");
    screenshot(&c, "table-campaign-gm-1280").await;
    // Ending again writes nothing more.
    click(&c, "#end-campaign").await;
    wait_for(
        &c,
        "the second end",
        "const r = document.querySelector('#ended [data-kind]'); return r && r.dataset.kind === 'already';",
    )
    .await;

    // Back on the campaign page: the encounter is in John's history.
    click(&c, "#campaign-back").await;
    wait_page(&c).await;
    assert_eq!(history_kinds(&c, "John").await, ["created", "encounter"]);
    wait_for(
        &c,
        "the table ended",
        "return !!document.querySelector('#tables li[data-table][data-ended=\"true\"]');",
    )
    .await;

    // Advancement: the GM's level-up, then placing more SP than it gave is
    // refused with its rule and changes nothing.
    let (kind, text) = advance(&c, "John", "level-up", "").await;
    assert_eq!(kind, "ok", "{text}");
    assert!(text.contains("level 2"), "{text}");
    assert_eq!(
        history_kinds(&c, "John").await,
        ["created", "encounter", "advanced"]
    );
    let (kind, text) = advance(&c, "John", "increase", "Strength 9").await;
    assert_eq!(kind, "error", "{text}");
    assert!(
        text.contains("Refused") && text.contains("Rule: Tiers, \""),
        "the refusal cites the rule: {text}"
    );
    assert_eq!(
        history_kinds(&c, "John").await,
        ["created", "encounter", "advanced"],
        "a refusal changes nothing"
    );
    let (kind, text) = advance(&c, "John", "increase", "Skill 4").await;
    assert_eq!(kind, "ok", "{text}");
    // The export link is the sheet as TOML, named by its file.
    let export = js(
        &c,
        "const a = document.querySelector('#characters .character[data-name=\"John\"] a.export'); return [a.getAttribute('href'), a.getAttribute('download')];",
    )
    .await;
    assert!(
        export[0].as_str().unwrap_or_default().starts_with("blob:"),
        "{export}"
    );
    assert_eq!(export[1], json!("john.toml"));
    let (status, shown) = server
        .api(
            Method::GET,
            &format!("/api/campaigns/{campaign_id}"),
            Some(&gm_token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    let john = shown["characters"]
        .as_array()
        .and_then(|a| a.iter().find(|ch| ch["name"] == json!("John")))
        .cloned()
        .expect("John");
    assert!(
        john["sheet"]
            .as_str()
            .unwrap_or_default()
            .contains("skill = [6, 1]"),
        "{john}"
    );
    assert_fits(&c, 390).await;
    screenshot(&c, "campaign-gm-390").await;

    // The GM edits John's sheet in the builder (a new weapon) and saves it
    // back: an `edited` event with the change.
    click(&c, "#characters .character[data-name=\"John\"] a.edit").await;
    wait_for(
        &c,
        "John's sheet in the builder",
        "return document.body.dataset.editing && document.body.dataset.ready === 'true' ? true : null;",
    )
    .await;
    assert_eq!(field_value(&c, "name").await, "John");
    fill(&c, "weapon", "Goblin axe").await;
    click(&c, "#finish").await;
    click(&c, "#add-to-campaign").await;
    let saved = wait_for(
        &c,
        "the edit saved",
        "const r = document.querySelector('#added [data-kind]'); return r ? [r.dataset.kind, r.innerText] : null;",
    )
    .await;
    assert_eq!(saved[0], json!("ok"), "{saved}");
    assert!(
        saved[1].as_str().unwrap_or_default().contains("Goblin axe"),
        "{saved}"
    );
    click(&c, "#added a").await;
    wait_page(&c).await;
    assert_eq!(
        history_kinds(&c, "John").await,
        ["created", "encounter", "advanced", "advanced", "edited"]
    );

    // A lost link: the GM gives Cristy a new one from the seats list. Her old
    // token opens nothing any more; the new link shown does.
    let cristy_old = links[2]
        .1
        .rsplit_once('#')
        .map(|(_, t)| t.to_string())
        .expect("Cristy's token");
    js(&c, "window.confirm = () => true; return true;").await;
    click(&c, "#seats button.reissue[data-seat=\"Cristy\"]").await;
    let reissued = wait_for(
        &c,
        "Cristy's new link",
        "const r = document.querySelector('#reissued [data-kind]'); return r ? [r.dataset.kind, r.innerText, (r.querySelector('input.link') || {}).value || ''] : null;",
    )
    .await;
    assert_eq!(reissued[0], json!("ok"), "{reissued}");
    let new_link = reissued[2].as_str().unwrap_or_default().to_string();
    let cristy_new = new_link
        .rsplit_once('#')
        .map(|(_, t)| t.to_string())
        .expect("a token in the new link");
    assert_ne!(cristy_new, cristy_old);
    let campaign_route = format!("/api/campaigns/{campaign_id}");
    let (status, _) = server
        .api(Method::GET, &campaign_route, Some(&cristy_old), None)
        .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the old link opens nothing"
    );
    let (status, seen) = server
        .api(Method::GET, &campaign_route, Some(&cristy_new), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{seen}");
    assert_eq!(seen["seat"], json!("Cristy"));
    let _ = c.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_a_players_campaign_page_shows_only_its_own() {
    let Some((mut driver, _one)) = browser("browser_a_players_campaign_page").await else {
        return;
    };
    let server = Server::start().await;
    let (status, made) = server
        .api(
            Method::POST,
            "/api/campaigns",
            None,
            Some(json!({"system": "tiers", "name": "Two players", "players": ["John", "Cristy"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["campaign"].as_str().expect("an id").to_string();
    let token = |seat: &str| {
        made["seats"]
            .as_array()
            .and_then(|a| a.iter().find(|s| s["seat"] == json!(seat)))
            .and_then(|s| s["token"].as_str())
            .expect("a token")
            .to_string()
    };
    for (seat, file) in [("John", "john.toml"), ("Cristy", "cristy.toml")] {
        let (status, v) = server
            .api(
                Method::POST,
                &format!("/api/campaigns/{id}/characters"),
                Some(&token(seat)),
                Some(json!({"sheet": example_text(file), "imported": true})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{seat}: {v}");
    }
    let c = driver.session(390, 844).await;
    c.goto(&format!("{}/c/{id}#{}", server.base, token("John")))
        .await
        .expect("John's campaign page");
    wait_page(&c).await;
    assert_eq!(shown_characters(&c).await, ["John"]);
    assert_eq!(history_kinds(&c, "John").await, ["imported"]);
    let seats = js(
        &c,
        "return [...document.querySelectorAll('#seats li')].map(l => l.dataset.seat);",
    )
    .await;
    assert_eq!(seats, json!(["gm", "John", "Cristy"]));
    assert_eq!(
        js(&c, "return document.getElementById('gm').hidden;").await,
        json!(true),
        "a player does not open tables"
    );
    // The GM's command is offered but refused for a player, with its rule.
    let (kind, text) = advance(&c, "John", "level-up", "").await;
    assert_eq!(kind, "error", "{text}");
    assert!(text.contains("GM") && text.contains("Rule: "), "{text}");
    let (seen, dom) = seen_and_dom(&c).await;
    for other in ["gm", "Cristy"] {
        let t = token(other);
        assert!(
            !seen.contains(&t) && !dom.contains(&t),
            "{other}'s token reached John's page"
        );
    }
    assert!(
        !seen.contains("Twin daggers") && !dom.contains("Twin daggers"),
        "Cristy's sheet reached John's page"
    );
    assert_labelled(&c).await;
    assert_fits(&c, 390).await;
    screenshot(&c, "campaign-player-390").await;
    // Without the token, or with a wrong one, the page says what to do.
    for (link, says) in [
        (
            format!("{}/c/{id}", server.base),
            "needs your seat's campaign link",
        ),
        (
            format!("{}/c/{id}#{}", server.base, "0".repeat(32)),
            "not valid",
        ),
    ] {
        js(&c, "sessionStorage.clear(); return true;").await;
        c.goto(&link).await.expect("the page loads");
        let text = wait_for(
            &c,
            "the page to explain",
            "const f = document.getElementById('fatal'); return f.hidden ? '' : f.innerText;",
        )
        .await;
        assert!(
            text.as_str().unwrap_or_default().contains(says),
            "{link}: {text}"
        );
    }
    let _ = c.close().await;
}

/// The histories the page fetched (`GET .../characters/CID`), by character id.
async fn fetched_histories(c: &Client) -> Vec<String> {
    js_strings(
        c,
        "return (window.__seen || []).map(s => /^fetch \\/api\\/campaigns\\/[0-9a-f]+\\/characters\\/([0-9a-f]{32}) /.exec(s)).filter(m => m).map(m => m[1]);",
    )
    .await
}

/// Issue 28, item 4: a campaign of 53 characters shows the first page of 50
/// (and fetches only their histories), "More characters" shows the rest, a
/// reload after an advancement keeps every character shown, and a player's
/// page of its own few has no such button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_a_campaign_page_shows_its_characters_a_page_at_a_time() {
    let Some((mut driver, _one)) = browser("browser_a_campaign_page_shows_its_characters").await
    else {
        return;
    };
    let server = Server::start().await;
    let (status, made) = server
        .api(
            Method::POST,
            "/api/campaigns",
            None,
            Some(json!({"system": "tiers", "name": "A crowd", "players": ["John"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["campaign"].as_str().expect("an id").to_string();
    let token = |seat: &str| {
        made["seats"]
            .as_array()
            .and_then(|a| a.iter().find(|s| s["seat"] == json!(seat)))
            .and_then(|s| s["token"].as_str())
            .expect("a token")
            .to_string()
    };
    let john = example_text("john.toml");
    let mut ids = Vec::new();
    for i in 0..53 {
        let name = format!("Hero {i:02}");
        let owner = if i % 10 == 0 { "John" } else { "gm" };
        let (status, v) = server
            .api(
                Method::POST,
                &format!("/api/campaigns/{id}/characters"),
                Some(&token("gm")),
                Some(json!({
                    "sheet": john.replace("name = \"John\"", &format!("name = {name:?}")),
                    "owner": owner,
                })),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{name}: {v}");
        ids.push(v["id"].as_str().expect("an id").to_string());
    }
    let names = |range: std::ops::Range<usize>| -> Vec<String> {
        range.map(|i| format!("Hero {i:02}")).collect()
    };

    let c = driver.session(390, 844).await;
    c.goto(&format!("{}/c/{id}#{}", server.base, token("gm")))
        .await
        .expect("the GM's campaign page");
    wait_page(&c).await;
    assert_eq!(shown_characters(&c).await, names(0..50));
    let mut fetched = fetched_histories(&c).await;
    fetched.sort();
    let mut first_page = ids[..50].to_vec();
    first_page.sort();
    assert_eq!(fetched, first_page, "only the shown characters' histories");
    let count = js(
        &c,
        "const b = document.getElementById('characters-more'); return [b.hidden, document.getElementById('characters-count').innerText];",
    )
    .await;
    assert_eq!(count, json!([false, "Showing 50 of 53 characters."]));
    assert_labelled(&c).await;
    assert_fits(&c, 390).await;
    // The foot of the list (the page itself is 50 characters long), on a
    // phone and on a laptop.
    for width in [390, 1280] {
        set_viewport(&c, width, 844).await;
        js(
            &c,
            "document.getElementById('characters-more').scrollIntoView({block: 'center'}); return true;",
        )
        .await;
        let png = c.screenshot().await.expect("a screenshot");
        let path = save_screenshot(&format!("campaign-more-characters-{width}"), &png);
        eprintln!("screenshot: {}", path.display());
    }
    set_viewport(&c, 390, 844).await;

    // The next page: the last three, their histories fetched, the button gone.
    let loads = body_number(&c, "loads").await;
    click(&c, "#more-characters").await;
    until("the next page", || async {
        (body_number(&c, "loads").await > loads).then_some(())
    })
    .await;
    assert_eq!(shown_characters(&c).await, names(0..53));
    assert_eq!(history_kinds(&c, "Hero 52").await, ["created"]);
    let fetched = fetched_histories(&c).await;
    assert_eq!(fetched.len(), 53, "each history once: {fetched:?}");
    assert_eq!(
        js(
            &c,
            "return document.getElementById('characters-more').hidden;"
        )
        .await,
        json!(true)
    );

    // An advancement reloads the campaign: every character stays shown.
    let (kind, text) = advance(&c, "Hero 51", "level-up", "").await;
    assert_eq!(kind, "ok", "{text}");
    assert_eq!(shown_characters(&c).await, names(0..53));
    assert_eq!(history_kinds(&c, "Hero 51").await, ["created", "advanced"]);

    // John's page: his six characters, no "More characters".
    let p = driver.session(390, 844).await;
    p.goto(&format!("{}/c/{id}#{}", server.base, token("John")))
        .await
        .expect("John's campaign page");
    wait_page(&p).await;
    let johns: Vec<String> = (0..53)
        .filter(|i| i % 10 == 0)
        .map(|i| format!("Hero {i:02}"))
        .collect();
    assert_eq!(shown_characters(&p).await, johns);
    assert_eq!(
        js(
            &p,
            "return document.getElementById('characters-more').hidden;"
        )
        .await,
        json!(true)
    );
    let _ = p.close().await;
    let _ = c.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_every_books_builder_draws_its_steps_with_labelled_controls() {
    let Some((mut driver, _one)) = browser("browser_every_books_builder").await else {
        return;
    };
    let server = Server::start().await;
    let c = driver.session(390, 844).await;
    for system in ["sour-grapes", "scratch", "tiers", "bastards", "sapio"] {
        c.goto(&format!("{}/new/{system}", server.base))
            .await
            .expect("the builder");
        wait_page(&c).await;
        let (status, v) = server
            .api(
                Method::GET,
                &format!("/api/systems/{system}/builder"),
                None,
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let steps = v["view"]["steps"].as_array().map_or(0, Vec::len);
        let fields: usize = v["view"]["steps"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|s| s["fields"].as_array().map_or(0, Vec::len))
                    .sum()
            })
            .unwrap_or(0);
        let drawn = js(
            &c,
            "return [document.querySelectorAll('#steps section.step').length, document.querySelectorAll('#steps .bfield').length];",
        )
        .await;
        assert_eq!(
            drawn,
            json!([steps, fields]),
            "{system}: a section per step, a control per field"
        );
        assert_eq!(
            js(&c, "return document.getElementById('fatal').hidden;").await,
            json!(true),
            "{system}"
        );
        assert_labelled(&c).await;
        assert_fits(&c, 390).await;
    }
    // An unknown book says so.
    c.goto(&format!("{}/new/no-such-book", server.base))
        .await
        .expect("the builder");
    let text = wait_for(
        &c,
        "the page to explain",
        "const f = document.getElementById('fatal'); return f.hidden ? '' : f.innerText;",
    )
    .await;
    assert!(
        text.as_str().unwrap_or_default().contains("cannot start"),
        "{text}"
    );
    let _ = c.close().await;
}

/// What the page shows of each of the builder's fields, in the page's order:
/// `{key, kind: int|choice|text|multi, value, required, refused, problem,
/// min, max, options}` (a field "shows a problem" when a problem of the
/// list names it, its part or its whole).
const READ_FIELDS: &str = r"
const blocks = [...document.querySelectorAll('#steps .bfield')];
const keys = blocks.map(b => b.dataset.key);
// The field a problem names: its own, else the first of its parts, else
// the nearest whole it is a part of.
const named = new Set();
for (const li of document.querySelectorAll('#problem-list li')) {
  const p = li.dataset.field || '';
  if (!p) continue;
  const whole = keys.filter(k => p.startsWith(k + '.')).sort((a, b) => b.length - a.length)[0];
  const key = keys.find(k => k === p) || keys.find(k => k.startsWith(p + '.')) || whole;
  if (key) named.add(key);
}
const num = (t) => (t === null || t === '' ? null : Number(t));
return blocks.map(b => {
  const key = b.dataset.key;
  const refused = b.classList.contains('refused');
  const problem = named.has(key);
  const set = b.querySelector('fieldset.multi');
  if (set) {
    const boxes = [...set.querySelectorAll('input[type=checkbox]')];
    const m = /\((\d+)\u2013(\d+)\)/.exec(set.querySelector('legend').textContent);
    return { key, kind: 'multi', refused, problem, required: false,
      value: boxes.filter(x => x.checked).map(x => x.value), options: boxes.map(x => x.value),
      min: m ? Number(m[1]) : 0, max: m ? Number(m[2]) : boxes.length };
  }
  const e = b.querySelector('input, select');
  const kind = e.tagName === 'SELECT' ? 'choice' : e.type === 'number' ? 'int' : 'text';
  return { key, kind, refused, problem, required: e.required, value: e.value,
    options: kind === 'choice' ? [...e.options].map(o => o.value).filter(v => v !== '') : [],
    min: num(e.getAttribute('min')), max: num(e.getAttribute('max')) };
});";

/// What the page shows is wrong: its problem list, its refusals, and a
/// refusal to finish.
async fn visible_problems(c: &Client) -> String {
    js(
        c,
        "const parts = [document.getElementById('problems').innerText, document.getElementById('refusal-general').innerText, \
           ...[...document.querySelectorAll('#steps .refusal')].map(r => r.innerText), document.getElementById('finish-error').innerText]; \
         return parts.map(t => (t || '').trim()).filter(Boolean).join('\\n');",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// A CSS attribute value in double quotes.
fn css_quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The short words a newcomer types into text fields, a different one for
/// each field (a name first).
const WORDS: [&str; 16] = [
    "Newcomer", "Nova", "Kit", "Ash", "Bree", "Cole", "Dune", "Elm", "Fern", "Gale", "Hale", "Ivy",
    "Jade", "Knot", "Lark", "Moss",
];

/// The answers a newcomer gives a single field, in order: a number input's
/// largest number first (then the next lower ones), a list's options in
/// order, a short word not `typed` anywhere yet for text.
fn newcomer_answers(field: &Value, typed: &std::collections::HashSet<String>) -> Vec<String> {
    match field["kind"].as_str().unwrap_or_default() {
        "int" => {
            let min = field["min"].as_i64().unwrap_or(0);
            let max = field["max"].as_i64().unwrap_or(min + 10);
            (min..=max).rev().map(|n| n.to_string()).collect()
        }
        "choice" => field["options"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|o| o.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default(),
        _ => WORDS
            .iter()
            .filter(|w| !typed.contains(**w))
            .map(|w| (*w).to_string())
            .collect(),
    }
}

/// Build a character of `system` on the builder page as a newcomer does,
/// with the page's controls only: in the page's order, the first field
/// without a value (or showing a problem or a refusal) gets the newcomer's
/// answer, until no field asks for one; then Finish. Answers the finished
/// sheet and the number of answers given.
async fn build_as_a_newcomer(c: &Client, system: &str) -> (String, usize) {
    use std::collections::{HashMap, HashSet};

    wait_page(c).await;
    // How far down each field's answers the newcomer is; the options of a
    // multi field already ticked once; the fields given up on.
    let mut tried: HashMap<String, usize> = HashMap::new();
    let mut ticked: HashMap<String, HashSet<String>> = HashMap::new();
    let mut given_up: HashSet<String> = HashSet::new();
    let mut typed: HashSet<String> = HashSet::new();
    let mut log: Vec<String> = Vec::new();
    let mut answers = 0_usize;
    let mut last = String::from("(no answer yet)");
    let context = |log: &[String], answers: usize, last: &str, problems: &str| {
        let recent = log[log.len().saturating_sub(12)..].join("\n  ");
        format!(
            "{system}: after {answers} answers, the last {last}\n  recent answers:\n  {recent}\n  the page's problems:\n{problems}"
        )
    };
    loop {
        builder_idle(c).await;
        assert!(
            answers < 300,
            "{}",
            context(&log, answers, &last, &visible_problems(c).await)
        );
        let fields = js(c, READ_FIELDS).await;
        let fields = fields.as_array().cloned().unwrap_or_default();
        let needs = |f: &Value| {
            let key = f["key"].as_str().unwrap_or_default();
            if given_up.contains(key) {
                return false;
            }
            if f["refused"] == json!(true) || f["problem"] == json!(true) {
                return true;
            }
            match f["kind"].as_str().unwrap_or_default() {
                "multi" => {
                    let picked = f["value"].as_array().map_or(0, Vec::len);
                    picked < usize::try_from(f["min"].as_u64().unwrap_or(0)).unwrap_or(0)
                }
                "text" => f["required"] == json!(true) && f["value"] == json!(""),
                _ => f["value"] == json!(""),
            }
        };
        let Some(field) = fields.iter().find(|f| needs(f)) else {
            break;
        };
        let key = field["key"].as_str().unwrap_or_default().to_string();
        let quoted = css_quoted(&key);
        if field["kind"] == json!("multi") {
            // Tick the next option not ticked before (the fewest the field
            // asks for, one at a time; a refused one is not ticked again).
            let picked: Vec<String> = field["value"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            let done = ticked.entry(key.clone()).or_default();
            let next = field["options"].as_array().and_then(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .find(|o| !done.contains(*o) && !picked.iter().any(|p| p == o))
                    .map(String::from)
            });
            let Some(option) = next else {
                given_up.insert(key.clone());
                log.push(format!("{key}: no option left to tick (given up)"));
                continue;
            };
            done.insert(option.clone());
            last = format!("answer: {key} ticked {option:?}");
            click(
                c,
                &format!(
                    "#steps input[type=checkbox][data-key={quoted}][value={}]",
                    css_quoted(&option)
                ),
            )
            .await;
        } else {
            let choices = newcomer_answers(field, &typed);
            let current = field["value"].as_str().unwrap_or_default().to_string();
            let at = tried.entry(key.clone()).or_insert(0);
            if field["kind"] == json!("text") {
                // A word typed once is not typed again.
                *at = 0;
            }
            while *at < choices.len() && choices[*at] == current {
                *at += 1;
            }
            let Some(answer) = choices.get(*at).cloned() else {
                given_up.insert(key.clone());
                log.push(format!("{key}: no answer left (given up)"));
                continue;
            };
            *at += 1;
            if field["kind"] == json!("text") {
                typed.insert(answer.clone());
            }
            last = format!("answer: {key} = {answer:?}");
            if field["kind"] == json!("choice") {
                c.find(Locator::Css(&format!("#steps select[data-key={quoted}]")))
                    .await
                    .unwrap_or_else(|e| panic!("{system}: the list {key}: {e}"))
                    .select_by_value(&answer)
                    .await
                    .unwrap_or_else(|e| panic!("{system}: {key} offers {answer}: {e}"));
            } else {
                fill(c, &key, &answer).await;
            }
        }
        answers += 1;
        builder_idle(c).await;
        let refused = js(
            c,
            &format!("const r = document.querySelector('.bfield.refused[data-key={}] .refusal'); const g = document.getElementById('refusal-general').innerText; return r ? r.innerText : g;", quoted.replace('\'', "\\'")),
        )
        .await;
        let refused = refused.as_str().unwrap_or_default().trim().to_string();
        log.push(if refused.is_empty() {
            last.clone()
        } else {
            format!("{last} -> {refused}")
        });
    }
    for line in &log {
        eprintln!("{system}: {line}");
    }
    let enabled = js(c, "return !document.getElementById('finish').disabled;").await;
    assert_eq!(
        enabled,
        json!(true),
        "Finish is not enabled: {}",
        context(&log, answers, &last, &visible_problems(c).await)
    );
    click(c, "#finish").await;
    let sheet = until(&format!("{system}: the finished sheet"), || async {
        let v = js(
            c,
            "const f = document.getElementById('finished'); const e = document.getElementById('finish-error').innerText; \
             return !f.hidden ? ['sheet', document.getElementById('sheet-text').textContent] : e ? ['error', e] : null;",
        )
        .await;
        (!v.is_null()).then_some(v)
    })
    .await;
    assert_eq!(
        sheet[0],
        json!("sheet"),
        "{}",
        context(&log, answers, &last, &visible_problems(c).await)
    );
    (sheet[1].as_str().unwrap_or_default().to_string(), answers)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_a_newcomer_finishes_a_legal_character_in_every_book() {
    let Some((mut driver, _one)) = browser("browser_a_newcomer_finishes").await else {
        return;
    };
    let server = Server::start().await;
    let c = driver.session(1280, 900).await;
    for system in ["sour-grapes", "scratch", "tiers", "bastards", "sapio"] {
        c.goto(&format!("{}/new/{system}", server.base))
            .await
            .expect("the builder");
        let (sheet, answers) = build_as_a_newcomer(&c, system).await;
        eprintln!("{system}: finished after {answers} answers");
        let (status, v) = server
            .api(
                Method::POST,
                &format!("/api/systems/{system}/sheets/validate"),
                None,
                Some(json!({ "sheet": sheet })),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{system}: {v}");
        assert_eq!(
            v["valid"],
            json!(true),
            "{system}: the finished sheet validates: {v}\n{sheet}"
        );
        assert_eq!(v["name"], json!("Newcomer"), "{system}: {v}");
    }
    let _ = c.close().await;
}

/// Issue 29, item 14: the GM's edit that adds a Disadvantage after creation
/// (A Game of Bastards, "Points & Costs") is saved, and the campaign page's
/// history shows the rule it steps past under the `edited` event; no
/// character is marked as needing an edit (the sheet is legal).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_campaign_page_shows_the_rule_an_edit_steps_past() {
    let Some((mut driver, _one)) = browser("browser_campaign_steps_past").await else {
        return;
    };
    let server = Server::start().await;
    let (status, made) = server
        .api(
            Method::POST,
            "/api/campaigns",
            None,
            Some(json!({"system": "bastards", "name": "Bastards", "players": ["Ana"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["campaign"].as_str().expect("id").to_string();
    let gm = made["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == "gm")
        .and_then(|s| s["token"].as_str())
        .expect("the GM's token")
        .to_string();
    let kodos = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bastards/kodos.toml"),
    )
    .expect("kodos");
    let (status, added) = server
        .api(
            Method::POST,
            &format!("/api/campaigns/{id}/characters"),
            Some(&gm),
            Some(json!({"sheet": kodos, "file": "kodos.toml", "imported": true})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{added}");
    let kid = added["id"].as_str().expect("id").to_string();
    let edited = kodos.replace(
        "disadvantages = [\"Intense: puts people off\"]",
        "disadvantages = [\"Intense: puts people off\", \"Greedy\"]",
    );
    let (status, answer) = server
        .api(
            Method::PUT,
            &format!("/api/campaigns/{id}/characters/{kid}/sheet"),
            Some(&gm),
            Some(json!({ "sheet": edited })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let c = driver.session(1280, 900).await;
    c.goto(&format!("{}/c/{id}#{gm}", server.base))
        .await
        .expect("the campaign page");
    let shown = wait_for(
        &c,
        "the rule the edit steps past",
        "const n = document.querySelector('#characters .character[data-name=\"Kodos\"] ol.history li[data-kind=\"edited\"] .steps-past'); return n ? n.innerText : null;",
    )
    .await;
    let text = shown.as_str().unwrap_or_default();
    assert!(text.contains("Greedy"), "{text}");
    assert!(text.contains("Points & Costs"), "{text}");
    let marked = js(
        &c,
        "return document.querySelectorAll('#characters .needs-edit').length;",
    )
    .await;
    assert_eq!(marked, json!(0), "a legal sheet needs no edit");
}

/// R-SCR-9 in the lobby: the "New campaign" form shows a setting's rules
/// field for Scratch RPS only, and a campaign made with it carries them (the
/// book's Breakhelm X-19 then joins it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_r_scr_9_a_scratch_campaign_is_made_with_its_settings_rules() {
    let Some((mut driver, _one)) = browser("browser_scratch_campaign_settings").await else {
        return;
    };
    let server = Server::start().await;
    let c = driver.session(1280, 900).await;
    c.goto(&format!("{}/", server.base))
        .await
        .expect("the lobby");
    wait_for(
        &c,
        "the campaigns list",
        "return document.getElementById('campaigns').getAttribute('aria-busy') === 'false';",
    )
    .await;
    let hidden = "return document.getElementById('campaign-settings-field').hidden;";
    assert_eq!(js(&c, hidden).await, json!(true), "hidden for Tiers");
    c.find(Locator::Id("campaign-system"))
        .await
        .expect("the system list")
        .select_by_value("scratch")
        .await
        .expect("Scratch RPS is offered");
    assert_eq!(js(&c, hidden).await, json!(false), "shown for Scratch RPS");
    type_into(&c, "campaign-name", "Outlaws").await;
    type_into(&c, "campaign-settings", "[rules]\ncp = 14\nmax_level = 8\n").await;
    assert_labelled(&c).await;
    click(&c, "#create-campaign").await;
    let links = created_campaign_links(&c, 1).await;
    let (id, gm) = links[0]
        .1
        .rsplit_once("/c/")
        .and_then(|(_, rest)| rest.split_once('#'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .expect("an id and a token");
    let (status, shown) = server
        .api(
            Method::GET,
            &format!("/api/campaigns/{id}"),
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    let settings = shown["settings"].as_str().unwrap_or_default();
    assert!(
        settings.contains("cp = 14") && settings.contains("max_level = 8"),
        "{shown}"
    );
    let breakhelm = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scratch/breakhelm-x-19.toml"),
    )
    .expect("the example");
    let (status, added) = server
        .api(
            Method::POST,
            &format!("/api/campaigns/{id}/characters"),
            Some(&gm),
            Some(json!({"sheet": breakhelm, "imported": true})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{added}");
    let _ = c.close().await;
}
