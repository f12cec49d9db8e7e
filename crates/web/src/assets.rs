//! The files of `web/`, compiled into the binary.

/// One file of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asset {
    /// Its name under `web/` (and under `/assets/`), e.g. `table.js`.
    pub name: &'static str,
    /// Its content.
    pub bytes: &'static [u8],
}

impl Asset {
    /// The content type, from the file name's extension
    /// (`text/html; charset=utf-8`, `text/javascript; charset=utf-8`, ...).
    pub fn content_type(&self) -> &'static str {
        let ext = self.name.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "html" => "text/html; charset=utf-8",
            "css" => "text/css; charset=utf-8",
            "js" => "text/javascript; charset=utf-8",
            "svg" => "image/svg+xml",
            "json" => "application/json",
            "webmanifest" => "application/manifest+json",
            "png" => "image/png",
            "txt" | "md" => "text/plain; charset=utf-8",
            _ => "application/octet-stream",
        }
    }

    /// A strong entity tag of the content (`"` + 16 hex digits of its FNV-1a
    /// hash + `"`), so a browser revalidates cheaply.
    pub fn etag(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        format!("\"{h:016x}\"")
    }
}

macro_rules! files {
    ($($name:literal),* $(,)?) => {
        &[$(Asset { name: $name, bytes: include_bytes!(concat!("../../../web/", $name)) }),*]
    };
}

static ASSETS: &[Asset] = files![
    "index.html",
    "table.html",
    "style.css",
    "icon.svg",
    "api.js",
    "lobby.js",
    "table.js",
    "commands.js",
    "dom.js",
    "links.js",
    "sheets.js",
    "logtext.js",
    "new.html",
    "builder.js",
    "campaign.html",
    "campaign.js",
    "characters.js",
    "dice.js",
];

/// Every file of the page.
pub fn assets() -> &'static [Asset] {
    ASSETS
}

/// The file `name` (exactly as listed; no paths), if the page has it.
pub fn asset(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_web_is_embedded_and_nothing_else() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("web/ exists")
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = assets().iter().map(|a| a.name.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded, "list every file of web/ in assets.rs");
    }

    #[test]
    fn content_types_and_etags() {
        assert_eq!(
            asset("table.js").map(|a| a.content_type()),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(
            asset("index.html").map(|a| a.content_type()),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(
            asset("icon.svg").map(|a| a.content_type()),
            Some("image/svg+xml")
        );
        assert!(asset("../Cargo.toml").is_none());
        assert!(asset("").is_none());
        let a = asset("style.css").expect("style.css");
        assert_eq!(a.etag(), a.etag());
        assert_eq!(a.etag().len(), 18);
        assert_ne!(a.etag(), asset("table.js").expect("table.js").etag());
    }

    /// Issue 26, item 3: the page knows no book. Every title, end command
    /// and log symbol comes from `GET /api/systems`, every sheet from the
    /// book's SheetDoc; adding a book touches no file of `web/`.
    #[test]
    fn no_page_file_names_a_book() {
        let books = [
            "bastards",
            "sapio",
            "scratch",
            "tiers",
            "sour grapes",
            "sour-grapes",
        ];
        for a in ASSETS {
            if !(a.name.ends_with(".js") || a.name.ends_with(".html")) {
                continue;
            }
            let text = String::from_utf8_lossy(a.bytes).to_lowercase();
            for (n, line) in text.lines().enumerate() {
                for b in books {
                    assert!(
                        !line.contains(b),
                        "{}:{} names the book {b:?}: {line}",
                        a.name,
                        n + 1
                    );
                }
            }
        }
    }
}
