//! Morale against the text: rallies ([6.1], [6.2], [6.3]), the national army tables' morale
//! ([16]), the general under fire ([17], [9.2]) and the crisis of morale ([13], [19]);
//! rulings HM6, HM8-HM10.

use hex_miniatures::army::{strength, Circumstance, Kind, Order};
use hex_miniatures::data::Tables;
use hex_miniatures::morale::{
    rallied, rallies, rally_chance, rally_threshold, Crisis, GeneralFate, UnderFire,
};
use hex_miniatures::prob::{Draw, Prob};

fn t() -> Tables {
    Tables::shipped()
}

fn draw(n: u16) -> Draw {
    Draw::new(n).unwrap()
}

#[test]
fn rally_6_2_a_routed_unit_needs_0_800_and_rallies_to_disrupted() {
    let t = t();
    assert_eq!(t.rally_routed, Prob(800));
    let line = *t.line("French", Kind::Line).unwrap();
    let th = rally_threshold(&line, Order::Routed, t.rally_routed).unwrap();
    assert_eq!(th, Prob(800));
    assert!(rallies(draw(800), 0, th));
    assert!(!rallies(draw(799), 0, th));
    assert_eq!(rallied(Order::Routed), Order::Disordered);
    assert_eq!(rally_chance(th, 0), 200);
}

#[test]
fn rally_6_1_a_disrupted_unit_needs_its_armys_morale_matched_or_exceeded() {
    let t = t();
    let line = *t.line("Prussian", Kind::Line).unwrap();
    for order in [Order::Disordered, Order::Retiring] {
        let th = rally_threshold(&line, order, t.rally_routed).unwrap();
        assert_eq!(th, line.rally);
        assert!(rallies(draw(th.0), 0, th));
        assert!(!rallies(draw(th.0 - 1), 0, th));
        assert_eq!(rallied(order), Order::Ordered);
    }
    assert_eq!(rally_threshold(&line, Order::Ordered, t.rally_routed), None);
}

#[test]
fn rally_6_3_a_general_adds_0_100_napoleon_0_200() {
    let t = t();
    assert_eq!(t.combat.generals(1, 0), 100);
    assert_eq!(t.combat.generals(0, 1), 200);
    let th = t.rally_routed;
    assert!(rallies(draw(700), t.combat.generals(1, 0), th));
    assert!(!rallies(draw(699), t.combat.generals(1, 0), th));
    assert!(rallies(draw(600), t.combat.generals(0, 1), th));
    assert_eq!(rally_chance(th, 100), 300);
    assert_eq!(rally_chance(th, 200), 400);
}

#[test]
fn army_16_better_troops_rally_more_easily_and_disrupted_rallies_come_easier_than_routs() {
    // [2.4.3.2] infantry in descending order of ability: guards, grenadiers, line/light,
    // militia. Every disrupted unit needs less than a routed one (0.800).
    let t = t();
    for a in &t.armies {
        let r = |k| a.line(k).map(|l| l.rally.0);
        let order: Vec<u16> = [Kind::Guard, Kind::Grenadier, Kind::Line, Kind::Militia]
            .into_iter()
            .filter_map(r)
            .collect();
        assert!(
            order.windows(2).all(|w| w[0] < w[1]),
            "{}: {order:?}",
            a.nation
        );
        for (k, l) in &a.lines {
            assert!(l.rally < t.rally_routed, "{} {k}", a.nation);
        }
    }
}

#[test]
fn army_16_better_troops_fight_harder_and_disorder_reduces_every_strength() {
    let t = t();
    for a in &t.armies {
        let s = |k| a.line(k).map(|l| l.strength);
        let inf: Vec<u32> = [Kind::Guard, Kind::Grenadier, Kind::Line, Kind::Militia]
            .into_iter()
            .filter_map(s)
            .collect();
        assert!(inf.windows(2).all(|w| w[0] > w[1]), "{}", a.nation);
        // [2.4.4.3]-[2.4.4.5]: heavy, medium, light shock in that order
        let cav: Vec<u32> = [Kind::HeavyCavalry, Kind::MediumCavalry, Kind::LightCavalry]
            .into_iter()
            .filter_map(s)
            .collect();
        assert!(cav.windows(2).all(|w| w[0] > w[1]), "{}", a.nation);
        for (k, l) in &a.lines {
            if k.arm() != hex_miniatures::army::Arm::Artillery {
                assert!(l.disordered < l.strength, "{} {k}", a.nation);
            }
        }
    }
}

