//! The canonical text of actions and its parser (the grammar is in [`crate::action`]).

use crate::action::{parse_dir, Action, Formation, GeneralId, UnitId};
use crate::game::Game;
use crate::prob::{parse_prob, Prob};
use crate::setup::Standing;
use engine::Refusal;
use hexmap::Hex;

fn standing_text(s: Standing) -> String {
    match s {
        Standing::Free => "free".into(),
        Standing::Hold => "hold".into(),
        Standing::Advance(h) => h.to_string(),
    }
}

pub(crate) fn action_text(g: &Game, a: Action) -> String {
    let unit = |u: UnitId| {
        g.setup()
            .units
            .get(usize::from(u.0))
            .map_or("?".to_string(), |d| d.id.clone())
    };
    let general = |x: GeneralId| {
        g.setup()
            .generals
            .get(usize::from(x.0))
            .map_or("?".to_string(), |d| d.id.clone())
    };
    match a {
        Action::Draw(n) => format!("draw {}", Prob(n)),
        Action::Roll(n) => format!("roll {n}"),
        Action::End => "end".into(),
        Action::Order {
            general: x,
            formation,
            order,
        } => format!(
            "order {} {} {}",
            general(x),
            g.setup()
                .formations
                .get(usize::from(formation))
                .map_or("?", |f| f.id.as_str()),
            standing_text(order)
        ),
        Action::Move { unit: u, to } => format!("move {} {to}", unit(u)),
        Action::Ride { general: x, to } => format!("ride {} {to}", general(x)),
        Action::Face { unit: u, dir } => format!("face {} {}", unit(u), dir.name()),
        Action::Form { unit: u, formation } => format!("form {} {}", unit(u), formation.name()),
        Action::Fire { battery, target } => format!("fire {} {}", unit(battery), unit(target)),
        Action::Attack { unit: u, target } => format!("attack {} {target}", unit(u)),
        Action::Advance { unit: u } => format!("advance {}", unit(u)),
    }
}

fn bad(text: &str) -> Refusal {
    Refusal::new(
        "action",
        format!(
            "'{text}': expected draw 0.NNN, roll N, end, order G F hold|free|HEX, move U HEX, \
             ride G HEX, face U DIR, form U line|column|square|limbered|unlimbered, fire B U, \
             attack U HEX, advance U"
        ),
    )
}

pub(crate) fn parse_action(g: &Game, text: &str) -> Result<Action, Refusal> {
    let w: Vec<&str> = text.split_whitespace().collect();
    let unit = |s: &str| {
        g.unit_by_id(s)
            .ok_or_else(|| Refusal::new("action", format!("no unit '{s}'")))
    };
    let general = |s: &str| {
        g.general_by_id(s)
            .ok_or_else(|| Refusal::new("action", format!("no general '{s}'")))
    };
    let hex = |s: &str| {
        s.parse::<Hex>()
            .map_err(|_| Refusal::new("action", format!("'{s}' is not a hex (XXYY)")))
    };
    match w.as_slice() {
        ["end"] => Ok(Action::End),
        ["draw", n] => {
            let p = parse_prob(n).map_err(|e| Refusal::new("action", e))?;
            if p.0 >= 1000 {
                return Err(Refusal::new("action", "a random number is 0.000 to 0.999"));
            }
            Ok(Action::Draw(p.0))
        }
        ["roll", n] => n
            .parse::<u8>()
            .ok()
            .filter(|d| (1..=6).contains(d))
            .map(Action::Roll)
            .ok_or_else(|| Refusal::new("action", format!("'{n}' is not a die (1-6)"))),
        ["order", x, f, o] => {
            let general = general(x)?;
            let formation = g
                .formation_by_id(f)
                .ok_or_else(|| Refusal::new("action", format!("no formation '{f}'")))?;
            let order = match *o {
                "hold" => Standing::Hold,
                "free" => Standing::Free,
                h => Standing::Advance(hex(h)?),
            };
            Ok(Action::Order {
                general,
                formation,
                order,
            })
        }
        ["move", u, h] => Ok(Action::Move {
            unit: unit(u)?,
            to: hex(h)?,
        }),
        ["ride", x, h] => Ok(Action::Ride {
            general: general(x)?,
            to: hex(h)?,
        }),
        ["face", u, d] => Ok(Action::Face {
            unit: unit(u)?,
            dir: parse_dir(d).ok_or_else(|| {
                Refusal::new("action", format!("'{d}' is not E, NE, NW, W, SW or SE"))
            })?,
        }),
        ["form", u, f] => Ok(Action::Form {
            unit: unit(u)?,
            formation: Formation::parse(f).ok_or_else(|| {
                Refusal::new(
                    "action",
                    format!("'{f}': line, column, square, limbered or unlimbered"),
                )
            })?,
        }),
        ["fire", b, t] => Ok(Action::Fire {
            battery: unit(b)?,
            target: unit(t)?,
        }),
        ["advance", u] => Ok(Action::Advance { unit: unit(u)? }),
        ["attack", u, h] => Ok(Action::Attack {
            unit: unit(u)?,
            target: hex(h)?,
        }),
        _ => Err(bad(text)),
    }
}
