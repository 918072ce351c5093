//! The numbers in the computer's explanations are the numbers of the game (issue 13): every
//! attack a declaration sentence names ("PR.9 on FR.26 at 1-2: …") is a combat the rules hold
//! once the declarations end, with the same attackers and defenders, and its stated odds are
//! the rules' own column, or a lower one the player then resolves at (7.9).

use ai::{HeuristicPlayer, Player};
use engine::{Rules, ToAct};
use naw::{Action, Game, Step};
use std::collections::BTreeSet;
use std::sync::Arc;

/// One attack as a declaration sentence names it.
#[derive(Debug)]
struct Said {
    attackers: BTreeSet<String>,
    defenders: BTreeSet<String>,
    column: String,
}

/// The attacks of "declares N attacks. A, B on D at C: why. …" (nothing for "no attack").
fn said_attacks(sentence: &str) -> Vec<Said> {
    let Some(rest) = sentence.strip_prefix("declares ") else {
        return Vec::new();
    };
    let (_, list) = rest.split_once(". ").expect("the attacks follow the count");
    // each attack starts "IDS on IDS at COLUMN: "
    let mut out = Vec::new();
    for part in list.split(". ") {
        let Some((head, _why)) = part.split_once(": ") else {
            continue;
        };
        let Some((who, column)) = head.rsplit_once(" at ") else {
            continue;
        };
        let Some((att, def)) = who.split_once(" on ") else {
            continue;
        };
        let set = |s: &str| s.split(", ").map(str::to_string).collect::<BTreeSet<_>>();
        out.push(Said {
            attackers: set(att),
            defenders: set(def),
            column: column.to_string(),
        });
    }
    out
}

#[test]
fn the_odds_a_declaration_states_are_the_rules_odds() {
    let mut checked = 0;
    for (id, seed) in [
        ("bon-grand-battle", 11),
        ("bon-grand-battle", 12),
        ("bon-first-day", 13),
    ] {
        checked += check_game(id, seed);
    }
    assert!(checked >= 20, "only {checked} attacks said");
}

/// Plays six game-turns of `id` between two heuristic players, checking every declaration
/// sentence against the combats: the attacks checked.
fn check_game(id: &str, seed: u64) -> usize {
    let sc = Arc::new(scenarios::load(id).expect("shipped scenario"));
    let mut g = Game::from_arc(sc);
    let mut dice = engine::Dice::new(seed);
    let mut players = [HeuristicPlayer::new(seed), HeuristicPlayer::new(seed + 1)];
    let mut pending: Vec<Said> = Vec::new();
    // the columns the player said it would resolve at, below the rules' column (7.9)
    let mut reduced: Vec<(BTreeSet<String>, String)> = Vec::new();
    let mut checked = 0;
    for _ in 0..200_000 {
        if g.turn() > 6 {
            break;
        }
        // the declarations are over: every attack said is a combat the rules hold
        if !pending.is_empty() && g.step() != Step::Declare {
            let combats = g.combats();
            for s in pending.drain(..) {
                let c = combats
                    .iter()
                    .find(|c| {
                        c.defenders
                            .iter()
                            .map(|&u| g.id(u).to_string())
                            .collect::<BTreeSet<_>>()
                            == s.defenders
                    })
                    .unwrap_or_else(|| panic!("no combat against {:?}: {combats:?}", s.defenders));
                let attackers: BTreeSet<String> =
                    c.attackers.iter().map(|&u| g.id(u).to_string()).collect();
                assert_eq!(
                    attackers, s.attackers,
                    "the attackers said of {:?}",
                    s.defenders
                );
                let column = c.odds.column.name().to_string();
                let stated = naw::Column::parse(&s.column).expect("a column");
                assert!(
                    stated <= c.odds.column,
                    "{:?}: said {} but the rules have {column}",
                    s.defenders,
                    s.column
                );
                if s.column != column {
                    reduced.push((s.defenders.clone(), s.column.clone()));
                }
                checked += 1;
            }
        }
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("a chance event");
                g.apply(a).unwrap();
            }
            ToAct::Side(side) => {
                let p = &mut players[side.0 as usize];
                let step = g.step();
                let a = p.choose(&g);
                if step == Step::Declare && side == g.phasing() {
                    if let Some(s) = p.explain() {
                        if s.starts_with("declares ") {
                            pending = said_attacks(&s);
                            assert!(!pending.is_empty(), "{s}");
                        }
                    }
                }
                // a combat said to be fought at reduced odds is resolved at them (7.9)
                if let Action::Resolve { .. } = a {
                    let text = g.action_text(a);
                    if let Some(i) = reduced.iter().position(|(d, _)| {
                        d.iter()
                            .any(|id| text.split_whitespace().nth(1) == Some(id))
                    }) {
                        let (_, column) = reduced.remove(i);
                        assert!(
                            text.ends_with(&format!(" at {column}")),
                            "said {column}, played {text}"
                        );
                    }
                }
                g.apply(a).expect("a legal choice");
            }
        }
    }
    checked
}

#[test]
fn a_declaration_sentence_reads_back() {
    let s = "declares 2 attacks. PR.9, PR.10 on FR.26 at 1-2: a holding attack (7.5). RU.3 on FR.4, FR.5 at 2-1: it pays";
    let a = said_attacks(s);
    assert_eq!(a.len(), 2);
    assert_eq!(a[0].column, "1-2");
    assert!(a[0].attackers.contains("PR.10"));
    assert_eq!(a[1].defenders.len(), 2);
    assert!(said_attacks("no attack this phase").is_empty());
}
