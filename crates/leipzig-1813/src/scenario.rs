//! The eight scenarios (How to Use the Scenarios; the Standard Deployment & Order of Battle
//! charts; the Reinforcement Chart; the Special Game Rules) as data: `data/scenarios/N.toml`
//! and the shared `data/reinforcements.toml`, read into a validated [`Scenario`] whose places
//! are resolved to hexes of the central Europe map ([`Europe`]).
//!
//! A set-up is a choice the owner makes before play: its allowed hexes are kept as a set (a
//! place "directly on", a place and a radius "within two hexes of", or an area such as Austria),
//! with the force to be placed in them counted in divisions, supply units, depots and leaders
//! (units may begin combined or broken down: How to Use the Scenarios). The charts' readings
//! are in `docs/leipzig-1813.md` ("The counters and the scenarios"), the rulings L16... in
//! `docs/rulings.md`.
//!
//! ```
//! use leipzig_1813::scenario::{Location, Scenario};
//!
//! let s = Scenario::leipzig(1).unwrap();
//! assert_eq!((s.first_turn, s.last_turn), (1, 12));
//! // The French spring army: 23 infantry and 5 cavalry divisions, 4 supply units, 8 leaders.
//! let f = s.setup_total("French");
//! assert_eq!((f.infantry, f.cavalry, f.supply, f.leaders.len()), (23, 5, 4, 8));
//! // The Allies at Leipzig choose among the 19 hexes within two hexes of it.
//! let leipzig = s
//!     .setup
//!     .iter()
//!     .find(|p| matches!(&p.location, Location::Place { name, .. } if name == "Leipzig"))
//!     .unwrap();
//! assert_eq!(leipzig.hexes.len(), 19);
//! ```

use crate::data::{DataError, Tables};
use crate::europe::{Area, Europe};
use crate::leaders::{PER_SIDE, SIDES};
use crate::units::Units;
use hexmap::Hex;
use serde::Deserialize;

/// The scenario file's format tag.
pub const FORMAT: &str = "grognard-leipzig-1813-scenario/1";
/// The reinforcement chart's format tag.
pub const REINFORCEMENTS_FORMAT: &str = "grognard-leipzig-1813-reinforcements/1";

/// The shipped scenario files, scenario 1 first.
pub const SCENARIO_TOML: [&str; 8] = [
    include_str!("../data/scenarios/1.toml"),
    include_str!("../data/scenarios/2.toml"),
    include_str!("../data/scenarios/3.toml"),
    include_str!("../data/scenarios/4.toml"),
    include_str!("../data/scenarios/5.toml"),
    include_str!("../data/scenarios/6.toml"),
    include_str!("../data/scenarios/7.toml"),
    include_str!("../data/scenarios/8.toml"),
];
/// The shipped reinforcement chart.
pub const REINFORCEMENTS_TOML: &str = include_str!("../data/reinforcements.toml");

/// Units counted as the charts count them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Force {
    /// Infantry divisions (a corps counts two, an army six).
    #[serde(default)]
    pub infantry: u32,
    /// Cavalry divisions (a cavalry corps counts two).
    #[serde(default)]
    pub cavalry: u32,
    /// Supply units.
    #[serde(default)]
    pub supply: u32,
    /// Depots.
    #[serde(default)]
    pub depots: u32,
    /// Leaders by counter number.
    #[serde(default)]
    pub leaders: Vec<u8>,
}

impl Force {
    /// Adds another force's counts (leaders appended).
    pub fn add(&mut self, o: &Force) {
        self.infantry += o.infantry;
        self.cavalry += o.cavalry;
        self.supply += o.supply;
        self.depots += o.depots;
        self.leaders.extend_from_slice(&o.leaders);
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        *self == Force::default()
    }
}

