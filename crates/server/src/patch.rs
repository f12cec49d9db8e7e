//! What changed in a seat's view or sheets since a socket last got them, sent
//! as a patch instead of the whole text (issue 28, item 1: "updates that send
//! what changed in a seat's view rather than the whole view").
//!
//! A JSON text is cut into its top-level members (an object's members, an
//! array's elements), and each member whose value is itself an object or an
//! array into its own members: two levels, each piece with where it lies
//! in the text ([`Shape`]). A socket keeps a pointer
//! to the [`Shape`] (and so the text) it was last sent, shared with the
//! other sockets of its seat and made once per seat and state by
//! `Slot::seat_texts`: at most the seat's previous text stays alive for a
//! socket that has not been sent the newer one yet. The next update then
//! carries, for each piece whose text changed,
//! its path and its new value:
//!
//! ```json
//! "view_patch": [[["hand"], ["7 of Hearts", "Queen of Spades"]], [["characters", 2], {...}]]
//! ```
//!
//! A path is one or two keys: a member's name (a string) or an element's index
//! (a number). The page sets each value at its path, in order. The whole text
//! goes instead when the members are not the same names in the same order as
//! last time (a piece appeared or went away: a patch would need deletions),
//! when the text is not an object or array, or when the patch would be at
//! least half the size of the whole text.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use crate::state::Part;

/// A JSON text cut into its pieces two levels down, each with its place in
/// the text. Keeps the text (shared), so that the names of a
/// shape last sent can be compared with a new one's.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The JSON text.
    pub(crate) text: Arc<str>,
    /// The top-level members (object) or elements (array), in order; empty
    /// when the text is neither.
    members: Vec<Piece>,
}

/// One member of an object or element of an array.
#[derive(Debug, PartialEq, Eq)]
struct Piece {
    /// Where the member's name lies in the text, as JSON (quotes included);
    /// `None` for an element of an array (its key is its index).
    name: Option<Range<usize>>,
    /// Where the value lies in the text (bytes).
    range: Range<usize>,
    /// The value's own members or elements when it is an object or array;
    /// empty otherwise.
    children: Vec<Piece>,
}

impl Shape {
    /// The shape of `text`, a JSON text: its pieces when it is an object or
    /// array (two levels down), none otherwise (then it is only ever sent
    /// whole).
    pub(crate) fn of(text: Arc<str>) -> Shape {
        Shape {
            members: pieces(&text),
            text,
        }
    }

    /// The key of `piece` (one of this shape's), as JSON: the member's name
    /// with its quotes, or the element's index `index`.
    fn key(&self, piece: &Piece, index: usize) -> Cow<'_, str> {
        match &piece.name {
            Some(name) => Cow::Borrowed(&self.text[name.clone()]),
            None => Cow::Owned(index.to_string()),
        }
    }

    /// Whether the pieces `a` of `self` and `b` of `other` have the same
    /// keys in the same order.
    fn same_keys(&self, a: &[Piece], other: &Shape, b: &[Piece]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (&x.name, &y.name) {
                (Some(x), Some(y)) => self.text[x.clone()] == other.text[y.clone()],
                (None, None) => true,
                _ => false,
            })
    }
}

/// The members or elements of the JSON text `text`, each with its own when
/// it is an object or array; empty when `text` is neither, or is not well
/// formed (never for a text the server wrote with `serde_json`; then the text
/// is only sent whole).
///
/// One pass over the bytes for the structure only, strings skipped to their
/// next quote or backslash with `memchr`, values not decoded: `serde_json`'s
/// own reader, borrowing each value as a `RawValue`, validated every value and
/// took a tenth of the server's CPU under load (issue 28).
fn pieces(text: &str) -> Vec<Piece> {
    let b = text.as_bytes();
    let i = skip_space(b, 0);
    match container(b, i, true) {
        Some((pieces, end)) if skip_space(b, end) == b.len() => pieces,
        _ => Vec::new(),
    }
}

