//! Name comparison: [`tabula_core::names::same_name`], which compares ASCII
//! names word by word without allocating (issue 26, item 6; this file held a
//! copy of it before).

pub(crate) use tabula_core::names::same_name;

#[cfg(test)]
mod tests {
    #[test]
    fn names_match_as_the_table_reads_them() {
        assert!(super::same_name("  Iron_Wolf ", "iron wolf"));
        assert!(super::same_name("Roof  Runner", "roof_runner"));
        assert!(!super::same_name("Roof Runner", "Roof Runners"));
        assert!(!super::same_name("Roof Runner", "Roof"));
        assert!(super::same_name("", "  _ "));
    }
}
