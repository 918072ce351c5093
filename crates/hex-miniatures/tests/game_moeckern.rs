//! The game built from the Möckern scenario: seats, clock, the set-up and the arrivals
//! ([3.2], [5.1.2]), the light at dusk ([24]).

use engine::{Rules, Side, ToAct};
use hex_miniatures::data::Tables;
use hex_miniatures::game::Loc;
use hex_miniatures::scenario::Scenario;
use hex_miniatures::{Action, Game, Stage, UnitId};

fn moeckern() -> (Scenario, Game) {
    let s = Scenario::moeckern();
    let g = Game::new(&s, &Tables::shipped()).unwrap();
    (s, g)
}

#[test]
fn moeckern_5_1_2_the_prussians_attack_first_from_noon_to_night() {
    let (s, g) = moeckern();
    assert_eq!(g.seat_name(Side(0)), s.sides[0].name);
    assert_eq!(g.seat_name(Side(1)), s.sides[1].name);
    assert_eq!(g.phasing().0, 0);
    assert_eq!((g.turn(), g.turns(), g.minute()), (1, 36, 720));
    assert_eq!(g.light(), None);
    assert!(matches!(g.to_act(), ToAct::Side(Side(0))));
}

#[test]
fn moeckern_3_2_the_set_up_is_on_the_table_and_the_arrivals_wait_their_time() {
    let (s, g) = moeckern();
    let mut on = [0u32; 2];
    for i in 0..g.unit_count() {
        let u = g.unit(UnitId(i as u8));
        match (&s.units[i].start, u.loc) {
            (hex_miniatures::scenario::Start::SetUp(h), Loc::Map(at)) => {
                assert_eq!(*h, at);
                on[usize::from(u.side)] += u32::from(u.bases);
            }
            (hex_miniatures::scenario::Start::Arrives(_), Loc::Waiting) => {}
            (st, l) => panic!("{}: {st:?} but {l:?}", u.id),
        }
    }
    // the victory table counts the troops on the field ([3.2])
    assert_eq!(g.casualties()[0].1, on[0]);
    assert_eq!(g.casualties()[1].1, on[1]);
    assert!(on[1] > 0);
}

#[test]
fn moeckern_3_2_the_advance_guard_enters_at_noon() {
    let (_, mut g) = moeckern();
    for _ in 0..50 {
        if g.stage() == Stage::Movement {
            break;
        }
        let a = g.parse_action("end").unwrap();
        g.apply(a).unwrap();
    }
    assert_eq!(g.stage(), Stage::Movement);
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    let entering = v.iter().any(|a| match a {
        Action::Move { unit, .. } => g.hex_of(*unit).is_none(),
        _ => false,
    });
    assert!(entering, "a Prussian arrival of 12:00 may enter");
}
