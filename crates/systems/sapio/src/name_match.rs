//! Name comparison without allocating: the same answer as
//! [`tabula_core::names::same_name`] (lower case, `_` read as a space, runs
//! of white space as one, no white space at either end), compared byte by
//! byte, word by word, for ASCII names, where it runs on every lookup of `decide` and the
//! policy. Other names go to `same_name` itself (Unicode lower-casing has
//! context rules, the Greek final sigma, that a word-by-word compare would
//! not follow).

/// True when `a` and `b` name the same thing ([`tabula_core::names::same_name`]).
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    if !(a.is_ascii() && b.is_ascii()) {
        return tabula_core::names::same_name(a, b);
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    loop {
        i = skip_separators(a, i);
        j = skip_separators(b, j);
        match (i >= a.len(), j >= b.len()) {
            (true, true) => return true,
            (false, false) => {}
            _ => return false,
        }
        // One word of each, compared without regard to case.
        loop {
            let x = a.get(i).copied().filter(|c| !separator(*c));
            let y = b.get(j).copied().filter(|c| !separator(*c));
            match (x, y) {
                (None, None) => break,
                (Some(x), Some(y)) if x.eq_ignore_ascii_case(&y) => {
                    i += 1;
                    j += 1;
                }
                _ => return false,
            }
        }
    }
}

/// White space (as `char::is_whitespace` reads ASCII) or `_`.
fn separator(c: u8) -> bool {
    c == b'_' || c == b' ' || (b'\t'..=b'\r').contains(&c)
}

fn skip_separators(s: &[u8], mut at: usize) -> usize {
    while s.get(at).is_some_and(|c| separator(*c)) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn agrees_with_the_core_comparison(
            a in "[ _\\t\\n\u{b}\u{c}\raAbBzZ\u{3a3}\u{3c3}\u{c9}\u{e9}-]{0,8}",
            b in "[ _\\t\\n\u{b}\u{c}\raAbBzZ\u{3a3}\u{3c3}\u{c9}\u{e9}-]{0,8}",
        ) {
            prop_assert_eq!(super::same_name(&a, &b), tabula_core::names::same_name(&a, &b));
            prop_assert!(super::same_name(&a, &a));
            let upper = a.to_ascii_uppercase().replace(' ', "_");
            prop_assert_eq!(
                super::same_name(&a, &upper),
                tabula_core::names::same_name(&a, &upper)
            );
        }
    }

    #[test]
    fn names_match_as_the_table_reads_them() {
        assert!(super::same_name("  Iron_Wolf ", "iron wolf"));
        assert!(super::same_name("Roof  Runner", "roof_runner"));
        assert!(!super::same_name("Roof Runner", "Roof Runners"));
        assert!(!super::same_name("Roof Runner", "Roof"));
        assert!(super::same_name("", "  _ "));
    }
}
