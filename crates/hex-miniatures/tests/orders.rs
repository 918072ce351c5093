//! Orders against the text: in person always understood, by messenger on 0.150 and above
//! ([7.1.2.1]), on 0.334 and above under restricted visibility ([24]); rulings HM12, HM13,
//! HM20.

use hex_miniatures::data::Tables;
use hex_miniatures::orders::Carried;
use hex_miniatures::prob::{Draw, Prob};
use hex_miniatures::weather::{restricted, visibility};

fn draw(n: u16) -> Draw {
    Draw::new(n).unwrap()
}

#[test]
fn orders_7_1_2_1_in_person_are_accepted_without_question() {
    let o = Tables::shipped().orders;
    assert_eq!(o.threshold(Carried::InPerson), None);
    assert!(o.understood(Carried::InPerson, draw(0)));
    assert_eq!(o.chance(Carried::InPerson), 1000);
}

#[test]
fn orders_7_1_2_1_by_messenger_understood_on_0_150_not_on_0_149() {
    let o = Tables::shipped().orders;
    let m = Carried::Messenger { restricted: false };
    assert_eq!(o.threshold(m), Some(Prob(150)));
    assert!(o.understood(m, draw(150)));
    assert!(!o.understood(m, draw(149)));
    assert_eq!(o.chance(m), 850);
}

#[test]
fn hm20_orders_24_under_restricted_visibility_the_failure_band_runs_to_0_333() {
    let o = Tables::shipped().orders;
    let m = Carried::Messenger { restricted: true };
    assert!(o.understood(m, draw(334)));
    assert!(!o.understood(m, draw(333)));
    assert_eq!(o.chance(m), 666);
}

#[test]
fn hm13_dusk_and_weather_both_restrict_the_messengers_visibility() {
    let w = Tables::shipped().weather;
    // clear weather, full daylight: unrestricted
    assert!(!restricted(visibility(None, None)));
    // fog at 3 hexes
    assert!(restricted(visibility(w.fog.visibility(3), None)));
    // 30 minutes before night
    assert!(restricted(visibility(None, w.before_night(30))));
    assert!(!restricted(visibility(None, w.before_night(120))));
}

#[test]
fn hm12_no_general_helps_a_messenger() {
    // The generals' bonus is for combat and rallies ([6.3], [9.2]): understood() takes none.
    let o = Tables::shipped().orders;
    let m = Carried::Messenger { restricted: false };
    assert_eq!((0..1000).filter(|&n| o.understood(m, draw(n))).count(), 850);
}