/// The members (object) or elements (array) of the JSON container starting
/// at byte `i` of `b`, each with its own when `deeper`, and the byte after
/// the container; `None` when there is no container at `i` or it is not
/// well formed.
fn container(b: &[u8], i: usize, deeper: bool) -> Option<(Vec<Piece>, usize)> {
    let (object, close) = match b.get(i)? {
        b'{' => (true, b'}'),
        b'[' => (false, b']'),
        _ => return None,
    };
    let mut i = skip_space(b, i + 1);
    let mut out = Vec::new();
    if b.get(i) == Some(&close) {
        return Some((out, i + 1));
    }
    loop {
        let name = if object {
            let end = string_end(b, i)?;
            let name = i..end;
            i = skip_space(b, end);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i = skip_space(b, i + 1);
            Some(name)
        } else {
            None
        };
        let (children, end) = match b.get(i)? {
            b'{' | b'[' if deeper => container(b, i, false)?,
            _ => (Vec::new(), value_end(b, i)?),
        };
        out.push(Piece {
            name,
            range: i..end,
            children,
        });
        i = skip_space(b, end);
        match b.get(i)? {
            b',' => i = skip_space(b, i + 1),
            c if *c == close => return Some((out, i + 1)),
            _ => return None,
        }
    }
}

/// The first byte at or after `i` that is not JSON white space.
fn skip_space(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Where the JSON string starting at `i` (its opening quote) ends: the byte
/// after its closing quote.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        j += memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[j] == b'"' {
            return Some(j + 1);
        }
        // A backslash and the character it escapes.
        j += 2;
    }
}

/// Where the JSON value starting at `i` ends (the byte after it).
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match b.get(j)? {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            // A number, true, false or null: up to the next delimiter.
            let mut j = i;
            while let Some(c) = b.get(j) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// What a socket sends of a view or sheets that changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Out {
    /// The whole text (`"view": {...}`).
    Whole(Part),
    /// The pieces that changed (`"view_patch": [[path, value], ...]`), as the
    /// JSON text of that list.
    Patch(String),
}

impl Out {
    /// The text this sends: the whole JSON text, or the patch's list.
    pub(crate) fn text(&self) -> &str {
        match self {
            Out::Whole(part) => part,
            Out::Patch(patch) => patch,
        }
    }

    /// The message's field for this under `name` (`view` or `sheets`):
    /// `name` itself for the whole text, `name_patch` for a patch.
    pub(crate) fn field(&self, name: &str) -> String {
        match self {
            Out::Whole(_) => name.to_string(),
            Out::Patch(_) => format!("{name}_patch"),
        }
    }
}

/// What to send of `new` to a socket that was last sent the text of shape
/// `last` (`None`: nothing yet): nothing when it did not change, a patch
/// when the pieces are the same names in the same order and the patch is
/// under half the whole text, else the whole text. The caller remembers
/// `new.shape` as sent when this returns something.
pub(crate) fn diff(last: Option<&Shape>, new: &Part) -> Option<Out> {
    let Some(last) = last else {
        return Some(Out::Whole(new.clone()));
    };
    let shape: &Shape = &new.shape;
    if last.text == shape.text {
        return None;
    }
    if shape.members.is_empty() || !last.same_keys(&last.members, shape, &shape.members) {
        return Some(Out::Whole(new.clone()));
    }
    let text: &str = &shape.text;
    let budget = text.len() / 2;
    let mut patch = String::from("[");
    let mut push = |path: &[&str], value: &str| {
        if patch.len() > 1 {
            patch.push(',');
        }
        patch.push_str("[[");
        patch.push_str(&path.join(","));
        patch.push_str("],");
        patch.push_str(value);
        patch.push(']');
        patch.len() < budget
    };
    for (index, (old, now)) in last.members.iter().zip(&shape.members).enumerate() {
        if last.text[old.range.clone()] == text[now.range.clone()] {
            continue;
        }
        let key = shape.key(now, index);
        let fits =
            if !now.children.is_empty() && last.same_keys(&old.children, shape, &now.children) {
                old.children
                    .iter()
                    .zip(&now.children)
                    .enumerate()
                    .filter(|(_, (o, n))| last.text[o.range.clone()] != text[n.range.clone()])
                    .all(|(i, (_, n))| push(&[&key, &shape.key(n, i)], &text[n.range.clone()]))
            } else {
                push(&[&key], &text[now.range.clone()])
            };
        if !fits {
            return Some(Out::Whole(new.clone()));
        }
    }
    patch.push(']');
    Some(Out::Patch(patch))
}

/// What one socket was last sent of a text: its shape, shared with the
/// other sockets of the seat (8 bytes per socket; the shape keeps the text).
pub(crate) type Last = Option<Arc<Shape>>;

