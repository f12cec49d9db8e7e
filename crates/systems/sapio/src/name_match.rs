//! Name comparison without allocating: the same answer as
//! [`tabula_core::names::same_name`] (lower case, `_` read as a space, runs
//! of white space as one, no white space at either end), compared word by
//! word for ASCII names, where it runs on every lookup of `decide` and the
//! policy. Other names go to `same_name` itself (Unicode lower-casing has
//! context rules, the Greek final sigma, that a word-by-word compare would
//! not follow).

/// True when `a` and `b` name the same thing ([`tabula_core::names::same_name`]).
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    if !(a.is_ascii() && b.is_ascii()) {
        return tabula_core::names::same_name(a, b);
    }
    let (mut x, mut y) = (words(a), words(b));
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) if p.eq_ignore_ascii_case(q) => {}
            _ => return false,
        }
    }
}

/// The words of a name: split at white space and `_`.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| c.is_whitespace() || c == '_')
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn agrees_with_the_core_comparison(
            a in "[ _\\taAbBzZ\u{3a3}\u{3c3}\u{c9}\u{e9}-]{0,8}",
            b in "[ _\\taAbBzZ\u{3a3}\u{3c3}\u{c9}\u{e9}-]{0,8}",
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
