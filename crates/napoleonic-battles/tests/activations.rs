//! NB Action phase - activations: command points, officer initiative with written orders
//! (+2, then Auto), exclusions, unit initiative, march orders, once a turn.

mod common;
use common::*;
use engine::{Rules, Side, ToAct};
use napoleonic_battles::{Action, ActivationKind, Bonus, Event, Game, Step};

/// Victor's II Corps in 0411 and 0410, Lauriston's V Corps in `lauriston`, Eugen's Russians
/// in 0414 and 0415. The French act after the Allies' first pass.
fn setup(lauriston: &str) -> Game {
    let mut g = custom(
        4,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("FR.6", "infantry", 6, 4, VICTOR, "0410"),
            U("FR.20", "infantry", 6, 4, LAURISTON, lauriston),
            U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
            U("RU.4", "infantry", 6, 4, EUGEN, "0415"),
        ],
    );
    play(&mut g, &["pass", "roll 1"]);
    assert_eq!(g.to_act(), ToAct::Side(Side(0)));
    g
}

fn active(g: &Game, id: &str) -> bool {
    g.unit(uid(g, id)).active
}

#[test]
fn action_phase_a_command_point_activates_an_officer_automatically() {
    let mut g = setup("0407");
    play(&mut g, &["command FR.Murat FR.Victor", "go"]);
    assert_eq!(g.step(), Step::Movement, "no die");
    assert!(active(&g, "FR.4") && active(&g, "FR.6") && !active(&g, "FR.20"));
    let murat = g.leader_by_id("FR.Murat").unwrap();
    assert_eq!(g.leader(murat).unwrap().command_points_used, 1);
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::Activated {
            how: ActivationKind::Command,
            ..
        }
    )));
}

#[test]
fn action_phase_a_commander_activates_several_officers_at_once_within_his_rating() {
    let mut g = setup("0407");
    play(
        &mut g,
        &[
            "command FR.Murat FR.Victor",
            "command FR.Murat FR.Lauriston",
        ],
    );
    // Murat's rating is 2: both points spent
    assert!(g
        .legal_actions_text()
        .iter()
        .all(|t| !t.starts_with("command")));
    act(&mut g, "go");
    assert!(active(&g, "FR.4") && active(&g, "FR.20"));
    play(&mut g, &["end", "end"]); // movement, melee: the Allies' impulse
    play(&mut g, &["pass", "roll 1"]);
    let r = refusal(&g, "command FR.Murat FR.Victor");
    assert_eq!(r.case, "NB Action phase");
}

#[test]
fn action_phase_command_points_reach_officers_within_the_command_range_only() {
    let mut g = setup("0405"); // Lauriston 6 hexes from Murat (range 4)
    let r = refusal(&g, "command FR.Murat FR.Lauriston");
    assert_eq!(r.case, "NB Action phase");
    assert!(r.why.contains("beyond his command range"), "{}", r.why);
    // a march order may go instead
    assert!(g
        .legal_actions_text()
        .iter()
        .any(|t| t.starts_with("march FR.Murat FR.Lauriston")));
    act(&mut g, "march FR.Murat FR.Lauriston 0406");
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::MarchOrderSent { arrives: 2, .. })));
}

#[test]
fn action_phase_march_orders_execute_automatically_on_arrival() {
    let mut g = setup("0405");
    play(&mut g, &["march FR.Murat FR.Lauriston 0406", "pass"]);
    // the French passed after the Allies: the turn ends without a roll
    assert_eq!(g.turn(), 2);
    play(
        &mut g,
        &["roll 12", "roll 2", "initiative FR.Lauriston", "go"],
    );
    assert_eq!(g.step(), Step::Movement, "no initiative roll");
    assert!(active(&g, "FR.20"));
    // only to execute the written order: toward 0406
    let u = uid(&g, "FR.20");
    let away = g.check(Action::Move {
        unit: u,
        to: hex("0404"),
    });
    assert_eq!(away.unwrap_err().case, "NB50");
    act(&mut g, "move FR.20 0406");
}

