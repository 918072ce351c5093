//! The eight scenarios against the rulebook's charts: each side's forces counted as the charts
//! count them, every place on the map, reinforcements within the game, the set-up hexes.

use leipzig_1813::data::Tables;
use leipzig_1813::europe::{Area, Europe};
use leipzig_1813::scenario::{
    AustriaAccess, Force, Location, Scenario, REINFORCEMENTS_TOML, SCENARIO_TOML,
};
use leipzig_1813::units::Units;

fn force(infantry: u32, cavalry: u32, supply: u32, depots: u32, leaders: &[u8]) -> Force {
    let mut leaders = leaders.to_vec();
    leaders.sort_unstable();
    Force {
        infantry,
        cavalry,
        supply,
        depots,
        leaders,
    }
}

fn total(s: &Scenario, side: &str) -> Force {
    let mut f = s.setup_total(side);
    f.leaders.sort_unstable();
    f
}

fn load(text: &str) -> Result<Scenario, String> {
    Scenario::from_toml(
        text,
        REINFORCEMENTS_TOML,
        &Europe::central_europe(),
        &Units::leipzig(),
        &Tables::leipzig(),
    )
    .map_err(|e| e.to_string())
}

#[test]
fn probe() {
    let e = Europe::central_europe();
    for a in Area::ALL {
        let v = e.area(a);
        println!("{a:?}: {} hexes, first {:?} last {:?}", v.len(), v.first(), v.last());
    }
    for s in Scenario::all() {
        println!("{} {} setups {} reinf {}", s.id, s.title, s.setup.len(), s.reinforcements.len());
    }
}