#[test]
fn army_16_movement_as_2_4_states_it() {
    let t = t();
    for a in &t.armies {
        for (k, l) in &a.lines {
            let want = match k {
                Kind::HeavyCavalry | Kind::MediumCavalry | Kind::HorseBattery => 2,
                Kind::LightCavalry | Kind::Lancers => 3,
                _ => 1,
            };
            assert_eq!(l.movement, want, "{} {k}", a.nation);
        }
    }
    assert_eq!(t.command_movement, 5);
    assert_eq!(t.orders.messenger_movement, 5);
}

#[test]
fn army_2_4_4_5_lancers_strike_as_medium_cavalry_on_first_contact_then_as_light() {
    let t = t();
    let l = *t.line("French", Kind::Lancers).unwrap();
    let medium = t.line("French", Kind::MediumCavalry).unwrap().strength;
    let light = t.line("French", Kind::LightCavalry).unwrap().strength;
    let first = Circumstance {
        first_contact: true,
        ..Circumstance::default()
    };
    assert_eq!(strength(&l, 4, Order::Ordered, first), 4 * medium);
    assert_eq!(
        strength(&l, 4, Order::Ordered, Circumstance::default()),
        4 * light
    );
}

#[test]
fn strength_8_8_3_a_routed_unit_defends_as_1_and_9_1_6_artillery_in_exchange_is_1() {
    let t = t();
    let line = *t.line("French", Kind::Line).unwrap();
    assert_eq!(
        strength(&line, 5, Order::Ordered, Circumstance::default()),
        20
    );
    assert_eq!(
        strength(&line, 5, Order::Disordered, Circumstance::default()),
        10
    );
    assert_eq!(
        strength(&line, 5, Order::Retiring, Circumstance::default()),
        10
    );
    assert_eq!(
        strength(&line, 5, Order::Routed, Circumstance::default()),
        1
    );
    assert_eq!(
        strength(&line, 0, Order::Routed, Circumstance::default()),
        0
    );
    // [9.4.1] infantry in square fights with its disordered value
    let sq = Circumstance {
        in_square: true,
        ..Circumstance::default()
    };
    assert_eq!(strength(&line, 5, Order::Ordered, sq), 10);
    let battery = *t.line("French", Kind::FootBattery).unwrap();
    let ex = Circumstance {
        artillery_in_exchange: true,
        ..Circumstance::default()
    };
    assert_eq!(strength(&battery, 1, Order::Ordered, ex), 1);
    assert_eq!(Kind::Line.full_base_units(), 5);
    assert_eq!(Kind::FootBattery.full_base_units(), 1);
}

#[test]
fn general_17_survives_most_turns_and_combat_is_deadlier_than_artillery() {
    let t = t();
    let g = &t.general_under_fire;
    for fire in [UnderFire::Artillery, UnderFire::Combat] {
        let survives = g.column(fire).chance(0, |f| f == GeneralFate::Survives);
        assert!(survives > 900, "{fire:?}");
        assert_eq!(g.fate(fire, draw(999)), GeneralFate::Survives);
        assert_eq!(g.fate(fire, draw(0)), GeneralFate::Killed);
    }
    let hit = |f| g.column(f).chance(0, |x| x != GeneralFate::Survives);
    assert!(hit(UnderFire::Combat) > hit(UnderFire::Artillery));
    assert_eq!(
        (hit(UnderFire::Artillery), hit(UnderFire::Combat)),
        (30, 50)
    );
}

#[test]
fn crisis_13_the_table_has_a_row_for_every_mark_from_15_by_5() {
    let t = t();
    let levels: Vec<u32> = t.crisis.levels.iter().map(|(l, _)| *l).collect();
    assert_eq!(levels[0], 15);
    assert!(levels.windows(2).all(|w| w[1] == w[0] + 5));
    assert_eq!((t.first_level, t.level_step), (15, 5));
}