#[test]
fn action_phase_a_failed_officer_is_spent_and_may_write_an_order_for_plus_two() {
    let mut g = setup("0407");
    play(&mut g, &["initiative FR.Victor", "go"]);
    assert_eq!(g.to_act(), ToAct::Chance);
    assert_eq!(g.activation_need(), 3, "Victor's initiative");
    act(&mut g, "roll 4");
    assert!(g.events().iter().any(|e| matches!(e, Event::Spent { .. })));
    assert_eq!(g.step(), Step::WriteOrder);
    act(&mut g, "order FR.Victor 0412");
    let v = g.leader_by_id("FR.Victor").unwrap();
    assert_eq!(g.officer_order(v), (Bonus::Plus2, Some(hex("0412"))));
    // Spent: not again this turn, nor his units by command
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    play(&mut g, &["pass", "roll 1"]);
    assert!(g
        .check(g.parse_action("initiative FR.Victor").unwrap())
        .is_err());
    assert!(g.check(g.parse_action("unit FR.4").unwrap()).is_err());
    // next turn: +2
    play(&mut g, &["pass", "roll 2", "roll 12"]); // the Allies have the initiative
    play(&mut g, &["pass", "roll 1", "initiative FR.Victor", "go"]);
    assert_eq!(g.activation_need(), 5);
    // a failed +2 attempt: the Auto side
    act(&mut g, "roll 6");
    assert_eq!(g.officer_order(v).0, Bonus::Auto);
    assert_ne!(g.step(), Step::WriteOrder);
    play(
        &mut g,
        &[
            "pass", "roll 1", "pass", "roll 2", "roll 12", "pass", "roll 1",
        ],
    );
    play(&mut g, &["initiative FR.Victor", "go"]);
    assert_eq!(g.step(), Step::Movement, "Auto passes without a roll");
    assert_eq!(g.officer_order(v), (Bonus::None, None));
    // executing the written order: no step away from 0412
    let r = g
        .check(Action::Move {
            unit: uid(&g, "FR.6"),
            to: hex("0409"),
        })
        .unwrap_err();
    assert_eq!(r.case, "NB50");
}

#[test]
fn action_phase_an_officer_may_set_his_written_order_aside() {
    let mut g = setup("0407");
    play(
        &mut g,
        &[
            "initiative FR.Victor",
            "go",
            "roll 6",
            "order FR.Victor 0412",
        ],
    );
    play(&mut g, &["pass", "roll 1", "set-aside FR.Victor"]);
    let v = g.leader_by_id("FR.Victor").unwrap();
    assert_eq!(g.officer_order(v), (Bonus::None, None));
}

#[test]
fn action_phase_units_left_out_are_designated_before_the_roll_and_act_later_by_unit_initiative() {
    let mut g = setup("0407");
    play(
        &mut g,
        &["initiative FR.Victor", "exclude FR.6", "go", "roll 1"],
    );
    assert!(active(&g, "FR.4") && !active(&g, "FR.6"));
    play(&mut g, &["end", "end", "pass", "roll 1"]);
    // FR.6 may still act, but only by unit initiative
    act(&mut g, "unit FR.6");
}

#[test]
fn action_phase_unit_initiative_takes_its_hex_and_one_more_within_two() {
    let mut g = setup("0409");
    act(&mut g, "unit FR.4");
    // a unit of another formation may not come along from another hex
    let r = refusal(&g, "include FR.20");
    assert_eq!(r.case, "NB Napoleon At Leipzig");
    act(&mut g, "include FR.6");
    assert_eq!(
        g.activation_need(),
        3,
        "the lead unit's initiative (morale)"
    );
    play(&mut g, &["go", "roll 4"]);
    // a failure spends every designated unit
    assert!(g.unit(uid(&g, "FR.4")).spent && g.unit(uid(&g, "FR.6")).spent);
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
}

#[test]
fn action_phase_each_unit_acts_once_a_turn() {
    let mut g = setup("0407");
    play(
        &mut g,
        &["unit FR.4", "go", "roll 1", "end", "end", "pass", "roll 1"],
    );
    let r = refusal(&g, "unit FR.4");
    assert_eq!(r.case, "NB Action phase");
    // Victor's activation now takes only FR.6
    play(&mut g, &["command FR.Murat FR.Victor", "go"]);
    assert!(active(&g, "FR.6") && !active(&g, "FR.4"));
}

