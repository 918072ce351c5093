//! The rules references the systems ship: a TOML file of `[[case]]` entries (`case`, `title`,
//! `text`: the rulebook's cases or sections in our own words), served as JSON by
//! [`engine::dynamic::System::reference`] (`GET /api/rules?system=ID`). One parser for every
//! system's file.

use serde_json::Value;

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct Case {
    case: String,
    title: String,
    text: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    case: Vec<Case>,
}

/// A rules reference's TOML as `[{"case","title","text"}]`, in the file's order; `None` when
/// the text is not such a file (each system's test pins that its own parses).
pub(crate) fn parse(toml_text: &str) -> Option<Value> {
    let f: File = toml::from_str(toml_text).ok()?;
    serde_json::to_value(f.case).ok()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn a_reference_parses_in_order_and_a_malformed_one_is_none() {
        let v = parse(
            "[[case]]\ncase = \"1.0\"\ntitle = \"One\"\ntext = \"First.\"\n\
             [[case]]\ncase = \"2.0\"\ntitle = \"Two\"\ntext = \"Second.\"\n",
        )
        .expect("parses");
        assert_eq!(v[0]["case"], "1.0");
        assert_eq!(v[1]["title"], "Two");
        assert_eq!(v[1]["text"], "Second.");
        assert!(
            parse("[[case]]\ncase = \"1.0\"\n").is_none(),
            "no title or text"
        );
        assert!(
            parse("[[case]]\ncase = \"1.0\"\ntitle = \"t\"\ntext = \"x\"\nextra = 1\n").is_none()
        );
    }
}