#[test]
fn crisis_13_above_40_percent_a_crisis_strikes_most_units_and_not_before() {
    let t = t();
    for &(l, _) in &t.crisis.levels {
        let c = t.crisis.crisis_chance(l, 0);
        if l > 40 {
            assert!(c > 500, "{l}%: {c}");
        } else {
            assert!(c < 500, "{l}%: {c}");
        }
    }
}

#[test]
fn crisis_13_the_chance_rises_with_the_casualties_and_each_result_grows_with_it() {
    let t = t();
    let mut last = 0;
    for &(l, _) in &t.crisis.levels {
        let c = t.crisis.crisis_chance(l, 0);
        assert!(c > last, "{l}%");
        last = c;
    }
    // a higher number is never worse for the unit
    for (l, b) in &t.crisis.levels {
        for n in 1..1000 {
            assert!(b.at(n) >= b.at(n - 1), "{l}% at {n}");
        }
    }
}

#[test]
fn crisis_13_a_number_above_the_levels_figure_fights_on() {
    let t = t();
    let row = t.crisis.row(15).unwrap();
    let from = row.from_of(Crisis::FightsOn).unwrap();
    assert_eq!(t.crisis.result(15, draw(from.0), 0), Some(Crisis::FightsOn));
    assert_ne!(
        t.crisis.result(15, draw(from.0 - 1), 0),
        Some(Crisis::FightsOn)
    );
}

#[test]
fn hm9_a_general_steadies_his_troops_in_a_crisis() {
    let t = t();
    assert!(t.crisis.crisis_chance(45, 100) < t.crisis.crisis_chance(45, 0));
    assert_eq!(
        t.crisis.crisis_chance(45, 100),
        t.crisis.crisis_chance(45, 0) - 100
    );
}

#[test]
fn hm10_above_the_last_row_the_last_row_serves_and_below_the_first_no_crisis() {
    let t = t();
    let last = t.crisis.levels.last().unwrap().0;
    assert_eq!(t.crisis.row(95), t.crisis.row(last));
    assert_eq!(t.crisis.row(10), None);
    assert_eq!(t.crisis.crisis_chance(10, 0), 0);
}

#[test]
fn rout_2_4_1_5_one_extra_hex_on_the_first_move_of_a_rout_then_normal_speed() {
    use hex_miniatures::army::allowance;
    let t = t();
    let inf = *t.line("French", Kind::Line).unwrap();
    let light = *t.line("French", Kind::LightCavalry).unwrap();
    assert_eq!(allowance(&inf, Order::Routed, true), 2);
    assert_eq!(allowance(&inf, Order::Routed, false), 1);
    assert_eq!(allowance(&light, Order::Routed, true), 4);
    // [2.4.1.2] disorder does not affect movement
    assert_eq!(allowance(&inf, Order::Disordered, true), 1);
    assert_eq!(allowance(&inf, Order::Ordered, false), 1);
}

#[test]
fn army_2_4_every_kind_is_named_by_its_id_and_by_the_texts_arm_and_class() {
    for k in Kind::ALL {
        assert_eq!(Kind::from_id(k.id()), Some(k));
    }
    assert_eq!(Kind::classify("infantry", "landwehr"), Some(Kind::Militia));
    assert_eq!(
        Kind::classify("infantry", "opolchenie"),
        Some(Kind::Militia)
    );
    assert_eq!(
        Kind::classify("infantry", "highlander"),
        Some(Kind::Grenadier)
    );
    assert_eq!(Kind::classify("cavalry", "uhlan"), Some(Kind::Lancers));
    assert_eq!(
        Kind::classify("cavalry", "medium"),
        Some(Kind::MediumCavalry)
    );
    assert_eq!(
        Kind::classify("artillery", "horse"),
        Some(Kind::HorseBattery)
    );
    assert_eq!(Kind::classify("cavalry", "guard"), None);
    assert_eq!(Kind::from_id("cossack"), None);
}
