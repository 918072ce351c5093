//! The commands that are Napoleon at War's own (`odds`, `map`) and `validate`, which checks
//! Napoleon at War files in detail and any other system's through the library. The commands
//! every system shares are in `grognard::core`.

use crate::show::{load_scenario, open_record, side_name};
use crate::TerrainArg;
use anyhow::{anyhow, bail, Context, Result};
use grognard::util::write_atomically;
use naw::{Loc, Scenario, UnitType};
use std::path::Path;
use systems::Library;

/// A failure whose details were already printed (validate): only the summary goes to stderr.
#[derive(Debug)]
pub struct Reported(pub String);

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Reported {}

/// `grognard odds`: Napoleon at War's Combat Results Table. The JSON is the system's `odds`
/// query.
pub fn odds(
    lib: &Library,
    attack: u32,
    defence: u32,
    terrain: TerrainArg,
    json: bool,
) -> Result<()> {
    let doubled = terrain == TerrainArg::Doubled;
    if json {
        let j = lib
            .system("naw")?
            .query("odds", &format!("{attack},{defence},{doubled}"))
            .map_err(|e| anyhow!("{e}"))?;
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    let t = present::odds_text(attack, defence, doubled)
        .ok_or_else(|| anyhow!("defence {defence} is too large"))?;
    print!("{t}");
    Ok(())
}

/// `grognard show --legal`: the state as text with every legal action (the system's
/// `show --legal` text), and the compact map around `map` when asked.
pub fn show_legal(lib: &Library, record: &Path, map: Option<&str>) -> Result<String> {
    let g = grognard::core::open_with(lib, record)?;
    let g = g.as_ref();
    let mut out = match grognard::core::text_of(g, "show --legal")? {
        Some(t) => t,
        None => grognard::core::state_text(g)?,
    };
    if let Some(hex) = map {
        let m = grognard::core::text_of(g, &format!("map {hex}"))?
            .ok_or_else(|| anyhow!("this rules system ({}) draws no text map", g.system()))?;
        out.push('\n');
        out.push_str(&m);
    }
    Ok(out)
}

/// The counters of the units on the map.
fn counters(sc: &Scenario, at: impl Fn(usize) -> Option<hexmap::Hex>) -> Vec<render::Counter> {
    sc.units
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            let hex = at(i)?;
            let nation = &sc.nations[d.nation as usize].id;
            let (fill, text) = render::nation_colours(nation);
            Some(render::Counter {
                hex,
                id: d.id.clone(),
                designation: d.designation.clone(),
                kind: match d.kind {
                    UnitType::Infantry => render::UnitKind::Infantry,
                    UnitType::Cavalry => render::UnitKind::Cavalry,
                    UnitType::Artillery => render::UnitKind::Artillery,
                },
                strength: d.strength,
                movement: d.movement as u16,
                fill,
                text,
            })
        })
        .collect()
}

/// True when the file looks like a game record rather than a scenario.
fn is_record_file(p: &Path) -> bool {
    std::fs::read_to_string(p)
        .map(|t| t.trim_start().starts_with('{'))
        .unwrap_or(false)
}

/// `grognard map`.
pub fn map(
    lib: &Library,
    source: &str,
    svg_out: Option<&Path>,
    png_out: Option<&Path>,
    numbers: bool,
    width: u32,
) -> Result<()> {
    let opts = |title: String| render::Options {
        hex_numbers: numbers,
        title: Some(title),
        ..render::Options::default()
    };
    if let Some((map, counters, title)) = other_system_map(lib, source)? {
        return write_map(
            render::svg(&map, &counters, &opts(title)),
            svg_out,
            png_out,
            width,
        );
    }
    let (sc, counters, title) =
        if scenarios::scenario_text(source).is_none() && is_record_file(Path::new(source)) {
            let s = open_record(lib, Path::new(source), "grognard map")?;
            let g = &s.game;
            let title = format!(
                "{}: game-turn {}, {} player-turn",
                g.scenario().title,
                g.turn(),
                side_name(g, g.phasing())
            );
            let c = counters(g.scenario(), |i| match g.loc(naw::UnitId(i as u8)) {
                Loc::Map(h) => Some(h),
                _ => None,
            });
            (g.scenario_arc().as_ref().clone(), c, title)
        } else {
            let sc = load_scenario(source)?;
            let c = counters(&sc, |i| match sc.units[i].start {
                naw::scenario::Start::Hex(h) => Some(h),
                _ => None,
            });
            let title = format!("{}: set-up", sc.title);
            (sc, c, title)
        };
    write_map(
        render::svg(&sc.map, &counters, &opts(title)),
        svg_out,
        png_out,
        width,
    )
}

/// Writes a drawn map as SVG and/or PNG.
fn write_map(
    svg: String,
    svg_out: Option<&Path>,
    png_out: Option<&Path>,
    width: u32,
) -> Result<()> {
    if let Some(p) = svg_out {
        write_atomically(p, svg.as_bytes())?;
        println!("SVG map written to {}", p.display());
    }
    if let Some(p) = png_out {
        let png = render::png(&svg, width).map_err(|e| anyhow!("cannot draw the PNG: {e}"))?;
        write_atomically(p, &png)?;
        println!("PNG map written to {} ({width} px wide)", p.display());
    }
    Ok(())
}