#[test]
fn action_phase_a_unit_activation_beyond_its_officers_range_may_not_engage() {
    // Victor's FR.6 two hexes from the Russians, Victor himself 5 hexes away with FR.4.
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0407"),
            U("FR.6", "infantry", 6, 4, VICTOR, "0412"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
        ],
    );
    play(&mut g, &["pass", "roll 1", "unit FR.6", "go", "roll 1"]);
    // Victor is with FR.4 in 0407, 5 hexes away: FR.6 may not move next to the Russians
    let to = g
        .scenario()
        .map
        .neighbours(hex("0412"))
        .into_iter()
        .find(|&n| g.enemy_adjacent(0, n))
        .expect("a hex next to the Russians");
    let r = g
        .check(Action::Move {
            unit: uid(&g, "FR.6"),
            to,
        })
        .unwrap_err();
    assert_eq!(r.case, "NB Action phase");
}

/// Victor's II Corps in 0411 and, six hexes off, 0405; the Russians far away; the French to
/// act.
fn lend_setup() -> Game {
    let mut g = custom(
        4,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("FR.21", "infantry", 6, 4, VICTOR, "0405"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0716"),
        ],
    );
    play(&mut g, &["pass", "roll 1"]);
    assert_eq!(g.to_act(), ToAct::Side(Side(0)));
    g
}

#[test]
fn action_phase_a_commander_lends_his_rating_to_one_officer_a_turn() {
    let mut g = lend_setup();
    act(&mut g, "lend FR.Murat FR.Victor");
    let murat = g.leader_by_id("FR.Murat").unwrap();
    let victor = g.leader_by_id("FR.Victor").unwrap();
    assert_eq!(
        g.leader(murat).unwrap().command_points_used,
        2,
        "his whole rating"
    );
    assert_eq!(g.leader(victor).unwrap().lent, 2);
    // only one commander lends to the same officer in a turn
    assert_eq!(refusal(&g, "lend FR.Napoleon FR.Victor").case, "NB75");
    // the rating adds to Victor's command rating, so to his span (3 + command: 5, now 7),
    // not to his initiative (3): his formation's FR.21 six hexes away now activates with him
    play(&mut g, &["initiative FR.Victor", "go"]);
    assert_eq!(g.activation_need(), 3, "his own initiative");
    assert!(g.activation().unwrap().units.contains(&uid(&g, "FR.21")));
    act(&mut g, "roll 4");
    assert_eq!(g.step(), Step::WriteOrder, "4 fails against 3");
}

#[test]
fn action_phase_a_lent_rating_extends_the_officers_span_as_the_nlb_notes_show() {
    // NB Napoleon's Last Battles: Ney's 1 lent to Reille's 2 makes a span of 3 + 3 = 6. Here
    // Murat's 2 lent to Victor's 2: 3 + 4 = 7 hexes instead of 5.
    let mut g = lend_setup();
    let victor = g.leader_by_id("FR.Victor").unwrap();
    let far = uid(&g, "FR.21");
    assert!(!g.officer_units(victor).contains(&far), "6 hexes: beyond 5");
    act(&mut g, "lend FR.Murat FR.Victor");
    assert!(g.officer_units(victor).contains(&far), "within 7");
    // the next turn the loan is over
    play(
        &mut g,
        &["initiative FR.Victor", "go", "roll 1", "end", "end"],
    );
    play(&mut g, &["pass", "roll 1", "pass"]);
    assert_eq!(g.turn(), 2);
    assert_eq!(g.leader(victor).unwrap().lent, 0);
}

#[test]
fn take_back_every_choice_since_the_last_die_and_none_before() {
    let mut g = setup("0407");
    assert_eq!(g.undoable(), 0, "the pass die was just rolled");
    play(
        &mut g,
        &["command FR.Murat FR.Victor", "exclude FR.6", "go"],
    );
    assert_eq!(g.undoable(), 3);
    assert_eq!(g.undo_refusal().case, "NB58");
}

