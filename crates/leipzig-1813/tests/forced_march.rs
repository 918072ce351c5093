//! The Forced March Tables against every statement the rulebook makes about them (Forced
//! March, its tables, Explanation of Results and example; Supply (C) III; the Gotha special
//! rule) and ruling L11. Each test is named after the statement it pins.

use leipzig_1813::data::Tables;
use leipzig_1813::forced_march::{
    ForcedMarchTables, March, MarchChances, MarchEnd, MarchEntry, MarchTable, MarchTableFile,
    OnLetter,
};
use std::collections::BTreeMap;

fn tables() -> ForcedMarchTables {
    Tables::leipzig().forced_march
}

fn row(t: &MarchTable, letter: Option<char>) -> String {
    (1..=6u8)
        .map(|d| match letter {
            None => t.first(d).unwrap().to_string(),
            Some(l) => t.subsidiary(l, d).unwrap().to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn forced_march_example_a_2_5_triple_marches_rolls_2_for_m_then_4_and_ends_dispersed() {
    let t = tables();
    assert!(March::Triple.allowed(true));
    // It moves ten movement points first, of fifteen in all.
    assert_eq!(March::Triple.before_roll(5), 10);
    assert_eq!(March::Triple.total(5), 15);
    // A 2: the owner may stop, or roll on the M table.
    assert_eq!(t.triple.first(2), Some(MarchEntry::Subsidiary('M')));
    // A 4 on M: the march is completed, the unit dispersed at its end.
    assert_eq!(t.triple.subsidiary('M', 4), Some(MarchEntry::Dispersed));
}

#[test]
fn forced_march_all_units_may_double_only_infantry_triple() {
    assert!(March::Double.allowed(false));
    assert!(March::Double.allowed(true));
    assert!(!March::Triple.allowed(false));
    assert_eq!(March::Double.before_roll(8), 8);
    assert_eq!(March::Double.total(8), 16);
}

#[test]
fn l11_the_tables_as_read_from_the_scan() {
    let t = tables();
    assert_eq!(row(&t.double, None), "- - J K D X");
    assert_eq!(row(&t.double, Some('J')), "- D D D D X");
    assert_eq!(row(&t.double, Some('K')), "D D D D X X");
    assert_eq!(row(&t.triple, None), "L M N D X X");
    assert_eq!(row(&t.triple, Some('L')), "- - D D D X");
    assert_eq!(row(&t.triple, Some('M')), "- D D D X X");
    assert_eq!(row(&t.triple, Some('N')), "D D D X X X");
    assert_eq!(t.double.letters().collect::<String>(), "JK");
    assert_eq!(t.triple.letters().collect::<String>(), "LMN");
}

#[test]
fn forced_march_chances_of_a_double_march() {
    let t = tables();
    assert_eq!(
        t.chances(March::Double, false, OnLetter::Roll),
        MarchChances {
            completes: 13,
            dispersed: 14,
            destroyed: 9,
            halted: 0
        }
    );
    assert_eq!(
        t.chances(March::Double, false, OnLetter::Halt),
        MarchChances {
            completes: 12,
            dispersed: 6,
            destroyed: 6,
            halted: 12
        }
    );
}

#[test]
fn forced_march_chances_of_a_triple_march() {
    let t = tables();
    let c = t.chances(March::Triple, false, OnLetter::Roll);
    assert_eq!(
        c,
        MarchChances {
            completes: 3,
            dispersed: 15,
            destroyed: 18,
            halted: 0
        }
    );
    assert_eq!(c.probability(MarchEnd::Destroyed), 0.5);
    assert_eq!(
        t.chances(March::Triple, false, OnLetter::Halt),
        MarchChances {
            completes: 0,
            dispersed: 6,
            destroyed: 12,
            halted: 18
        }
    );
}

#[test]
fn forced_march_every_policy_adds_up_to_certainty_and_triple_is_the_deadlier() {
    let t = tables();
    for m in [March::Double, March::Triple] {
        for p in [OnLetter::Roll, OnLetter::Halt] {
            let c = t.chances(m, false, p);
            assert_eq!(c.completes + c.dispersed + c.destroyed + c.halted, 36);
        }
    }
    for p in [OnLetter::Roll, OnLetter::Halt] {
        assert!(
            t.chances(March::Triple, false, p).destroyed
                > t.chances(March::Double, false, p).destroyed
        );
    }
}

#[test]
fn explanation_of_results_a_subsidiary_letter_may_be_refused_with_no_loss() {
    // Stopping on a letter never destroys or disperses: every 36th of a letter is halted.
    let t = tables();
    let halt = t.chances(March::Double, false, OnLetter::Halt);
    assert_eq!(halt.halted, 12);
    let roll = t.chances(March::Double, false, OnLetter::Roll);
    assert!(roll.destroyed > halt.destroyed);
}

#[test]
fn supply_c_iii_a_supported_march_rolls_on_no_table() {
    let t = tables();
    for m in [March::Double, March::Triple] {
        let c = t.chances(m, true, OnLetter::Roll);
        assert_eq!(c.of(MarchEnd::Completes), 36);
        assert_eq!(c.probability(MarchEnd::Completes), 1.0);
    }
}

fn file(first: &[&str], subs: &[(&str, &[&str])]) -> MarchTableFile {
    MarchTableFile {
        first: first.iter().map(|s| s.to_string()).collect(),
        subsidiary: subs
            .iter()
            .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
            .collect::<BTreeMap<_, _>>(),
    }
}

#[test]
fn a_replacement_table_is_validated() {
    let six = ["-", "-", "D", "D", "X", "X"];
    assert!(MarchTable::from_file("double", &file(&six, &[])).is_ok());
    let e =
        MarchTable::from_file("double", &file(&["-", "J", "D", "D", "X", "X"], &[])).unwrap_err();
    assert!(e.contains("table J, which is missing"), "{e}");
    let e = MarchTable::from_file("double", &file(&six, &[("J", &six)])).unwrap_err();
    assert!(e.contains("never reached"), "{e}");
    let e = MarchTable::from_file(
        "double",
        &file(
            &["J", "-", "-", "-", "-", "-"],
            &[("J", &["J", "-", "-", "-", "-", "-"])],
        ),
    )
    .unwrap_err();
    assert!(e.contains("no further table"), "{e}");
    let e = MarchTable::from_file("double", &file(&["-", "-", "D"], &[])).unwrap_err();
    assert!(e.contains("3 entries, expected 6"), "{e}");
    let e =
        MarchTable::from_file("double", &file(&["-", "-", "D", "D", "X", "xx"], &[])).unwrap_err();
    assert!(e.contains("die 6"), "{e}");
}

#[test]
fn explanation_of_results_the_owner_decides_letter_by_letter() {
    let t = tables();
    // Roll on J (the milder), stop on K.
    let c = t.double.chances_by(|l| {
        if l == 'J' {
            OnLetter::Roll
        } else {
            OnLetter::Halt
        }
    });
    assert_eq!(
        c,
        MarchChances {
            completes: 13,
            dispersed: 10,
            destroyed: 7,
            halted: 6
        }
    );
    assert_eq!(
        t.double.chances_by(|_| OnLetter::Roll),
        t.double.chances(OnLetter::Roll)
    );
}

/// A French infantry corps with a supply unit beside it (moved or not) in scenario 5.
fn corps_with_supply(supply_moved: bool) -> (leipzig_1813::Game, usize) {
    use leipzig_1813::scenario::Scenario;
    let mut g =
        leipzig_1813::Game::new(&Scenario::leipzig(5).unwrap(), &Tables::leipzig()).unwrap();
    g.stage_empty(3, 0);
    let b = g.board().clone();
    let h = (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| b.neighbours(h).count() == 6 && b.hex(h).city.is_none())
        .unwrap();
    let n = b.neighbours(h).next().unwrap().1;
    let u = g.stage_unit(0, "infantry-corps", h).unwrap();
    let s = g.stage_unit(0, "supply", n).unwrap();
    g.stage_unit_mut(s).moved = supply_moved;
    (g, u)
}

#[test]
fn supply_c_iii_a_march_s_chances_before_it_is_declared_are_those_the_rules_roll() {
    use engine::Rules;
    use leipzig_1813::game::MarchState;
    for moved in [false, true] {
        let (g, u) = corps_with_supply(moved);
        let ch = g.march_chances(u, false, OnLetter::Halt);
        let mut h = g.clone();
        h.apply(leipzig_1813::Action::March {
            unit: u as u16,
            triple: false,
        })
        .expect("a legal march");
        let rolls = matches!(h.units()[u].march, MarchState::Unrolled(_));
        // Supply (C) III: a supply unit that has moved supports no march
        assert_eq!(rolls, moved);
        assert_eq!(ch.completes == 36, !moved, "{ch:?}");
        if moved {
            assert!(ch.destroyed + ch.dispersed > 0);
        }
    }
}
