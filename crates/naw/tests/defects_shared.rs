//! Issue 10, defect 6: one formatting of half movement points and one reading of a unit word,
//! shared by the rules' refusals, the command line and the views.

mod common;
use common::*;
use engine::Rules;

#[test]
fn movement_points_are_written_in_halves_one_way() {
    assert_eq!(naw::fmt_half(0), "0");
    assert_eq!(naw::fmt_half(1), "½");
    assert_eq!(naw::fmt_half(2), "1");
    assert_eq!(naw::fmt_half(5), "2½");
    assert_eq!(naw::fmt_half(12), "6");
}

#[test]
fn a_unit_is_found_by_id_in_any_case_or_by_its_hex() {
    let g = Build::new(6, 6)
        .unit("B.1 inf 6-4 0203")
        .unit("R.1 inf 6-4 0505")
        .game();
    let b1 = uid(&g, "B.1");
    assert_eq!(g.find_unit("B.1"), Some(b1));
    assert_eq!(g.find_unit("b.1"), Some(b1));
    assert_eq!(g.find_unit("0203"), Some(b1));
    assert_eq!(g.find_unit("0204"), None);
    assert_eq!(g.find_unit("9999"), None);
    assert_eq!(g.find_unit("X.1"), None);
    // the action parser reads unit words the same way
    assert_eq!(
        g.parse_action("move 0203 0204").unwrap(),
        g.parse_action("move b.1 0204").unwrap()
    );
}