/// Where a set-up or a reinforcement goes, as written: a place (with a radius), or an area.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryFile {
    side: String,
    #[serde(default)]
    turn: Option<u32>,
    #[serde(default)]
    at: Option<String>,
    #[serde(default)]
    within: u32,
    #[serde(default)]
    area: Option<Area>,
    #[serde(default)]
    nationality: Option<String>,
    #[serde(default)]
    printed: Option<String>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    needs_austria: bool,
    #[serde(default)]
    infantry: u32,
    #[serde(default)]
    cavalry: u32,
    #[serde(default)]
    supply: u32,
    #[serde(default)]
    depots: u32,
    #[serde(default)]
    leaders: Vec<u8>,
}

impl EntryFile {
    /// Where, for messages: the place, or the area.
    fn where_(&self) -> String {
        match (&self.at, self.area) {
            (Some(p), _) => p.clone(),
            (None, Some(a)) => format!("{a:?}"),
            (None, None) => "nowhere".into(),
        }
    }
}

/// Where units go, resolved on the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// Within `radius` hexes of a place (0: directly on it).
    Place {
        /// The place as the chart names it.
        name: String,
        /// Its hex.
        hex: Hex,
        /// 0 for "directly on", 2 for "within two hexes of".
        radius: u32,
    },
    /// Anywhere in an area.
    Area(Area),
}

/// A force placed before play, or arriving on a turn, with the hexes it may be placed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// `French` or `Allied`.
    pub side: String,
    /// The turn it arrives (reinforcements); `None` for the initial set-up.
    pub turn: Option<u32>,
    /// Where, as the chart says it.
    pub location: Location,
    /// The hexes its units may be placed in (a choice of its owner), in numbering order.
    pub hexes: Vec<Hex>,
    /// The counters' nationality where the chart implies one (Saxon, Austrian).
    pub nationality: Option<String>,
    /// The units.
    pub force: Force,
    /// The chart's cell as printed (reinforcements).
    pub printed: Option<String>,
    /// Why, where we read the chart.
    pub note: Option<String>,
    /// Arrives only while Austria is at war (Prague's reinforcements: the chart's note).
    pub needs_austria: bool,
}

/// Whether units may enter Austria (the scenarios' "No units may enter Austria").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AustriaAccess {
    /// No unit may enter; one retreated into it is eliminated.
    Closed,
    /// Both sides may enter.
    Open,
    /// Closed until the Austrian intervention (the campaign game).
    ClosedUntilIntervention,
}

/// The Saxon garrison (Special Game Rules): the units at its place may not move, attack or be
/// attacked, nor be passed through, before `moves_from_turn`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaxonGarrison {
    /// The garrison's place (Torgau).
    pub at: String,
    /// The first turn they may move and fight.
    pub moves_from_turn: u32,
}

/// The free forced march of the units that begin at Gotha (the spring scenarios' note).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GothaMarch {
    /// The place the units begin at.
    pub at: String,
    /// The French player-turn it applies in.
    pub turn: u32,
    /// The multiple of the movement allowance, with no table and no supply unit.
    pub multiple: u32,
}

/// The Bavarian defection (Special Game Rules): at the end of a turn with the French victory
/// points below the Allies', the Allies receive this force the next turn.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BavarianDefection {
    /// The first turn at whose end the test is made.
    pub from_turn: u32,
    /// Where the Bavarians enter.
    pub area: Area,
    /// Their nationality.
    pub nationality: String,
    /// Divisions of infantry.
    pub infantry: u32,
    /// Divisions of cavalry.
    pub cavalry: u32,
    /// Supply units.
    pub supply: u32,
}

/// The armistice (Special Campaign-Game Rules).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armistice {
    /// The French may call it at the start of a French player-turn after this turn.
    pub after_turn: u32,
    /// Complete turns it lasts.
    pub turns: u32,
    /// Allied units that leave by one edge re-enter by the other on this turn after leaving.
    pub reentry_after: u32,
    /// Divisions a fortress may keep as a garrison across the line.
    pub fortress_garrison: u32,
    /// How many the French may call in a game.
    pub per_game: u32,
}

