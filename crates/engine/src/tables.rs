//! Checks every rules system's odds tables share when a player's replacement table is read.

/// Checks the percentage columns of an odds table: at least one, the first above 0%, each
/// strictly above the one before. The error says what is wrong, in the table's own numbers.
pub fn check_percent_columns(columns: &[u32]) -> Result<(), String> {
    if columns.is_empty() {
        return Err("no columns".into());
    }
    if columns[0] == 0 {
        return Err("a column of 0%".into());
    }
    if let Some(w) = columns.windows(2).find(|w| w[0] >= w[1]) {
        return Err(format!(
            "columns must increase strictly: {}% then {}%",
            w[0], w[1]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_percent_columns as check;

    #[test]
    fn percent_columns_are_checked() {
        assert!(check(&[25, 50, 100]).is_ok());
        assert_eq!(check(&[]), Err("no columns".to_string()));
        assert_eq!(check(&[0, 50]), Err("a column of 0%".to_string()));
        assert_eq!(
            check(&[50, 50]),
            Err("columns must increase strictly: 50% then 50%".to_string())
        );
    }
}
