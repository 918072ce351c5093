//! The initiative ([7.1]; ruling HM56): the hierarchy of command is strict, but the French
//! encouraged a degree of initiative. A general of another nation takes his own formation's
//! orders from above while a general above him is on the table; a French general changes his
//! own formation's orders himself, in person, at once.

mod common;

use common::*;
use engine::Rules;
use hex_miniatures::army::Kind;
use hex_miniatures::data::Tables;
use hex_miniatures::scenario::Scenario;
use hex_miniatures::setup::{FormationSetup, Setup, Standing, Start};
use hex_miniatures::{Action, Game, Stage};

/// Two armies of a corps and a brigade each: blue commands the Prussian corps, green its
/// brigade; red the French corps, rose its brigade.
fn corps_and_brigades() -> Setup {
    let mut s = battle(
        &[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "0808")],
        &[
            ("blue", 0, "0102"),
            ("green", 0, "0305"),
            ("red", 1, "1009"),
            ("rose", 1, "0808"),
        ],
        6,
    );
    for (id, side, commander, parent) in [("PB2", 0u8, 1usize, 0usize), ("FB2", 1, 3, 1)] {
        s.formations.push(FormationSetup {
            id: id.into(),
            side,
            commander: Some(commander),
            parent: Some(parent),
            order: Standing::Free,
        });
    }
    s.units[0].command = Some(2);
    s.units[1].command = Some(3);
    s
}

fn orders_by(g: &Game, general: &str) -> Vec<Action> {
    let gen = g.general_by_id(general).unwrap();
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v.into_iter()
        .filter(|a| matches!(a, Action::Order { general, .. } if *general == gen))
        .collect()
}

#[test]
fn initiative_7_1_hm56_the_shipped_tables_give_the_initiative_to_the_french_alone() {
    assert_eq!(Tables::shipped().initiative, ["French"]);
    let g = game(corps_and_brigades());
    assert!(!g.initiative(0) && g.initiative(1));
    // a nation without an army table is refused
    let bad = Tables::TOML.replace(
        "initiative = [\"French\"]",
        "initiative = [\"French\", \"Saxon\"]",
    );
    let e = Tables::from_toml(&bad).unwrap_err().to_string();
    assert!(e.contains("orders.initiative: 'Saxon'"), "{e}");
}

#[test]
fn initiative_7_1_hm56_a_prussian_general_takes_his_own_brigade_s_orders_from_above() {
    let mut g = game(corps_and_brigades());
    until(&mut g, 0, Stage::Orders, 500);
    // green commands PB2 but blue, above him, is on the table: the order comes from blue
    assert_eq!(refused(&g, "order green PB2 hold"), "7.1");
    assert!(orders_by(&g, "green").is_empty());
    let r = g
        .check(g.parse_action("order green PB2 hold").unwrap())
        .unwrap_err();
    assert!(r.why.contains("HM56"), "{}", r.why);
    // blue orders it (by a messenger: he is not with green)
    assert!(!orders_by(&g, "blue").is_empty());
    act(&mut g, "order blue PB2 hold");
    let pb2 = g.formation_by_id("PB2").unwrap();
    assert_eq!(g.formation_order(pb2), Standing::Free);
    assert_eq!(g.messengers().len(), 1);
}

#[test]
fn initiative_7_1_hm56_a_french_general_changes_his_own_brigade_s_orders_in_person() {
    let mut g = game(corps_and_brigades());
    until(&mut g, 1, Stage::Orders, 500);
    assert!(!orders_by(&g, "rose").is_empty());
    act(&mut g, "order rose FB2 hold");
    let fb2 = g.formation_by_id("FB2").unwrap();
    assert_eq!(g.formation_order(fb2), Standing::Hold);
    assert!(g.messengers().is_empty());
}

#[test]
fn initiative_7_1_hm56_with_nobody_above_him_on_the_table_a_general_orders_his_own() {
    // blue comes on only at 12:40: until then green has nobody above him
    let mut s = corps_and_brigades();
    s.generals[0].start = Start::Arrives {
        minute: 12 * 60 + 40,
        entry: vec![hex("0101")],
    };
    let mut g = game(s);
    until(&mut g, 0, Stage::Orders, 500);
    act(&mut g, "order green PB2 hold");
    let pb2 = g.formation_by_id("PB2").unwrap();
    assert_eq!(g.formation_order(pb2), Standing::Hold);
}

#[test]
fn initiative_7_1_hm56_at_moeckern_yorck_orders_the_prussians_and_the_french_divisions_their_own() {
    let mut g = Game::new(&Scenario::moeckern(), &Tables::shipped()).unwrap();
    // the French at noon: Marmont and each division's general order their own
    until(&mut g, 0, Stage::Movement, 500);
    // Yorck and Hiller ride on with the advance guard
    for general in ["yorck", "hiller"] {
        let gen = g.general_by_id(general).unwrap();
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        let ride = v
            .into_iter()
            .find(|a| matches!(a, Action::Ride { general, .. } if *general == gen))
            .unwrap_or_else(|| panic!("{general} may ride on"));
        g.apply(ride).unwrap();
    }
    until(&mut g, 1, Stage::Orders, 500);
    for general in ["marmont", "compans", "lagrange", "friederichs"] {
        assert!(!orders_by(&g, general).is_empty(), "{general}");
    }
    // the Prussians' next orders stage: Hiller's orders come from Yorck, who alone gives any
    until(&mut g, 0, Stage::Orders, 500);
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    let givers: std::collections::BTreeSet<String> = v
        .iter()
        .filter_map(|a| match a {
            Action::Order { general, .. } => Some(g.general(*general).id),
            _ => None,
        })
        .collect();
    assert_eq!(givers.into_iter().collect::<Vec<_>>(), ["yorck"]);
    assert!(orders_by(&g, "hiller").is_empty());
    assert_eq!(refused(&g, "order hiller PR-AG free"), "7.1");
}