/// The map of a scenario or a game of a system other than Napoleon at War, with the units
/// its state view places on hexes (`units[]` with `hex`, `id`, `strength`, `kind`, `label`):
/// the map is the shipped map its map view names. `None` for Napoleon at War's.
fn other_system_map(
    lib: &Library,
    source: &str,
) -> Result<Option<(hexmap::Map, Vec<render::Counter>, String)>> {
    let (spec, game) = if !lib.ships(source) && is_record_file(Path::new(source)) {
        let g = grognard::core::open_with(lib, Path::new(source))?;
        if g.system() == "naw" {
            return Ok(None);
        }
        (g.record().scenario.clone(), Some(g))
    } else {
        match lib.scenario(source) {
            Ok(info) if info.system != "naw" => (source.to_string(), None),
            _ => return Ok(None),
        }
    };
    let info = lib.scenario(&spec).map_err(|e| anyhow!("{e}"))?;
    let view = lib.map_view(&spec).map_err(|e| anyhow!("{e}"))?;
    let id = view["id"].as_str().unwrap_or_default();
    let text = scenarios::map_text(id)
        .ok_or_else(|| anyhow!("scenario {spec}: its map '{id}' is not a shipped map"))?;
    let map = hexmap::Map::from_toml(text).map_err(|e| anyhow!("map {id}: {e}"))?;
    let Some(g) = game else {
        return Ok(Some((map, Vec::new(), format!("{}: the map", info.title))));
    };
    let v = g.view(engine::Viewer::Referee);
    let counters = v["units"]
        .as_array()
        .map(|us| {
            us.iter()
                .filter_map(|u| {
                    let hex = u["hex"].as_str()?.parse::<hexmap::Hex>().ok()?;
                    let id = u["id"].as_str()?.to_string();
                    let nation = id.split('.').next().unwrap_or_default();
                    let (fill, text) = render::nation_colours(nation);
                    Some(render::Counter {
                        hex,
                        designation: u["label"].as_str().unwrap_or(&id).to_string(),
                        id,
                        kind: match u["kind"].as_str() {
                            Some("cavalry") => render::UnitKind::Cavalry,
                            Some("artillery") => render::UnitKind::Artillery,
                            _ => render::UnitKind::Infantry,
                        },
                        strength: u["strength"].as_u64().unwrap_or(0).min(999) as u16,
                        movement: u["movement"].as_u64().unwrap_or(0).min(999) as u16,
                        fill,
                        text,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let title = format!(
        "{}: {}",
        info.title,
        v["turn"]
            .as_u64()
            .map_or_else(|| "in play".to_string(), |t| format!("turn {t}"))
    );
    Ok(Some((map, counters, title)))
}

/// `grognard validate`.
pub fn validate(lib: &Library, path: &Path) -> Result<()> {
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        let mut v: Vec<_> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read the directory {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
            .collect();
        v.sort();
        if v.is_empty() {
            bail!("{} holds no *.toml files", path.display());
        }
        v
    } else if path.exists() {
        vec![path.to_path_buf()]
    } else {
        bail!("{} does not exist", path.display());
    };
    let mut problems = 0;
    let mut bad_files = 0;
    for f in &files {
        let name = f.display().to_string();
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                println!("FAIL {name}\n  cannot read it: {e}");
                problems += 1;
                bad_files += 1;
                continue;
            }
        };
        if text
            .lines()
            .any(|l| l.trim_start().starts_with("format") && l.contains("grognard-map/"))
        {
            match hexmap::Map::from_toml(&text) {
                Ok(m) => println!(
                    "ok   {name}: map {} ({}x{} hexes)",
                    m.id,
                    m.width(),
                    m.height()
                ),
                Err(e) => {
                    println!("FAIL {name}\n  {name}: {e}");
                    problems += 1;
                    bad_files += 1;
                }
            }
            continue;
        }
        // another system's scenario is checked by its own system, through the library
        let system = scenarios::Source::find(&name)
            .ok()
            .and_then(|s| s.header().ok())
            .map(|h| h.system);
        if system.as_deref().is_some_and(|s| s != "naw") {
            match grognard::core::check_scenario(lib, &name) {
                Ok(line) => println!("{line}"),
                Err(fail) => {
                    println!("{fail}");
                    problems += 1;
                    bad_files += 1;
                }
            }
            continue;
        }
        match scenarios::load(&name) {
            Ok(sc) => {
                let arriving = sc
                    .units
                    .iter()
                    .filter(|u| matches!(u.start, naw::scenario::Start::Arrives(_)))
                    .count();
                println!(
                    "ok   {name}: {} ({} units, {arriving} reinforcements, turns {}-{})",
                    sc.id,
                    sc.units.len(),
                    sc.first_turn,
                    sc.last_turn
                );
            }
            Err(scenarios::LoadError::Invalid(e)) => {
                println!("FAIL {name}: {} problem(s)", e.0.len());
                for p in &e.0 {
                    println!("  {p}");
                }
                problems += e.0.len();
                bad_files += 1;
            }
            Err(e) => {
                println!("FAIL {name}\n  {e}");
                problems += 1;
                bad_files += 1;
            }
        }
    }
    if problems > 0 {
        return Err(Reported(format!(
            "{problems} problem(s) in {bad_files} of {} file(s)",
            files.len()
        ))
        .into());
    }
    println!("{} file(s) checked: no problems", files.len());
    Ok(())
}
