//! The victory table ([3.2], [12]) and the margins of victory ([14]); rulings HM8, HM11.

use hex_miniatures::data::Tables;
use hex_miniatures::victory::{level_reached, mark, marks, verdict, Margin};

#[test]
fn victory_3_2_marks_at_15_percent_and_every_5_after() {
    let t = Tables::shipped();
    let m = marks(200, t.first_level, t.level_step);
    assert_eq!(m[0], (15, 30));
    assert_eq!(m[1], (20, 40));
    assert_eq!(m.last(), Some(&(100, 200)));
    assert_eq!(m.len(), 18);
    // "how many base units are needed to reach" the level: rounded up
    assert_eq!(mark(101, 15), 16);
    assert_eq!(mark(100, 15), 15);
}

#[test]
fn hm8_a_level_is_reached_when_the_losses_reach_its_mark() {
    assert_eq!(level_reached(14, 100, 15, 5), None);
    assert_eq!(level_reached(15, 100, 15, 5), Some(15));
    assert_eq!(level_reached(19, 100, 15, 5), Some(15));
    assert_eq!(level_reached(41, 100, 15, 5), Some(40));
    assert_eq!(level_reached(0, 0, 15, 5), None);
}

#[test]
fn victory_13_reinforcements_lift_morale_by_raising_the_total() {
    // 30 lost of 150 is 20%; 50 more troops arrive: 30 of 200 is 15%.
    assert_eq!(level_reached(30, 150, 15, 5), Some(20));
    assert_eq!(level_reached(30, 200, 15, 5), Some(15));
}

#[test]
fn margins_14_draw_marginal_major_decisive() {
    let b = Tables::shipped().margins;
    assert_eq!(b, [5, 10, 25]);
    let v = |a: (u32, u32), c: (u32, u32)| verdict(a, c, b);
    assert_eq!(v((10, 100), (12, 100)).margin, Margin::Draw);
    assert_eq!(v((10, 100), (12, 100)).winner, None);
    assert_eq!(v((10, 100), (18, 100)).margin, Margin::Marginal);
    assert_eq!(v((10, 100), (18, 100)).winner, Some(0));
    assert_eq!(v((30, 100), (10, 100)).margin, Margin::Major);
    assert_eq!(v((30, 100), (10, 100)).winner, Some(1));
    assert_eq!(v((40, 100), (10, 100)).margin, Margin::Decisive);
}

#[test]
fn hm11_a_difference_of_exactly_5_10_or_25_falls_in_the_lower_band() {
    let b = [5, 10, 25];
    assert_eq!(verdict((5, 100), (10, 100), b).margin, Margin::Draw);
    assert_eq!(verdict((10, 100), (20, 100), b).margin, Margin::Marginal);
    assert_eq!(verdict((10, 100), (35, 100), b).margin, Margin::Major);
    // exact arithmetic with different totals: 1/3 against 1/12 is 25%
    assert_eq!(verdict((1, 3), (1, 12), b).margin, Margin::Major);
    assert_eq!(verdict((34, 100), (1, 12), b).margin, Margin::Decisive);
}

#[test]
fn hm22_crisis_13_a_test_when_a_level_is_first_reached_one_for_several_at_once() {
    use hex_miniatures::victory::crisis_due;
    assert_eq!(crisis_due(None, 14, 100, 15, 5), None);
    assert_eq!(crisis_due(None, 15, 100, 15, 5), Some(15));
    assert_eq!(crisis_due(Some(15), 19, 100, 15, 5), None);
    // 15% to 27% in one move: one test, at 25%
    assert_eq!(crisis_due(Some(15), 27, 100, 15, 5), Some(25));
    // reinforcements lower the share to 20%, losses bring it back to 25%: not again
    assert_eq!(crisis_due(Some(25), 30, 150, 15, 5), None);
    assert_eq!(crisis_due(Some(25), 38, 150, 15, 5), None);
    assert_eq!(crisis_due(Some(25), 45, 150, 15, 5), Some(30));
}