/// The German rebellion (Special Campaign-Game Rules).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GermanRebellion {
    /// The turn it begins unless averted.
    pub turn: u32,
    /// The places the French must both hold to avert it (with the unit losses below).
    pub hold: Vec<String>,
    /// The Allied unit losses must be at least this multiple of the French to avert it.
    pub loss_ratio: u32,
    /// Divisions the French remove at the start of each French player-turn once it begins.
    pub removals_per_turn: u32,
}

/// The Austrian intervention (Special Campaign-Game Rules): the Austrians deploy the next turn
/// as in scenario 3.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AustrianIntervention {
    /// The loss test is made at the end of each turn from this one.
    pub from_turn: u32,
    /// French combat losses (victory points) at least this multiple of the Allies' trigger it.
    pub loss_ratio: u32,
    /// Where the Austrians deploy.
    pub at: String,
    /// Within how many hexes of it.
    pub within: u32,
    /// Their nationality.
    pub nationality: String,
    /// Divisions of infantry.
    pub infantry: u32,
    /// Divisions of cavalry.
    pub cavalry: u32,
    /// Supply units.
    pub supply: u32,
    /// Leaders by number.
    pub leaders: Vec<u8>,
}

/// The northern option (the Reinforcement Chart's note): after the French take the place, the
/// Allies receive a force the next turn and the French an equal one two turns after.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NorthernOption {
    /// The place whose capture triggers it (Berlin).
    pub trigger: String,
    /// Turns after the capture the Allied force arrives.
    pub allied_after: u32,
    /// Where it enters (the east bank of the Elbe).
    pub allied_area: Area,
    /// Turns after the capture the French force arrives.
    pub french_after: u32,
    /// Where it enters (the west bank of the Elbe).
    pub french_area: Area,
    /// Divisions of infantry each side receives.
    pub infantry: u32,
    /// Divisions of cavalry each side receives.
    pub cavalry: u32,
}

/// The special rules a scenario switches on, with their parameters.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialRules {
    /// Who may enter Austria.
    pub austria: AustriaAccess,
    /// The Reconnaissance rule (Allied units hidden) through the end of this turn.
    #[serde(default)]
    pub reconnaissance_until: Option<u32>,
    /// The Saxon garrison.
    #[serde(default)]
    pub saxon_garrison: Option<SaxonGarrison>,
    /// The free march from Gotha.
    #[serde(default)]
    pub gotha_march: Option<GothaMarch>,
    /// The Bavarian defection.
    #[serde(default)]
    pub bavarian_defection: Option<BavarianDefection>,
    /// The armistice.
    #[serde(default)]
    pub armistice: Option<Armistice>,
    /// The German rebellion.
    #[serde(default)]
    pub german_rebellion: Option<GermanRebellion>,
    /// The Austrian intervention.
    #[serde(default)]
    pub austrian_intervention: Option<AustrianIntervention>,
    /// The northern option.
    #[serde(default)]
    pub northern_option: Option<NorthernOption>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    format: String,
    id: String,
    number: u8,
    title: String,
    first_turn: u32,
    last_turn: u32,
    first_player: String,
    deploys_first: String,
    reinforcement_turns: [u32; 2],
    victory: u8,
    rules: SpecialRules,
    setup: Vec<EntryFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReinforcementsFile {
    format: String,
    reinforcement: Vec<EntryFile>,
}

/// A validated scenario: every place resolved, every set-up's hexes on the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// `leipzig1813-N`.
    pub id: String,
    /// N, 1..=8.
    pub number: u8,
    /// The title.
    pub title: String,
    /// The first game-turn.
    pub first_turn: u32,
    /// The last game-turn (the game ends when it is complete).
    pub last_turn: u32,
    /// The side that moves first (the French, always).
    pub first_player: String,
    /// The side that deploys first (the Allies, always).
    pub deploys_first: String,
    /// The row of the Victory Point Schedule (`Tables::victory`).
    pub victory: u8,
    /// The special rules switched on.
    pub rules: SpecialRules,
    /// The initial set-up, chart order.
    pub setup: Vec<Placement>,
    /// The reinforcements, by turn.
    pub reinforcements: Vec<Placement>,
    /// The Austrian intervention's deployment, resolved, where the rule is on.
    pub intervention: Option<Placement>,
    /// XXH3 of the scenario's text and the reinforcement chart's, for a game's scenario
    /// digest (with `Tables::digest` and `Units::digest`).
    pub digest: u64,
}