#[test]
fn action_phase_march_orders_take_two_turns_beyond_ten_cavalry_mp_and_none_beyond_twenty() {
    // Murat starts with Victor's first unit in 0411 and Lauriston with his FR.20 (NB8). From
    // 0411, 0407 is within 10 cavalry MP; 0331, twenty hexes south, is beyond 10 but within 20;
    // 2804, twenty-four columns east on clear ground, is beyond 20.
    let g = setup("0407");
    let murat = g.leader_by_id("FR.Murat").unwrap();
    let lauriston = g.leader_by_id("FR.Lauriston").unwrap();
    assert_eq!(g.march_delay(murat, lauriston), Some(1), "0407: one turn");
    let mut g = setup("0331");
    assert_eq!(g.march_delay(murat, lauriston), Some(2), "0331: two turns");
    act(&mut g, "march FR.Murat FR.Lauriston 0331");
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::MarchOrderSent { arrives: 3, .. })));
    // on turn 2 it has not arrived: Lauriston would roll
    play(
        &mut g,
        &["pass", "roll 12", "roll 2", "initiative FR.Lauriston", "go"],
    );
    assert_eq!(g.to_act(), ToAct::Chance);
    let g = setup("2804");
    assert_eq!(g.march_delay(murat, lauriston), None, "2804: out of reach");
    let r = refusal(&g, "march FR.Murat FR.Lauriston 2804");
    assert!(r.why.contains("20 cavalry movement points"), "{}", r.why);
}

#[test]
fn action_phase_a_commander_may_move_before_spending_his_command_points() {
    // Lauriston in 0405 is 6 hexes from Murat (0411), beyond his command range of 4
    let mut g = setup("0405");
    assert_eq!(
        refusal(&g, "command FR.Murat FR.Lauriston").case,
        "NB Action phase"
    );
    // he may ride first, but only where a point can then be spent (NB77)
    let legal = g.legal_actions_text();
    assert!(legal.contains(&"lead FR.Murat 0408".to_string()));
    assert!(!legal.contains(&"lead FR.Murat 0417".to_string()));
    assert_eq!(refusal(&g, "lead FR.Murat 0417").case, "NB77");
    // an officer does not move before his activation
    assert_eq!(refusal(&g, "lead FR.Victor 0409").case, "NB Action phase");
    act(&mut g, "lead FR.Murat 0408");
    let murat = g.leader_by_id("FR.Murat").unwrap();
    assert_eq!(
        g.leader_loc(murat),
        napoleonic_battles::LeaderLoc::Map(hex("0408"))
    );
    // the move opened a commander's activation: a point must be spent in it
    assert_eq!(g.step(), Step::Designate);
    assert_eq!(refusal(&g, "go").case, "NB77");
    assert_eq!(
        refusal(&g, "initiative FR.Lauriston").case,
        "NB Action phase"
    );
    play(&mut g, &["command FR.Murat FR.Lauriston", "go"]);
    assert!(active(&g, "FR.20") && !active(&g, "FR.4"));
    // then he accompanies one activated unit, with what is left of his 10 MP
    assert_eq!(refusal(&g, "lead FR.Murat 0407").case, "NB Action phase");
    act(&mut g, "lead FR.Murat 0405");
    assert_eq!(
        g.leader_loc(murat),
        napoleonic_battles::LeaderLoc::Map(hex("0405"))
    );
    // one move a turn: not again, before or during a later activation
    play(&mut g, &["end", "end", "pass", "roll 1"]);
    assert_eq!(g.to_act(), ToAct::Side(Side(0)));
    let r = refusal(&g, "lead FR.Murat 0404");
    assert_eq!(r.case, "NB Action phase");
    assert!(r.why.contains("one move"), "{}", r.why);
}

#[test]
fn action_phase_a_commander_who_moved_first_has_only_the_rest_of_his_allowance() {
    let mut g = setup("0405");
    // 0411 to 0402: nine clear hexes, 9 of his 10 MP; Lauriston is then 3 hexes away
    act(&mut g, "lead FR.Murat 0402");
    play(&mut g, &["command FR.Murat FR.Lauriston", "go"]);
    // 1 MP is left: FR.20 two hexes off is beyond it, one hex off is not
    act(&mut g, "move FR.20 0404");
    let r = refusal(&g, "lead FR.Murat 0404");
    assert_eq!(r.case, "NB Movement");
    assert!(r.why.contains("1 movement points he has left"), "{}", r.why);
    act(&mut g, "move FR.20 0403");
    act(&mut g, "lead FR.Murat 0403");
    let murat = g.leader_by_id("FR.Murat").unwrap();
    assert_eq!(
        g.leader_loc(murat),
        napoleonic_battles::LeaderLoc::Map(hex("0403"))
    );
}
