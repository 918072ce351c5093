//! The orders stage ([7]): a general orders the formations under him; in person the order
//! holds at once, by a messenger it rides at 5 hexes a turn and is understood on 0.150 and
//! above (0.334 under restricted visibility) ([7.1.2.1], [24]); the messenger then rides back;
//! an enemy passing through takes him ([7.1.2.2]). The hierarchy is strict but for the French
//! ([7.1]; ruling HM56): a general of another nation changes his own formation's orders only
//! when nobody above him is on the table.

use crate::action::{Action, GeneralId};
use crate::event::Event;
use crate::game::{Game, Loc, Messenger, Task};
use crate::orders::Carried;
use crate::prob::Draw;
use crate::setup::Standing;
use engine::Refusal;
use hexmap::Hex;

/// The orders a general may give now: to each formation under him, hold, free, or advance
/// on an objective ([7.1.2]; HM29).
pub(crate) fn order_actions(g: &Game, out: &mut Vec<Action>) {
    for i in 0..g.general_count() {
        let gen = GeneralId(i as u8);
        if !may_order(g, gen) {
            continue;
        }
        for f in g.commanded(gen) {
            if from_above(g, gen, f).is_some() {
                continue;
            }
            let now = g.formation_order(f);
            let mut push = |order: Standing| {
                if order != now {
                    out.push(Action::Order {
                        general: gen,
                        formation: f,
                        order,
                    });
                }
            };
            push(Standing::Hold);
            push(Standing::Free);
            for &h in g.objectives() {
                push(Standing::Advance(h));
            }
        }
    }
}

/// [7.1] (HM56): the hierarchy of command is strictly observed, except by the nations of
/// `[orders] initiative` (the French): a general of another nation may not change the orders of
/// a formation he commands himself while a general above him (the commander of a formation
/// over it) is on the table: its orders come from above. He still orders the formations under
/// it. The refusal, if this order is one.
fn from_above(g: &Game, gen: GeneralId, f: u8) -> Option<Refusal> {
    let fs = &g.setup().formations;
    let i = usize::from(gen.0);
    if fs.get(usize::from(f))?.commander != Some(i) || g.initiative(g.setup().generals[i].side) {
        return None;
    }
    let mut p = fs[usize::from(f)].parent;
    let mut n = 0;
    while let Some(x) = p {
        if let Some(c) = fs[x].commander {
            if c != i && g.general_hex(c).is_some() {
                let above = &g.setup().generals[c].id;
                return Some(Refusal::new(
                    "7.1",
                    format!(
                        "the hierarchy of command is strict: his own formation's orders come from \
                         {above}, above him; only the French act on their own initiative (HM56)"
                    ),
                ));
            }
        }
        p = fs[x].parent;
        n += 1;
        if n > fs.len() {
            break;
        }
    }
    None
}

fn may_order(g: &Game, gen: GeneralId) -> bool {
    let i = usize::from(gen.0);
    g.setup().generals[i].side == g.phasing().0
        && matches!(g.st.generals[i].loc, Loc::Map(_))
        && !g.st.generals[i].ordered
}

pub(crate) fn check_order(g: &Game, a: Action) -> Result<(), Refusal> {
    let Action::Order {
        general,
        formation,
        order,
    } = a
    else {
        return Ok(());
    };
    if usize::from(general.0) >= g.general_count()
        || usize::from(formation) >= g.setup().formations.len()
    {
        return Err(Refusal::new("action", "no such general or formation"));
    }
    if !may_order(g, general) {
        return Err(Refusal::new(
            "7.1.2",
            "a general of the phasing side, on the table, gives one order a stage",
        ));
    }
    if !g.commanded(general).contains(&formation) {
        return Err(Refusal::new(
            "7.1",
            "a general orders only the formations under his command (HM29)",
        ));
    }
    if let Some(r) = from_above(g, general, formation) {
        return Err(r);
    }
    if g.formation_order(formation) == order {
        return Err(Refusal::new(
            "7.1.2",
            "the formation already has that order",
        ));
    }
    if let Standing::Advance(h) = order {
        if !g.objectives().contains(&h) {
            return Err(Refusal::new(
                "7.1.1",
                format!("{h} is not an objective (a named place, a town or a work) (HM29)"),
            ));
        }
    }
    Ok(())
}

/// Where a formation's messenger rides: its commander, or else its first unit on the table.
fn recipient(g: &Game, f: u8) -> Option<Hex> {
    let fs = &g.setup().formations[usize::from(f)];
    if let Some(h) = fs.commander.and_then(|c| g.general_hex(c)) {
        return Some(h);
    }
    (0..g.unit_count())
        .filter(|&i| g.setup().units[i].command == Some(usize::from(f)))
        .find_map(|i| g.hex_of(crate::action::UnitId(i as u8)))
}