impl Scenario {
    /// The shipped scenario `n` (1..=8) on the shipped map and data; `None` for another number.
    pub fn leipzig(n: u8) -> Option<Scenario> {
        let text = SCENARIO_TOML.get(usize::from(n).checked_sub(1)?)?;
        Some(
            Scenario::from_toml(
                text,
                REINFORCEMENTS_TOML,
                &Europe::central_europe(),
                &Units::leipzig(),
                &Tables::leipzig(),
            )
            .expect("the shipped scenarios are valid"),
        )
    }

    /// The eight shipped scenarios, 1 first.
    pub fn all() -> Vec<Scenario> {
        let europe = Europe::central_europe();
        let (units, tables) = (Units::leipzig(), Tables::leipzig());
        SCENARIO_TOML
            .iter()
            .map(|t| {
                Scenario::from_toml(t, REINFORCEMENTS_TOML, &europe, &units, &tables)
                    .expect("the shipped scenarios are valid")
            })
            .collect()
    }

    /// Reads and validates a scenario with its reinforcement chart: every problem is reported,
    /// one a line (an unknown place, an empty set of hexes, a turn outside the game, a leader
    /// given twice, more supply units than a side has...).
    pub fn from_toml(
        text: &str,
        reinforcements_text: &str,
        europe: &Europe,
        units: &Units,
        tables: &Tables,
    ) -> Result<Scenario, DataError> {
        let f: ScenarioFile =
            toml::from_str(text).map_err(|e| DataError(vec![format!("scenario: {e}")]))?;
        let r: ReinforcementsFile = toml::from_str(reinforcements_text)
            .map_err(|e| DataError(vec![format!("reinforcement chart: {e}")]))?;
        let mut errs = Vec::new();
        let who = format!("scenario {}", f.id);
        if f.format != FORMAT {
            errs.push(format!("{who}: format '{}': expected '{FORMAT}'", f.format));
        }
        if r.format != REINFORCEMENTS_FORMAT {
            errs.push(format!(
                "reinforcement chart: format '{}': expected '{REINFORCEMENTS_FORMAT}'",
                r.format
            ));
        }
        if f.id != format!("leipzig1813-{}", f.number) {
            errs.push(format!(
                "{who}: the id of scenario {} is leipzig1813-{0}",
                f.number
            ));
        }
        if f.first_turn == 0 || f.first_turn > f.last_turn {
            errs.push(format!(
                "{who}: turns {}..{} are no game",
                f.first_turn, f.last_turn
            ));
        }
        // How to Use the Scenarios: the Allies deploy first, the French move first.
        if f.first_player != "French" || f.deploys_first != "Allied" {
            errs.push(format!(
                "{who}: the French move first and the Allies deploy first (How to Use the \
                 Scenarios)"
            ));
        }
        if tables.victory(f.victory).is_none() {
            errs.push(format!("{who}: no victory row {}", f.victory));
        }
        let [from, to] = f.reinforcement_turns;
        if from < f.first_turn || to > f.last_turn || from > to {
            errs.push(format!(
                "{who}: reinforcement turns {from}..{to} lie outside turns {}..{}",
                f.first_turn, f.last_turn
            ));
        }
        let austria_closed = f.rules.austria != AustriaAccess::Open;
        let ctx = Ctx {
            europe,
            units,
            austria_closed,
        };
        let setup: Vec<Placement> = f
            .setup
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                if e.turn.is_some() {
                    errs.push(format!("{who}: set-up {}: a set-up has no turn", i + 1));
                }
                let w = format!("{who}, set-up {} ({})", i + 1, e.where_());
                ctx.resolve(e, &w, &mut errs)
            })
            .collect();
        let reinforcements: Vec<Placement> = r
            .reinforcement
            .iter()
            .filter(|e| e.turn.is_some_and(|t| (from..=to).contains(&t)))
            // Reinforcement Chart: Prague's do not arrive while Austria is neutral.
            .filter(|e| !(e.needs_austria && f.rules.austria == AustriaAccess::Closed))
            .filter_map(|e| {
                let w = format!(
                    "reinforcement chart, turn {}, {} ({})",
                    e.turn.unwrap_or(0),
                    e.side,
                    e.where_()
                );
                ctx.resolve(e, &w, &mut errs)
            })
            .collect();
        for e in &r.reinforcement {
            if e.turn.is_none() {
                errs.push(format!(
                    "reinforcement chart: an entry at {:?} has no turn",
                    e.at
                ));
            }
        }
        let intervention = f.rules.austrian_intervention.as_ref().and_then(|a| {
            let e = EntryFile {
                side: "Allied".into(),
                turn: None,
                at: Some(a.at.clone()),
                within: a.within,
                area: None,
                nationality: Some(a.nationality.clone()),
                printed: None,
                note: None,
                needs_austria: true,
                infantry: a.infantry,
                cavalry: a.cavalry,
                supply: a.supply,
                depots: 0,
                leaders: a.leaders.clone(),
            };
            // The intervention opens Austria: its hexes are allowed.
            let open = Ctx {
                austria_closed: false,
                ..ctx
            };
            open.resolve(&e, &format!("{who}, the Austrian intervention"), &mut errs)
        });
        for place in rule_places(&f.rules) {
            if let Err(e) = europe.place(place) {
                errs.push(format!("{who}, special rules: {e}"));
            }
        }
        // Leaders (General Rule): ten a side, each once.
        for side in SIDES {
            let mut seen = Vec::new();
            let all = setup
                .iter()
                .chain(&reinforcements)
                .chain(&intervention)
                .filter(|p| p.side == side);
            for p in all {
                for &l in &p.force.leaders {
                    if seen.contains(&l) {
                        errs.push(format!("{who}: {side} leader {l} is placed twice"));
                    }
                    seen.push(l);
                }
            }
            // Supply (E): ten supply units a colour in play.
            let supply: u32 = setup
                .iter()
                .filter(|p| p.side == side)
                .map(|p| p.force.supply)
                .sum();
            let limit = units.side(side).map_or(0, |s| s.supply);
            if supply > limit {
                errs.push(format!(
                    "{who}: {side} sets up {supply} supply units; a side has {limit} (Supply (E))"
                ));
            }
        }
        if let Some(b) = &f.rules.bavarian_defection {
            // Bavarian Defection: the Bavarians join the Allies.
            let known = units
                .side("Allied")
                .is_some_and(|s| s.nationalities.contains(&b.nationality));
            if !known {
                errs.push(format!(
                    "{who}: the Bavarian defection's nationality '{}' is none of the Allied \
                     side's",
                    b.nationality
                ));
            }
        }
        if let Some(g) = &f.rules.saxon_garrison {
            if !f.setup.iter().any(|e| e.at.as_deref() == Some(&g.at)) {
                errs.push(format!(
                    "{who}: the Saxon garrison's {} has no set-up",
                    g.at
                ));
            }
        }
        if !errs.is_empty() {
            return Err(DataError(errs));
        }
        Ok(Scenario {
            id: f.id,
            number: f.number,
            title: f.title,
            first_turn: f.first_turn,
            last_turn: f.last_turn,
            first_player: f.first_player,
            deploys_first: f.deploys_first,
            victory: f.victory,
            rules: f.rules,
            setup,
            reinforcements,
            intervention,
            digest: engine::hash_bytes(format!("{text}\n{reinforcements_text}").as_bytes()),
        })
    }

    /// A side's whole initial set-up, counted as the charts count it.
    pub fn setup_total(&self, side: &str) -> Force {
        let mut t = Force::default();
        for p in self.setup.iter().filter(|p| p.side == side) {
            t.add(&p.force);
        }
        t
    }

    /// A side's reinforcements arriving on a turn.
    pub fn reinforcements_on(&self, side: &str, turn: u32) -> impl Iterator<Item = &Placement> {
        let side = side.to_string();
        self.reinforcements
            .iter()
            .filter(move |p| p.side == side && p.turn == Some(turn))
    }
}