/// `part` as it should go to a socket whose last text was `last` (updated
/// when something is sent); `None` when there is no part (the table refused
/// it: nothing sent, nothing forgotten) or it did not change.
pub(crate) fn take(last: &mut Last, part: Option<&Part>) -> Option<Out> {
    let part = part?;
    let out = diff(last.as_deref(), part)?;
    *last = Some(Arc::clone(&part.shape));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// `old` patched by `out` as the page does it (`web/table.js`, `patched`).
    fn apply(old: &Value, out: &Out) -> Value {
        match out {
            Out::Whole(part) => serde_json::from_str(part).unwrap(),
            Out::Patch(patch) => {
                let mut value = old.clone();
                let patch: Vec<(Vec<Value>, Value)> = serde_json::from_str(patch).unwrap();
                for (path, new) in patch {
                    let mut at = &mut value;
                    for key in &path {
                        at = match key {
                            Value::String(k) => at.get_mut(k.as_str()).unwrap(),
                            Value::Number(i) => at
                                .get_mut(usize::try_from(i.as_u64().unwrap()).unwrap())
                                .unwrap(),
                            other => panic!("a path key is a name or an index, not {other}"),
                        };
                    }
                    *at = new;
                }
                value
            }
        }
    }

    fn shape_of(text: impl AsRef<str>) -> Shape {
        Shape::of(Arc::from(text.as_ref()))
    }

    fn part(value: &Value) -> Part {
        Part::from(value.to_string().as_str())
    }

    #[test]
    fn a_changed_member_goes_alone_with_its_path() {
        let hand: Vec<String> = (0..20).map(|i| format!("card number {i}")).collect();
        let old = json!({"round": 1, "hand": hand, "seats": {"gm": "here", "ann": "away"}});
        let mut last: Last = None;
        assert!(matches!(
            take(&mut last, Some(&part(&old))),
            Some(Out::Whole(_))
        ));
        assert_eq!(
            take(&mut last, Some(&part(&old))),
            None,
            "unchanged: nothing"
        );
        let new = json!({"round": 2, "hand": hand, "seats": {"gm": "here", "ann": "here"}});
        let out = take(&mut last, Some(&part(&new))).unwrap();
        assert_eq!(
            out,
            Out::Patch(r#"[[["round"],2],[["seats","ann"],"here"]]"#.into())
        );
        assert_eq!(out.field("view"), "view_patch");
        assert_eq!(apply(&old, &out), new);
    }

    #[test]
    fn an_element_of_an_array_of_the_same_length_goes_by_index() {
        let sheet = |n: u32| json!({"name": format!("sheet {n}"), "lines": vec!["a long line of the sheet"; 6]});
        let old = json!({"table": [], "characters": [sheet(0), sheet(1), sheet(2)]});
        let new = json!({"table": [], "characters": [sheet(0), sheet(7), sheet(2)]});
        let last = shape_of(old.to_string());
        let out = diff(Some(&last), &part(&new)).unwrap();
        let Out::Patch(patch) = &out else {
            panic!("{out:?}")
        };
        assert!(patch.starts_with(r#"[[["characters",1],"#), "{patch}");
        assert_eq!(apply(&old, &out), new);
    }

    #[test]
    fn new_or_gone_members_or_a_big_change_send_the_whole_text() {
        let old = json!({"a": 1, "b": [1, 2, 3]});
        // A member appeared.
        let grown = json!({"a": 1, "b": [1, 2, 3], "c": 0});
        let last = shape_of(old.to_string());
        assert!(matches!(
            diff(Some(&last), &part(&grown)),
            Some(Out::Whole(_))
        ));
        // Everything changed: the patch would be bigger than half the text.
        let all = json!({"a": 2, "b": [4, 5, 6]});
        assert!(matches!(
            diff(Some(&last), &part(&all)),
            Some(Out::Whole(_))
        ));
        // An array that grew is sent whole at its own level when that is small.
        let long: Vec<u32> = (0..50).collect();
        let base = json!({"hand": [1, 2], "rest": long});
        let more = json!({"hand": [1, 2, 3], "rest": long});
        let out = diff(Some(&shape_of(base.to_string())), &part(&more)).unwrap();
        assert_eq!(out, Out::Patch(r#"[[["hand"],[1,2,3]]]"#.into()));
        assert_eq!(apply(&base, &out), more);
        // Not an object or array: whole.
        assert!(matches!(
            diff(Some(&shape_of("1")), &Part::from("2")),
            Some(Out::Whole(_))
        ));
    }

    #[test]
    fn text_that_is_not_well_formed_has_no_pieces() {
        for text in [
            "",
            "{",
            "[1,",
            "{\"a\" 1}",
            "{\"a\":1,}x",
            "{\"a\":1} x",
            "[1]]",
            "\"s",
            "{\"a\":\"x}",
        ] {
            assert!(shape_of(text).members.is_empty(), "{text}");
        }
        assert_eq!(shape_of(" [ 1 , {\"b\" : [ ] } ] ").members.len(), 2);
    }

    #[test]
    fn keys_with_quotes_and_unicode_keep_their_json_spelling() {
        let filler = "x".repeat(200);
        let old = json!({"say \"hi\"": 1, "é": 2, "filler": filler});
        let new = json!({"say \"hi\"": 3, "é": 2, "filler": filler});
        let out = diff(Some(&shape_of(old.to_string())), &part(&new)).unwrap();
        assert_eq!(apply(&old, &out), new);
    }

    /// Any JSON value: scalars, strings with quotes, escapes, brackets and
    /// non-ASCII letters, nested arrays and objects.
    fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let text = "[a-z\"\\\\{}\\[\\],: é\u{1F3B2}\n\t/]{0,8}";
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            // Quarters: exact in binary, so they read back equal.
            (-4_000_000i32..4_000_000).prop_map(|n| json!(f64::from(n) / 4.0)),
            text.prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map(text, inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// The scan finds exactly the members or elements `serde_json`
        /// reads, each value's text reading back as that value, two levels
        /// down; anything else has no pieces.
        #[test]
        fn the_scan_agrees_with_serde_json(value in any_json()) {
            let text = value.to_string();
            let shape = shape_of(&text);
            let expected: Vec<(Value, &Value)> = match &value {
                Value::Object(m) => m.iter().map(|(k, v)| (json!(k), v)).collect(),
                Value::Array(a) => a.iter().enumerate().map(|(i, v)| (json!(i), v)).collect(),
                _ => Vec::new(),
            };
            proptest::prop_assert_eq!(shape.members.len(), expected.len());
            for (index, (piece, (key, member))) in shape.members.iter().zip(&expected).enumerate() {
                let read_key: Value = serde_json::from_str(&shape.key(piece, index)).unwrap();
                proptest::prop_assert_eq!(&read_key, key);
                let read: Value = serde_json::from_str(&text[piece.range.clone()]).unwrap();
                proptest::prop_assert_eq!(&read, *member);
                let children = match member {
                    Value::Object(m) => m.len(),
                    Value::Array(a) => a.len(),
                    _ => 0,
                };
                proptest::prop_assert_eq!(piece.children.len(), children);
                for (i, child) in piece.children.iter().enumerate() {
                    let read: Value = serde_json::from_str(&text[child.range.clone()]).unwrap();
                    let key: Value = serde_json::from_str(&shape.key(child, i)).unwrap();
                    let expected = match (member, &key) {
                        (Value::Object(m), Value::String(k)) => &m[k.as_str()],
                        (Value::Array(a), Value::Number(i)) => &a[usize::try_from(i.as_u64().unwrap()).unwrap()],
                        _ => unreachable!("a child of an object has a name, of an array an index"),
                    };
                    proptest::prop_assert_eq!(&read, expected);
                }
            }
        }

        /// Between any two JSON values, the first patched by what `diff`
        /// sends is the second.
        #[test]
        fn any_value_patched_is_the_new_one(old in any_json(), new in any_json()) {
            let last = shape_of(old.to_string());
            match diff(Some(&last), &part(&new)) {
                None => proptest::prop_assert_eq!(old, new),
                Some(out) => proptest::prop_assert_eq!(apply(&old, &out), new),
            }
        }

        /// Whatever two JSON values of the shapes views and sheets have, the
        /// first patched by what `diff` sends is the second.
        #[test]
        fn a_patch_always_rebuilds_the_new_text(
            a in proptest::collection::vec((0u8..6, 0u8..4, 0u8..5), 0..8),
            b in proptest::collection::vec((0u8..6, 0u8..4, 0u8..5), 0..8),
        ) {
            let build = |spec: &[(u8, u8, u8)]| {
                let mut object = serde_json::Map::new();
                for (key, kind, v) in spec {
                    let value = match kind {
                        0 => json!(v),
                        1 => json!(vec![*v; usize::from(*v)]),
                        2 => json!({"x": v, "y": [v, v], "z": "text ".repeat(usize::from(*v))}),
                        _ => json!((0..*v).map(|i| json!({"i": i, "v": v})).collect::<Vec<_>>()),
                    };
                    object.insert(format!("k{key}"), value);
                }
                Value::Object(object)
            };
            let (old, new) = (build(&a), build(&b));
            let last = shape_of(old.to_string());
            match diff(Some(&last), &part(&new)) {
                None => proptest::prop_assert_eq!(old, new),
                Some(out) => proptest::prop_assert_eq!(apply(&old, &out), new),
            }
        }
    }
}