pub(crate) fn give_order(g: &mut Game, a: Action) {
    let Action::Order {
        general,
        formation,
        order,
    } = a
    else {
        return;
    };
    let i = usize::from(general.0);
    g.st.generals[i].ordered = true;
    let here = g.general_hex(i);
    let commander = g.setup().formations[usize::from(formation)].commander;
    // [7.1.2.1]: in person (the general commands it, or stands with its commander)
    let in_person = commander == Some(i)
        || commander.is_some_and(|c| g.general_hex(c).is_some() && g.general_hex(c) == here);
    g.events.push(Event::OrderGiven {
        general,
        formation,
        order,
        in_person,
    });
    if in_person {
        set_order(g, formation, order);
    } else if let Some(at) = here {
        g.st.messengers.push(Messenger {
            side: g.setup().generals[i].side,
            from: general,
            formation,
            order: Some(order),
            at,
        });
    }
}

/// An order reaches a formation and the formations under it.
fn set_order(g: &mut Game, f: u8, order: Standing) {
    let fs = &g.setup().formations;
    let under: Vec<usize> = (0..fs.len())
        .filter(|&x| {
            let mut p = Some(x);
            let mut n = 0;
            while let Some(y) = p {
                if y == usize::from(f) {
                    return true;
                }
                p = fs[y].parent;
                n += 1;
                if n > fs.len() {
                    break;
                }
            }
            false
        })
        .collect();
    for x in under {
        g.st.orders[x] = order;
    }
}

/// One step toward a hex by open ground (not into an enemy's hex, not over an unbridged
/// river), the first such neighbour that comes nearer.
fn step_toward(g: &Game, side: u8, from: Hex, to: Hex) -> Option<Hex> {
    let map = &g.setup().map;
    let d0 = map.distance(from, to);
    map.neighbours(from)
        .into_iter()
        .filter(|&n| {
            map.contains(n)
                && !g.enemy_in(side, n)
                && !g.barred(from, n)
                && g.chart()
                    .may_occupy(g.hex_kind(n), crate::army::Arm::Command)
        })
        .filter(|&n| map.distance(n, to) < d0)
        .min_by_key(|&n| (map.distance(n, to), n))
}

impl Game {
    /// The hexes messenger `k` of [`Game::messengers`] will ride through, turn after turn, from
    /// where he is to his goal (the formation's commander, or his general riding back), as the
    /// rules ride him now ([2.4.6.3], [7.1.2.1]); his goal last. Empty if he is there, has
    /// nobody to ride to or is stopped.
    pub fn messenger_route(&self, k: usize) -> Vec<Hex> {
        let Some(m) = self.st.messengers.get(k) else {
            return Vec::new();
        };
        let goal = if m.order.is_some() {
            recipient(self, m.formation)
        } else {
            self.general_hex(usize::from(m.from.0))
        };
        let Some(goal) = goal else {
            return Vec::new();
        };
        let mut route = Vec::new();
        let mut at = m.at;
        while at != goal && route.len() < 64 {
            match step_toward(self, m.side, at, goal) {
                Some(n) => {
                    route.push(n);
                    at = n;
                }
                None => break,
            }
        }
        route
    }
}

/// At the end of its side's orders stage every messenger rides up to 5 hexes ([2.4.6.3]); one
/// that reaches its formation draws to be understood (queued), one back home is done.
pub(crate) fn ride_messengers(g: &mut Game) {
    let side = g.phasing().0;
    let speed = g.tables().orders.messenger_movement;
    let mut k = 0;
    while k < g.st.messengers.len() {
        let m = g.st.messengers[k].clone();
        if m.side != side {
            k += 1;
            continue;
        }
        let goal = if m.order.is_some() {
            recipient(g, m.formation)
        } else {
            g.general_hex(usize::from(m.from.0))
        };
        let Some(goal) = goal else {
            // nobody to ride to: the order is lost
            g.st.messengers.remove(k);
            continue;
        };
        let mut at = m.at;
        for _ in 0..speed {
            if at == goal {
                break;
            }
            match step_toward(g, side, at, goal) {
                Some(n) => at = n,
                None => break,
            }
        }
        g.st.messengers[k].at = at;
        if at == goal {
            if m.order.is_some() {
                g.st.queue.push_back(Task::Deliver(k as u8));
            } else {
                g.st.messengers.remove(k);
                continue;
            }
        }
        k += 1;
    }
}

/// The messenger's draw ([7.1.2.1], [24]; HM20).
pub(crate) fn deliver(g: &mut Game, m: usize, n: u16) {
    let Some(msg) = g.st.messengers.get(m).cloned() else {
        return;
    };
    let Some(order) = msg.order else {
        return;
    };
    let restricted = crate::weather::restricted(g.visibility());
    let how = Carried::Messenger { restricted };
    let orders = g.tables().orders;
    let draw = Draw::new(n).unwrap_or(Draw::new(0).expect("0"));
    let understood = orders.understood(how, draw);
    let needed = orders.threshold(how).map_or(0, |p| p.0);
    if understood {
        set_order(g, msg.formation, order);
    }
    g.events.push(Event::OrderDelivered {
        formation: msg.formation,
        order,
        draw: n,
        needed,
        understood,
    });
    // [7.1.2.1]: he rides back to report
    g.st.messengers[m].order = None;
}
