//! The rules reference (`rules-reference.toml`, served by `systems`' `reference()`): every
//! rulebook section and ruling the crate cites (refusals, events, the melee's shifts) has an
//! entry, the entries paraphrase the rulebook rather than quote it, and the melee table's
//! entry is the table the game plays.

use napoleonic_battles::Supplement;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    case: String,
    title: String,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    case: Vec<Case>,
}

const REFERENCE: &str = include_str!("../rules-reference.toml");

fn reference() -> Vec<Case> {
    toml::from_str::<File>(REFERENCE)
        .expect("rules-reference.toml parses")
        .case
}

/// The string literals of a Rust source, comments left out. Enough for this crate's sources,
/// which hold no raw strings.
fn string_literals(src: &str) -> Vec<String> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            // a char literal ('x', '\n'); a lifetime ('a) has no closing quote after one char
            '\'' if c.get(i + 1) == Some(&'\\') => {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            }
            '\'' if c.get(i + 2) == Some(&'\'') => i += 3,
            '"' => {
                let mut s = String::new();
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    if let Some(&ch) = c.get(i) {
                        s.push(ch);
                    }
                    i += 1;
                }
                i += 1;
                out.push(s);
            }
            _ => i += 1,
        }
    }
    out
}

/// `NB` followed by a ruling's digits, as a whole word.
fn rulings_in(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    for (k, _) in s.match_indices("NB") {
        let before_ok = k == 0 || !b[k - 1].is_ascii_alphanumeric();
        let digits: String = s[k + 2..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let after = s[k + 2 + digits.len()..].chars().next();
        if before_ok && !digits.is_empty() && !after.is_some_and(|c| c.is_alphanumeric()) {
            out.push(format!("NB{digits}"));
        }
    }
    out
}

/// Every section and ruling the crate's sources cite in a string: a literal that is a section
/// name (`"NB Movement"`, a refusal's, an event's or a shift's case) or a ruling (`"NB50"`),
/// and any ruling named inside a literal (`"... (NB64)"`).
fn cited() -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeSet::new();
    let mut files = 0;
    for e in std::fs::read_dir(&dir).expect("src/") {
        let p = e.expect("a file").path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        files += 1;
        let src = std::fs::read_to_string(&p).expect("a source file");
        for s in string_literals(&src) {
            if s.starts_with("NB ") && s[3..].starts_with(|c: char| c.is_ascii_uppercase()) {
                out.insert(s.clone());
            }
            out.extend(rulings_in(&s));
        }
    }
    assert!(
        files >= 9,
        "only {files} sources read from {}",
        dir.display()
    );
    out
}

#[test]
fn every_section_and_ruling_the_crate_cites_is_in_the_reference() {
    let cases: BTreeSet<String> = reference().into_iter().map(|c| c.case).collect();
    let cited = cited();
    // the scan finds what it should: a refusal's section, an event's, a shift's, rulings
    for must in [
        "NB Movement",
        "NB Action phase",
        "NB Recovery",
        "NB Leipzig Terrain Effects",
        "NB50",
        "NB64",
        "NB77",
    ] {
        assert!(cited.contains(must), "the scan missed {must}: {cited:?}");
    }
    let missing: Vec<&String> = cited.iter().filter(|c| !cases.contains(*c)).collect();
    assert!(
        missing.is_empty(),
        "cited but not in rules-reference.toml: {missing:?}"
    );
}

#[test]
fn the_reference_has_one_entry_per_case_each_with_a_title_and_text() {
    let r = reference();
    let mut seen = BTreeSet::new();
    for c in &r {
        assert!(seen.insert(c.case.clone()), "{} twice", c.case);
        assert!(c.case.starts_with("NB"), "{}", c.case);
        assert!(!c.title.trim().is_empty(), "{} has no title", c.case);
        assert!(c.text.len() > 60, "{} says too little", c.case);
    }
    // every section of the rulebook, in its order, then the charts
    let sections = [
        "NB Motivation",
        "NB Sequence of Play",
        "NB Action phase",
        "NB Impulse Action sequence",
        "NB Steps and step losses",
        "NB Recovery",
        "NB Vedettes",
        "NB Stacking and SP limits",
        "NB SP limits for various purposes",
        "NB Movement",
        "NB Strategic movement",
        "NB Tactical movement",
        "NB Fire phase procedures",
        "NB Melee phase procedures",
        "NB Combat results tables",
        "NB Steps and losses",
        "NB Artillery and melee losses",
        "NB Cover vs fire",
        "NB Terrain effects on melee strength",
        "NB Morale and disorder rules",
        "NB Formation demoralization",
        "NB Game and scenario specific rules",
        "NB Napoleon's Last Battles",
        "NB Quatre Bras",
        "NB Napoleon At Leipzig",
        "NB Leipzig Terrain Effects",
        "NB Turn End",
        "NB Leipzig formation demoralization levels",
        "NB Napoleon's Art of War variant",
        "NB 30 Years War Quad variant",
        "NB 30 Years War Quad terrain effects",
        "NB Melee table",
        "NB Terrain chart",
    ];
    let order: Vec<&str> = r
        .iter()
        .map(|c| c.case.as_str())
        .take(sections.len())
        .collect();
    assert_eq!(order, sections);
}

/// Lower-case words (letters and digits) of a text.
fn words(t: &str) -> Vec<String> {
    t.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_reference_is_in_our_own_words() {
    // the rulebook sits beside the repository (../shared/seeds); without it there is nothing
    // to compare
    let book = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/seeds/5-napoleonic-battles-activation-system.txt");
    let Ok(book) = std::fs::read_to_string(book) else {
        return;
    };
    const RUN: usize = 8;
    let bw = words(&book);
    let runs: BTreeSet<&[String]> = bw.windows(RUN).collect();
    for c in reference() {
        // the Leipzig loss levels are the rulebook's table, carried over as data
        if c.case == "NB Leipzig formation demoralization levels" {
            continue;
        }
        let w = words(&c.text);
        if let Some(run) = w.windows(RUN).find(|x| runs.contains(x)) {
            panic!("{}: '{}' is the rulebook's wording", c.case, run.join(" "));
        }
    }
}

#[test]
fn the_reference_prints_the_melee_table_in_play() {
    let t = Supplement::bon().melee;
    let entry = reference()
        .into_iter()
        .find(|c| c.case == "NB Melee table")
        .expect("the melee table");
    let columns: Vec<String> = (0..t.columns())
        .map(|c| t.column_name(c).trim_end_matches('%').to_string())
        .collect();
    assert!(
        entry.text.contains(&columns.join(", ")),
        "columns {columns:?}"
    );
    for roll in t.lowest_roll()..=t.highest_roll() {
        let cells: Vec<String> = (0..t.columns())
            .map(|c| t.result(c, roll).to_string())
            .collect();
        let row = format!("Die {roll}: {}.", cells.join(", "));
        assert!(entry.text.contains(&row), "missing or different: {row}");
    }
}

#[test]
fn the_reference_gives_the_swamp_cost_in_play() {
    let mp = Supplement::bon().movement.infantry_swamp_mp;
    let r = reference();
    let chart = r
        .iter()
        .find(|c| c.case == "NB Terrain chart")
        .expect("the terrain chart");
    let want = format!("infantry enters it off the road at {mp} MP");
    assert!(chart.text.contains(&want), "{want}");
    let nb73 = r.iter().find(|c| c.case == "NB73").expect("NB73");
    assert!(nb73.text.contains(&format!("infantry pays {mp} MP")));
}
