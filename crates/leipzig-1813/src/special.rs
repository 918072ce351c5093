//! The special rules the scenarios switch on (Special Game Rules; Special Campaign-Game
//! Rules; the Reinforcement Chart's northern option): the Bavarian defection, the Austrian
//! intervention, the German rebellion and the northern option. The Saxon garrison, the
//! reconnaissance rule and the Gotha march live where they act (movement, combat, forced
//! march). The armistice's effects live where they act (zones of control, movement, combat);
//! its call is in `game.rs`.

use crate::game::{Event, Game, Status};
use crate::scenario::Force;

/// Whether the German rebellion is under way.
pub(crate) fn rebellion_on(g: &Game) -> bool {
    g.rebellion_from.is_some_and(|t| g.turn >= t)
}

impl Game {
    /// The special rules acting at the start of a player's movement phase, before
    /// reinforcements: forces that arrive (the Austrians, the Bavarians, the northern option)
    /// and the rebellion's test and removals.
    pub(crate) fn special_rules_at_start(&mut self) {
        let ctx = self.ctx.clone();
        let r = &ctx.scenario.rules;
        let (turn, p) = (self.turn, self.player);
        // German Rebellion: it begins on its turn unless the French hold both cities and the
        // Allied unit losses are at least three times theirs, or an armistice was called.
        if let Some(reb) = &r.german_rebellion {
            if p == 0 && turn == reb.turn && self.rebellion_from.is_none() {
                let held = reb.hold.iter().all(|c| {
                    crate::victory::CITIES
                        .iter()
                        .position(|x| x == c)
                        .is_some_and(|i| self.city_owner[i] == 0)
                });
                let ratio_met = self.losses[1].total()
                    >= reb.loss_ratio.saturating_mul(self.losses[0].total())
                    && self.losses[1].total() > 0;
                // German Rebellion 1: an armistice called averts it.
                if !(held && ratio_met) && self.armistice_from.is_none() {
                    self.rebellion_from = Some(turn);
                    self.events.push(Event::SpecialRule {
                        rule: "German Rebellion".into(),
                        text: format!(
                            "Germany rises: French reinforcements are cancelled and the French \
                             remove {} divisions each player-turn",
                            reb.removals_per_turn
                        ),
                    });
                }
            }
            if p == 0 && self.rebellion() {
                self.removals_due = reb.removals_per_turn;
                self.clamp_removals();
            }
        }
        // Austrian Intervention: the turn after it is triggered the Austrians deploy around
        // Prague as in scenario 3.
        if let (Some(t), Some(pl)) = (self.austria_intervened, &ctx.scenario.intervention) {
            if p == 1 && turn == t + 1 {
                let nat = self.nationality_of(1, pl.nationality.as_deref());
                let made = self.create_force(1, &pl.force, nat, ctx.specials.intervention);
                self.settle_arrivals(1, made);
            }
        }
        // Bavarian Defection: the Allies receive the Bavarians the next turn.
        if let (Some(t), Some(b)) = (self.bavaria_defected, &r.bavarian_defection) {
            if p == 1 && turn == t + 1 {
                let force = Force {
                    infantry: b.infantry,
                    cavalry: b.cavalry,
                    supply: b.supply,
                    ..Force::default()
                };
                let nat = self.nationality_of(1, Some(&b.nationality));
                let made = self.create_force(1, &force, nat, ctx.specials.bavaria);
                self.settle_arrivals(1, made);
            }
        }
        // Northern Option: the Allies the turn after the French take Berlin, the French two
        // turns after.
        if let (Some(t), Some(n)) = (self.berlin_taken, &r.northern_option) {
            let force = Force {
                infantry: n.infantry,
                cavalry: n.cavalry,
                ..Force::default()
            };
            let due = if p == 1 {
                n.allied_after
            } else {
                n.french_after
            };
            let set = if p == 1 {
                ctx.specials.north_allied
            } else {
                ctx.specials.north_french
            };
            if turn == t + due && !(p == 0 && self.rebellion()) {
                let made = self.create_force(p, &force, 0, set);
                self.settle_arrivals(p, made);
            }
        }
    }

    /// Removals are due only while the French have divisions to remove.
    pub(crate) fn clamp_removals(&mut self) {
        let have: u32 = self
            .units
            .iter()
            .filter(|u| u.on_map() && u.side == 0 && self.arm(u).is_combat())
            .map(|u| self.kind(u).worth)
            .sum();
        self.removals_due = self.removals_due.min(have);
    }

    /// Removes a French unit for the German rebellion.
    pub(crate) fn apply_disband(&mut self, u: usize) {
        let w = self.kind(&self.units[u]).worth;
        self.units[u].status = Status::Gone;
        self.removals_due = self.removals_due.saturating_sub(w);
        self.events.push(Event::SpecialRule {
            rule: "German Rebellion".into(),
            text: format!("{} is removed from the map", self.label(u)),
        });
        self.clamp_removals();
        self.update_cities();
    }

    /// Whether a unit may be removed for the German rebellion now.
    pub(crate) fn may_disband(&self, u: usize) -> bool {
        let x = &self.units[u];
        self.removals_due > 0 && x.on_map() && x.side == 0 && self.arm(x).is_combat()
    }

    fn nationality_of(&self, side: u8, name: Option<&str>) -> u8 {
        name.and_then(|n| {
            self.ctx
                .units
                .side(crate::game::DATA_SIDES[usize::from(side)])?
                .nationalities
                .iter()
                .position(|x| x == n)
        })
        .unwrap_or(0) as u8
    }

    /// The special rules tested at the end of each game-turn: the Bavarian defection and the
    /// Austrian intervention.
    pub(crate) fn special_rules_at_end(&mut self) {
        let ctx = self.ctx.clone();
        let r = &ctx.scenario.rules;
        if let Some(b) = &r.bavarian_defection {
            if self.bavaria_defected.is_none()
                && self.turn >= b.from_turn
                && self.turn < ctx.scenario.last_turn
            {
                let vp = self.points(false);
                if vp[0] < vp[1] {
                    self.bavaria_defected = Some(self.turn);
                    self.events.push(Event::SpecialRule {
                        rule: "Bavarian Defection".into(),
                        text: format!(
                            "the French victory points ({}) fall below the Allies' ({}): \
                             Bavaria joins the Allies next turn",
                            vp[0], vp[1]
                        ),
                    });
                }
            }
        }
        if let Some(a) = &r.austrian_intervention {
            let (fr, al) = (self.losses[0].combat, self.losses[1].combat);
            // Austrian Intervention 2: French combat losses twice the Allies' (we require some
            // French loss: nothing is not twice nothing, ruling L32).
            if self.austria_intervened.is_none()
                && self.turn >= a.from_turn
                && self.turn < ctx.scenario.last_turn
                && fr > 0
                && fr >= a.loss_ratio.saturating_mul(al)
            {
                self.austria_intervened = Some(self.turn);
                self.events.push(Event::SpecialRule {
                    rule: "Austrian Intervention".into(),
                    text: format!(
                        "French combat losses ({fr}) are at least {} times the Allies' ({al}): \
                         Austria enters the war",
                        a.loss_ratio
                    ),
                });
            }
        }
    }
}
