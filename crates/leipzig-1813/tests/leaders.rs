//! The leaders against what the rulebook says of them (Leaders; the Designer's Notes: ten a
//! side numbered by seniority, the French generals the better tacticians, Napoleon's 25; the
//! scenario charts' leader numbers) and ruling L10 (`docs/leipzig-1813.md`, The leaders).

use leipzig_1813::data::Tables;
use leipzig_1813::leaders::Leader;

fn side(s: &str) -> Vec<Leader> {
    Tables::leipzig()
        .leaders
        .into_iter()
        .filter(|l| l.side == s)
        .collect()
}

fn name(s: &str, n: u8) -> String {
    Tables::leipzig().leader(s, n).unwrap().name.clone()
}

#[test]
fn leaders_ten_a_side_numbered_one_to_ten() {
    for s in ["French", "Allied"] {
        let n: Vec<u8> = side(s).iter().map(|l| l.number).collect();
        assert_eq!(n, (1..=10).collect::<Vec<u8>>(), "{s}");
    }
}

#[test]
fn leaders_napoleon_is_french_leader_1_with_25_and_the_greatest_bonus() {
    let t = Tables::leipzig();
    let n = t.leader("French", 1).unwrap();
    assert_eq!(n.name, "Napoleon");
    assert_eq!((n.offence, n.defence), (25, 25));
    for l in t.leaders.iter().filter(|l| l.name != "Napoleon") {
        assert!(l.offence < 25 && l.defence < 25, "{}", l.name);
    }
}

#[test]
fn designers_notes_the_french_lieutenants_outclass_the_allied_generals() {
    let sum = |s: &str| -> u32 {
        side(s)
            .iter()
            .filter(|l| l.name != "Napoleon")
            .map(|l| l.offence + l.defence)
            .sum()
    };
    assert!(sum("French") > sum("Allied"));
    // Murat and Oudinot, named by the designer, attack as well as any French lieutenant.
    let best = side("French")
        .iter()
        .filter(|l| l.name != "Napoleon")
        .map(|l| l.offence)
        .max()
        .unwrap();
    for n in [2, 4] {
        assert_eq!(Tables::leipzig().leader("French", n).unwrap().offence, best);
    }
}

#[test]
fn designers_notes_the_most_senior_allied_leader_is_not_the_most_competent() {
    let allied = side("Allied");
    let first = &allied[0];
    assert!(allied[1..].iter().any(|l| l.offence > first.offence));
    // Blücher (2) the best Allied attacker.
    let blucher = Tables::leipzig().leader("Allied", 2).unwrap().clone();
    assert_eq!(blucher.name, "Blucher");
    assert!(allied.iter().all(|l| l.offence <= blucher.offence));
}

#[test]
fn l10_the_numbers_fit_the_scenario_charts_and_the_designers_notes() {
    // Summer (and the notes' armies): Berlin 4, 7, 10; Breslau 2, 8; Austria 1, 3, 5, 6;
    // Posen 9.
    let names = |s: &str, ns: &[u8]| -> Vec<String> { ns.iter().map(|&n| name(s, n)).collect() };
    assert_eq!(
        names("Allied", &[4, 7, 10]),
        ["Bernadotte", "Miloradovich", "Bulow"]
    );
    assert_eq!(names("Allied", &[2, 8]), ["Blucher", "Yorck"]);
    assert_eq!(
        names("Allied", &[1, 3, 5, 6]),
        [
            "Schwarzenberg",
            "Barclay de Tolly",
            "Wittgenstein",
            "Gyulai"
        ]
    );
    assert_eq!(names("Allied", &[9]), ["Bennigsen"]);
    // Scenario 3: the Austrians 1 and 6 come with the Austrian army.
    assert_eq!(names("Allied", &[1, 6]), ["Schwarzenberg", "Gyulai"]);
    // Spring French: Gotha 1, 3, 4, 5, 7 (Napoleon's army), Magdeburg 6, 8, 10 (the Elbe
    // army); 2 and 9 come only in scenario 2 and the summer.
    assert_eq!(
        names("French", &[1, 3, 4, 5, 7]),
        ["Napoleon", "Ney", "Oudinot", "Marmont", "Bertrand"]
    );
    assert_eq!(
        names("French", &[6, 8, 10]),
        ["Victor", "Macdonald", "Lauriston"]
    );
    assert_eq!(names("French", &[2, 9]), ["Murat", "Lobau"]);
}

#[test]
fn a_leader_table_needs_ten_a_side_once_each() {
    let text = Tables::LEIPZIG_TOML.replace(
        "side = \"Allied\"\nnumber = 10\n",
        "side = \"Allied\"\nnumber = 9\n",
    );
    let e = Tables::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("Allied leader 9 is given twice"), "{e}");
    assert!(e.contains("missing 10"), "{e}");
    let text = Tables::LEIPZIG_TOML.replace(
        "side = \"Allied\"\nnumber = 10\n",
        "side = \"Prussian\"\nnumber = 11\n",
    );
    let e = Tables::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("neither French nor Allied"), "{e}");
    assert!(e.contains("numbers run 1 to 10"), "{e}");
}