fn rule_places(r: &SpecialRules) -> Vec<&str> {
    let mut v = Vec::new();
    if let Some(g) = &r.saxon_garrison {
        v.push(g.at.as_str());
    }
    if let Some(g) = &r.gotha_march {
        v.push(g.at.as_str());
    }
    if let Some(g) = &r.german_rebellion {
        v.extend(g.hold.iter().map(String::as_str));
    }
    if let Some(n) = &r.northern_option {
        v.push(n.trigger.as_str());
    }
    v
}

#[derive(Clone, Copy)]
struct Ctx<'a> {
    europe: &'a Europe,
    units: &'a Units,
    austria_closed: bool,
}

impl Ctx<'_> {
    fn resolve(&self, e: &EntryFile, who: &str, errs: &mut Vec<String>) -> Option<Placement> {
        let n0 = errs.len();
        if !SIDES.contains(&e.side.as_str()) {
            errs.push(format!(
                "{who}: side '{}' is neither French nor Allied",
                e.side
            ));
        }
        if let Some(n) = &e.nationality {
            let known = self
                .units
                .side(&e.side)
                .is_some_and(|s| s.nationalities.contains(n));
            if !known {
                errs.push(format!(
                    "{who}: nationality '{n}' is none of the {} side's",
                    e.side
                ));
            }
        }
        for &l in &e.leaders {
            if !(1..=PER_SIDE).contains(&l) {
                errs.push(format!("{who}: leader {l}: numbers run 1 to {PER_SIDE}"));
            }
        }
        let force = Force {
            infantry: e.infantry,
            cavalry: e.cavalry,
            supply: e.supply,
            depots: e.depots,
            leaders: e.leaders.clone(),
        };
        if force.is_empty() {
            errs.push(format!("{who}: no units"));
        }
        let (location, mut hexes) = match (&e.at, e.area) {
            (Some(name), None) => match self.europe.place(name) {
                Ok(hex) => (
                    Location::Place {
                        name: name.clone(),
                        hex,
                        radius: e.within,
                    },
                    self.europe.within(hex, e.within),
                ),
                Err(m) => {
                    errs.push(format!("{who}: {m}"));
                    return None;
                }
            },
            (None, Some(a)) => {
                if e.within != 0 {
                    errs.push(format!("{who}: `within` goes with a place, not an area"));
                }
                (Location::Area(a), self.europe.area(a).to_vec())
            }
            _ => {
                errs.push(format!(
                    "{who}: give exactly one of `at` (a place) or `area`"
                ));
                return None;
            }
        };
        // Units may not enter Austria while it is closed; a set-up there would be one.
        if self.austria_closed && !e.needs_austria && location != Location::Area(Area::Austria) {
            hexes.retain(|&h| !self.europe.in_austria(h));
        }
        if hexes.is_empty() {
            errs.push(format!("{who}: no hex of the map to place the units in"));
        }
        if errs.len() > n0 {
            return None;
        }
        Some(Placement {
            side: e.side.clone(),
            turn: e.turn,
            location,
            hexes,
            nationality: e.nationality.clone(),
            force,
            printed: e.printed.clone(),
            note: e.note.clone(),
            needs_austria: e.needs_austria,
        })
    }
}
