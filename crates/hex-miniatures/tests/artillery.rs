//! The artillery table [21] against the text: fire by range in hexes ([9.1.2]), foot
//! batteries more effective than horse ([2.4.5.2], [9.1.2]), terrain and generals modifying
//! the number ([9.1.3], [9.2]); ruling HM17.

use hex_miniatures::artillery::{Battery, FireResult};
use hex_miniatures::data::Tables;
use hex_miniatures::prob::Draw;

fn effect(b: Battery, range: u8, m: i32) -> u32 {
    Tables::shipped()
        .artillery
        .at_range(b, range)
        .unwrap()
        .chance(m, |r| r != FireResult::NoEffect)
}

fn loss(b: Battery, range: u8) -> u32 {
    Tables::shipped()
        .artillery
        .at_range(b, range)
        .unwrap()
        .chance(0, |r| r.losses() > 0)
}

#[test]
fn artillery_9_1_2_effect_falls_with_range() {
    let t = Tables::shipped();
    for b in [Battery::Foot, Battery::Horse] {
        for r in 2..t.artillery.max_range(b) {
            assert!(effect(b, r, 0) > effect(b, r + 1, 0), "{b:?} at {r}");
            assert!(loss(b, r) > loss(b, r + 1), "{b:?} at {r}");
        }
    }
}

#[test]
fn artillery_9_1_2_foot_batteries_are_more_effective_than_horse_at_every_range() {
    let t = Tables::shipped();
    assert!(t.artillery.max_range(Battery::Foot) > t.artillery.max_range(Battery::Horse));
    for r in 2..=t.artillery.max_range(Battery::Horse) {
        assert!(
            effect(Battery::Foot, r, 0) > effect(Battery::Horse, r, 0),
            "{r}"
        );
        assert!(loss(Battery::Foot, r) > loss(Battery::Horse, r), "{r}");
    }
}

#[test]
fn hm17_the_table_starts_at_two_hexes_and_ends_at_the_batterys_reach() {
    let t = Tables::shipped();
    let d = Draw::new(999).unwrap();
    for b in [Battery::Foot, Battery::Horse] {
        assert_eq!(t.artillery.fire(b, 1, d, 0), None);
        assert!(t.artillery.fire(b, 2, d, 0).is_some());
        let max = t.artillery.max_range(b);
        assert!(t.artillery.fire(b, max, d, 0).is_some());
        assert_eq!(t.artillery.fire(b, max + 1, d, 0), None);
    }
    assert_eq!(
        (
            t.artillery.max_range(Battery::Foot),
            t.artillery.max_range(Battery::Horse)
        ),
        (6, 5)
    );
}

#[test]
fn artillery_9_1_3_terrain_18_takes_a_tenth_off_fire_into_a_forest() {
    let t = Tables::shipped();
    let m = t.terrain.combat_modifier("forest", false, false);
    assert_eq!(m, -100);
    assert!(effect(Battery::Foot, 3, m) < effect(Battery::Foot, 3, 0));
    assert_eq!(
        effect(Battery::Foot, 3, m),
        effect(Battery::Foot, 3, 0) - 100
    );
}

#[test]
fn artillery_results_and_their_chances() {
    let t = Tables::shipped();
    let ch = t.artillery.chances(Battery::Foot, 2, 0).unwrap();
    assert_eq!(ch.iter().map(|(_, w)| w).sum::<u32>(), 1000);
    assert_eq!(FireResult::LossDisrupted.losses(), 1);
    assert!(FireResult::LossDisrupted.disrupts() && FireResult::Disrupted.disrupts());
    assert!(!FireResult::Loss.disrupts() && FireResult::NoEffect.losses() == 0);
    assert_eq!(FireResult::parse("LD"), Ok(FireResult::LossDisrupted));
    assert!(FireResult::parse("X").is_err());
}
