//! The supplement `data/bon.toml`: it parses and fits all three Battle of Nations scenarios.

use napoleonic_battles::data::Supplement;

fn scenario(id: &str) -> naw::Scenario {
    scenarios::load(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

const SCENARIOS: [&str; 3] = ["bon-first-day", "bon-grand-battle", "bon-third-day"];

#[test]
fn the_embedded_supplement_parses() {
    let s = Supplement::from_toml(Supplement::BON_TOML).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s, Supplement::bon());
}

#[test]
fn the_supplement_fits_every_battle_of_nations_scenario() {
    let s = Supplement::bon();
    for id in SCENARIOS {
        s.check(&scenario(id))
            .unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}
