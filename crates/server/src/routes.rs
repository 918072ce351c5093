//! The HTTP handlers of `docs/api.md`.

use crate::error::ApiError;
use crate::games::{
    default_computer, random_hex, token_hash, viewer_of, with_change, Live, Mode, Seat, Slot,
    Start, TakeBack,
};
use crate::store::GameRow;
use crate::App;
use axum::body::Bytes;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use engine::dynamic::{QueryError, System};
use engine::{Refusal, Side, ToAct, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// Runs a change to the end whether or not its client still waits for the reply: the work is
/// a task of its own, so a client that hangs up mid-request cannot leave an action committed
/// but unpublished (the watchers told, the cached views renewed) or half done. Every change
/// to a game goes through here.
async fn to_the_end<T: Send + 'static>(
    work: impl std::future::Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(work)
        .await
        .map_err(|e| ApiError::internal(format!("the change failed: {e}")))?
}

/// A JSON response from text that is already JSON.
fn json(status: StatusCode, body: impl Into<String>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.into(),
    )
        .into_response()
}

fn to_json<T: Serialize>(v: &T) -> Result<String, ApiError> {
    serde_json::to_string(v).map_err(|e| ApiError::internal(e.to_string()))
}

/// Parses a JSON body (400 with serde's reason when it does not fit).
fn parse_body<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    if body.is_empty() {
        return Err(ApiError::bad_request("the request needs a JSON body"));
    }
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("malformed JSON: {e}")))
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = v.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// `GET /api/scenarios`.
pub async fn scenarios(State(app): State<Arc<App>>) -> Response {
    json(StatusCode::OK, app.scenario_list.to_string())
}

/// The query arguments of a request, by name.
fn query_args(q: &str) -> BTreeMap<&str, &str> {
    let mut args: BTreeMap<&str, &str> = BTreeMap::new();
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        args.insert(k, v);
    }
    args
}

/// The system a game-less request names (`?system=ID`), else the first registered one.
fn system_of(app: &App, name: Option<&str>) -> Result<Arc<dyn System>, ApiError> {
    let lib = app.library();
    match name {
        Some(id) => lib
            .system(id)
            .cloned()
            .map_err(|e| ApiError::not_found(e.to_string())),
        None => lib
            .registry()
            .systems()
            .first()
            .cloned()
            .ok_or_else(|| ApiError::not_found("no rules system is registered")),
    }
}

/// A system's query error as an API error.
fn query_error(e: QueryError) -> ApiError {
    match e {
        QueryError::Bad(why) => ApiError::bad_request(why),
        QueryError::NotFound(why) => ApiError::not_found(why),
        QueryError::Unknown(_) => ApiError::not_found(e.to_string()),
        QueryError::Refused(r) => ApiError::refused(r),
    }
}

/// `GET /api/rules[?system=ID]`: the rules reference of a system (the first registered one
/// by default).
pub async fn rules(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let q = q.unwrap_or_default();
    let args = query_args(&q);
    let sys = system_of(&app, args.get("system").copied())?;
    let r = sys.reference().ok_or_else(|| {
        ApiError::not_found(format!(
            "the rules system '{}' ships no reference",
            sys.id()
        ))
    })?;
    Ok(json(StatusCode::OK, r.to_string()))
}

/// `GET /api/odds?attack=13&defence=4&doubled=false[&system=ID]`: the system's `odds` query.
pub async fn odds(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let q = q.unwrap_or_default();
    let args = query_args(&q);
    let sys = system_of(&app, args.get("system").copied())?;
    let num = |name: &str| -> Result<u32, ApiError> {
        let v = args
            .get(name)
            .ok_or_else(|| ApiError::bad_request(format!("give {name}=N")))?;
        v.parse()
            .map_err(|_| ApiError::bad_request(format!("{name}={v} is not a whole number")))
    };
    let attack = num("attack")?;
    let defence: u32 = match args.get("defence").or_else(|| args.get("defense")) {
        Some(v) => v
            .parse()
            .map_err(|_| ApiError::bad_request(format!("defence={v} is not a whole number")))?,
        None => return Err(ApiError::bad_request("give defence=N")),
    };
    let doubled = match args.get("doubled").copied() {
        None | Some("false") | Some("0") | Some("") => false,
        Some("true") | Some("1") => true,
        Some(v) => {
            return Err(ApiError::bad_request(format!(
                "doubled={v}: give true or false"
            )))
        }
    };
    let view = sys
        .query("odds", &format!("{attack},{defence},{doubled}"))
        .map_err(query_error)?;
    Ok(json(StatusCode::OK, view.to_string()))
}

/// The body of `POST /api/games`.
#[derive(Deserialize)]
struct NewGame {
    scenario: String,
    seed: Option<SeedIn>,
    #[serde(default)]
    mode: Option<String>,
    computer_side: Option<String>,
    computer: Option<String>,
    rules: Option<String>,
}

/// A seed as a request gives it: a JSON number, or a string of digits (a 64-bit seed does
/// not survive a JavaScript number).
#[derive(Deserialize)]
#[serde(untagged)]
enum SeedIn {
    Number(serde_json::Number),
    Text(String),
}

impl SeedIn {
    /// The seed, or why it is not one.
    fn value(&self) -> Result<u64, ApiError> {
        let text = match self {
            SeedIn::Number(n) => n.to_string(),
            SeedIn::Text(t) => t.trim().to_string(),
        };
        text.parse::<u64>().map_err(|_| {
            ApiError::bad_request(format!(
                "seed {text}: a seed is a whole number from 0 to {}",
                u64::MAX
            ))
        })
    }
}

/// The answer to creating a game.
#[derive(Serialize)]
struct Created {
    id: String,
    mode: &'static str,
    seats: BTreeMap<String, String>,
    links: BTreeMap<String, String>,
    /// The links as absolute addresses a friend can open, when the server knows the address
    /// players reach it at (`--public-url`, or its address on the network).
    #[serde(skip_serializing_if = "Option::is_none")]
    urls: Option<BTreeMap<String, String>>,
    /// A sealed game's commitment to its dice (`docs/api.md`, "Secret dice").
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment: Option<String>,
}

/// The seat links of a new game as absolute addresses under `base` (no trailing `/`).
fn seat_urls(
    base: Option<&str>,
    links: &BTreeMap<String, String>,
) -> Option<BTreeMap<String, String>> {
    let base = base?.trim_end_matches('/');
    Some(
        links
            .iter()
            .map(|(k, l)| (k.clone(), format!("{base}{l}")))
            .collect(),
    )
}

/// The link of every seat: `/#game=ID&seat=TOKEN&side=SIDE` (`side=both` in hot-seat).
fn seat_links(id: &str, seats: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    seats
        .iter()
        .map(|(k, t)| (k.clone(), format!("/#game={id}&seat={t}&side={k}")))
        .collect()
}

fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn random_seed() -> Result<u64, ApiError> {
    let h = random_hex(8)?;
    u64::from_str_radix(&h, 16).map_err(|e| ApiError::internal(e.to_string()))
}

/// `POST /api/games`.
pub async fn create(State(app): State<Arc<App>>, body: Bytes) -> Result<Response, ApiError> {
    to_the_end(create_now(app, body)).await
}

/// [`create`], run to its end.
async fn create_now(app: Arc<App>, body: Bytes) -> Result<Response, ApiError> {
    let req: NewGame = parse_body(&body)?;
    let mode_name = req.mode.as_deref().unwrap_or("hotseat");
    let mode = Mode::parse(mode_name).ok_or_else(|| {
        ApiError::bad_request(format!(
            "mode '{mode_name}': give hotseat, computer or online"
        ))
    })?;
    let lib = app.library();
    if !lib.ships(&req.scenario) {
        return Err(ApiError::not_found(format!(
            "there is no scenario '{}' (shipped: {})",
            req.scenario,
            lib.scenario_ids().join(", ")
        )));
    }
    let info = lib
        .scenario(&req.scenario)
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let system = lib
        .registry()
        .for_scenario(&info, req.rules.as_deref())
        .map_err(|e| ApiError::bad_request(format!("rules: {e}")))?
        .clone();
    let sides = info.sides.clone();
    let side_of = |name: &str| -> Result<Side, ApiError> {
        sides
            .iter()
            .position(|s| s.eq_ignore_ascii_case(name))
            .map(|i| Side(i as u8))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "there is no side '{name}': the sides are {}",
                    sides.join(" and ")
                ))
            })
    };
    let (computer, computer_side) = match mode {
        Mode::Computer => {
            let side = match &req.computer_side {
                Some(n) => side_of(n)?,
                None => Side(1),
            };
            let spec = req
                .computer
                .clone()
                .unwrap_or_else(|| crate::games::default_computer(&*system));
            // what a computer player may cost: only the published levels (a search of an
            // hour a turn is not offered to an anonymous client)
            let offered = offered_players(&*system);
            if !offered.iter().any(|p| p.eq_ignore_ascii_case(spec.trim())) {
                return Err(ApiError::bad_request(format!(
                    "computer '{spec}' is not offered here: choose one of {}",
                    offered.join(", ")
                )));
            }
            system
                .player(&spec, 0)
                .map_err(|e| ApiError::bad_request(format!("computer: {e}")))?;
            (Some(spec), Some(side.0))
        }
        _ => {
            if req.computer.is_some() || req.computer_side.is_some() {
                return Err(ApiError::bad_request(
                    "computer and computer_side are for mode computer",
                ));
            }
            (None, None)
        }
    };
    let id = format!("g_{}", random_hex(12)?);
    let mut seats = BTreeMap::new();
    // Secret dice: the server draws the seed of an online game and of a game against the
    // computer and keeps it (with a salt) until the game ends, publishing only a commitment;
    // a client may choose the seed of a hot-seat game, or of a game against the computer
    // (which then is open: its dice and the computer's choices can be foreseen by whoever
    // holds the seed, the player's own business).
    let chosen = req.seed.as_ref().map(SeedIn::value).transpose()?;
    if mode == Mode::Online && chosen.is_some() {
        return Err(ApiError::bad_request(
            "an online game's seed is drawn by the server and kept secret until the game ends: \
             do not give one",
        ));
    }
    let seed = match chosen {
        Some(s) => s,
        None => random_seed()?,
    };
    let salt = match (mode, chosen) {
        (Mode::Online, _) | (Mode::Computer, None) => Some(random_hex(16)?),
        _ => None,
    };
    let commitment = salt.as_deref().map(|s| engine::commitment(seed, s));
    let game = {
        let lib = lib.clone();
        let (scenario, rules) = (req.scenario.clone(), Some(system.id().to_string()));
        tokio::task::spawn_blocking(move || lib.new_game(&scenario, rules.as_deref(), seed))
            .await
            .map_err(|e| ApiError::internal(e.to_string()))?
            .map_err(|e| ApiError::bad_request(e.to_string()))?
    };
    let mut row = GameRow {
        id: id.clone(),
        scenario: req.scenario.clone(),
        scenario_digest: game.record().scenario_digest.clone(),
        rules: game.record().rules.clone(),
        seed,
        mode: mode.name().to_string(),
        created_at: now_seconds(),
        token_first: None,
        token_second: None,
        token_both: None,
        computer,
        computer_side,
        branched_from: None,
        salt,
    };
    match mode {
        Mode::Hotseat => {
            let t = random_hex(16)?;
            row.token_both = Some(token_hash(&t));
            seats.insert("both".to_string(), t);
        }
        Mode::Computer => {
            let human = Side(1 - computer_side.unwrap_or(1));
            let t = random_hex(16)?;
            if human.0 == 0 {
                row.token_first = Some(token_hash(&t));
            } else {
                row.token_second = Some(token_hash(&t));
            }
            seats.insert(sides[human.0 as usize].clone(), t);
        }
        Mode::Online => {
            for (i, side) in sides.iter().enumerate() {
                let t = random_hex(16)?;
                if i == 0 {
                    row.token_first = Some(token_hash(&t));
                } else {
                    row.token_second = Some(token_hash(&t));
                }
                seats.insert(side.clone(), t);
            }
        }
    }
    app.games.create(row, Start::New(game)).await?;
    tracing::info!("new {} game {id} of {}", mode.name(), req.scenario);
    let links = seat_links(&id, &seats);
    Ok(json(
        StatusCode::CREATED,
        to_json(&Created {
            id,
            mode: mode.name(),
            seats,
            urls: seat_urls(app.public_url(), &links),
            links,
            commitment,
        })?,
    ))
}

/// `GET /api/games/{id}`.
pub async fn state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let viewer = slot.viewer(bearer(&headers))?;
    let state = app.games.full_state(&slot, viewer).await?;
    Ok(json(StatusCode::OK, state.to_string()))
}

/// `GET /api/players[?system=ID]`: the computer players a game may be given, weakest first.
pub async fn players(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let q = q.unwrap_or_default();
    let args = query_args(&q);
    let sys = system_of(&app, args.get("system").copied())?;
    let levels: Vec<Value> = LEVELS
        .iter()
        .filter(|(_, spec, _)| sys.player(spec, 0).is_ok())
        .map(|(name, spec, what)| serde_json::json!({"name": name, "spec": spec, "about": what}))
        .collect();
    let v = serde_json::json!({
        "players": sys.players(),
        "default": crate::games::default_computer(&*sys),
        "levels": levels,
    });
    Ok(json(StatusCode::OK, v.to_string()))
}

/// The computer players a game may be given: the system's players (each at its default
/// budget) and the levels of [`LEVELS`] it accepts.
fn offered_players(sys: &dyn System) -> Vec<String> {
    let mut out = sys.players();
    for (_, spec, _) in LEVELS {
        if sys.player(spec, 0).is_ok() && !out.iter().any(|p| p == spec) {
            out.push(spec.to_string());
        }
    }
    out
}

/// The levels the start screen offers: a name, the player spec, a few words.
const LEVELS: &[(&str, &str, &str)] = &[
    ("Easy", "heuristic", "plays by rules of thumb, at once"),
    (
        "Normal",
        "search@1s",
        "weighs its plans for about a second each turn",
    ),
    (
        "Hard",
        "search@2s",
        "weighs its plans for about two seconds each turn",
    ),
];

/// `GET /api/games/{id}/seat`: the side the bearer's token acts for.
pub async fn seat(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let seat = slot.seat(bearer(&headers))?;
    let side = slot.seat_name(seat);
    let v = serde_json::json!({"side": side, "mode": slot.mode.name()});
    Ok(json(StatusCode::OK, v.to_string()))
}

/// `GET /api/games/{id}/map`.
pub async fn map(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let m = app.map(&slot.row.scenario)?;
    Ok(json(StatusCode::OK, m.to_string()))
}

/// `GET /api/games/{id}/moves/{unit}`.
pub async fn moves(
    State(app): State<Arc<App>>,
    Path((id, unit)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    game_query(&app, &id, &headers, "moves", &unit).await
}

/// A game's system-specific query as the request's viewer asks it.
async fn game_query(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    name: &str,
    arg: &str,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(id).await?;
    let viewer = slot.viewer(bearer(headers))?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    let view = live.game.query(name, arg, viewer).map_err(query_error)?;
    Ok(json(StatusCode::OK, view.to_string()))
}

/// `GET /api/games/{id}/preview?action=TEXT`: the system's `preview` query, what a legal
/// action would make (for Napoleon at War, the combat a declaration would make or join, with
/// its odds), without taking it. 422 with the case when the rules refuse the action.
pub async fn preview(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    // the action text is percent-encoded (`attack%20FR.4%20RU.5`, or `+` for spaces)
    let args: Vec<(String, String)> = serde_urlencoded::from_str(&q.unwrap_or_default())
        .map_err(|e| ApiError::bad_request(format!("the query is malformed: {e}")))?;
    let action = args
        .into_iter()
        .find(|(k, v)| k == "action" && !v.trim().is_empty())
        .map(|(_, v)| v)
        .ok_or_else(|| ApiError::bad_request("give action=TEXT (an action to preview)"))?;
    game_query(&app, &id, &headers, "preview", &action).await
}

/// `GET /api/tables[?system=ID]`: the system's charts as data (for Napoleon at War the
/// Combat Results Table and the Terrain Effects Chart).
pub async fn tables(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let q = q.unwrap_or_default();
    let args = query_args(&q);
    let sys = system_of(&app, args.get("system").copied())?;
    let view = sys.query("tables", "").map_err(query_error)?;
    Ok(json(StatusCode::OK, view.to_string()))
}

/// `GET /api/games/{id}/record`.
///
/// The record names every action, hidden ones included: while the game is not over it is
/// given only to a viewer the rules let see what every seat does (the referee, the hot-seat
/// token; anyone in a system that hides nothing). Otherwise 403.
pub async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let viewer = slot.viewer(bearer(&headers))?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    if !live.sees_all(viewer) {
        return Err(hidden_record());
    }
    Ok(json(StatusCode::OK, published_record(&slot, live)))
}

/// 403: the record of a game that hides information, asked for by a viewer who may not see
/// every seat's doings.
fn hidden_record() -> ApiError {
    ApiError {
        status: StatusCode::FORBIDDEN,
        kind: "forbidden",
        case: None,
        why: "this game hides information: its record is shown when the game is over".into(),
    }
}

/// A game's record as anyone who may read it is given it: a sealed game's record carries its
/// commitment, and its seed and salt only once the game is over. A game against the computer
/// names it (`players`), so that `grognard play --resume` goes on against the same player.
fn published_record(slot: &Slot, live: &Live) -> String {
    let mut r = live.game.record().clone();
    if let Some((side, spec)) = slot.computer() {
        if let Some(seat) = slot.seats.get(side.0 as usize) {
            r.players.insert(seat.clone(), spec.to_string());
        }
    }
    let Some(salt) = &slot.row.salt else {
        return r.to_json();
    };
    r.commitment = Some(engine::commitment(r.seed, salt));
    if matches!(live.game.to_act(), ToAct::Over(_)) {
        r.salt = Some(salt.clone());
        r.to_json()
    } else {
        r.sealed_json()
    }
}

/// The body of `POST /api/games/{id}/actions`.
#[derive(Deserialize)]
struct ActionBody {
    action: String,
    expect: Option<usize>,
    #[serde(default)]
    legal: bool,
}

#[derive(Serialize)]
struct ActedHead<'a> {
    accepted: &'a [String],
    events: &'a [Value],
}

/// The answer to a request that changed the game: the actions it added, their events and
/// the change, as the asking viewer may see them.
fn acted(seen: &crate::games::Seen) -> Response {
    json(
        StatusCode::OK,
        with_change(
            &ActedHead {
                accepted: &seen.accepted,
                events: &seen.events,
            },
            &seen.change,
        ),
    )
}

/// Checks that `seat` may act now and that the client saw the latest record.
fn may_act(slot: &Slot, live: &Live, seat: Seat, expect: Option<usize>) -> Result<(), ApiError> {
    let n = live.len();
    if let Some(e) = expect {
        if e != n {
            return Err(ApiError::conflict(format!(
                "the record has {n} actions, not {e}: someone acted first; reload the state"
            )));
        }
    }
    if let ToAct::Side(s) = live.game.to_act() {
        if !seat.covers(s) {
            let name = slot.seat_name(Seat::Side(s));
            let who = if slot.computer().is_some_and(|c| c.0 == s) {
                " (the computer)"
            } else {
                ""
            };
            return Err(ApiError::conflict(format!(
                "it is {name}'s turn to act{who}, not yours"
            )));
        }
    }
    Ok(())
}

/// `POST /api/games/{id}/actions`.
pub async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let waiting = slot.waiting();
    let r = to_the_end(act_now(app, slot, headers, body)).await;
    waiting.done();
    r
}

/// [`act`], run to its end.
async fn act_now(
    app: Arc<App>,
    slot: Arc<Slot>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: ActionBody = parse_body(&body)?;
    let seat = slot.seat(bearer(&headers))?;
    if req.action.len() > 200 {
        return Err(ApiError::bad_request("an action is at most 200 characters"));
    }
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    may_act(&slot, live, seat, req.expect)?;
    let text = req.action.clone();
    let (_, seen) = app
        .games
        .run(
            &slot,
            &mut guard,
            viewer_of(Some(seat)),
            req.legal,
            move |live, applied| live.act(&text, applied).map_err(ApiError::refused),
        )
        .await?;
    drop(guard);
    Ok(acted(&seen))
}

/// The body of `POST /api/games/{id}/finish` (optional).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FinishBody {
    /// The computer player to play the step (one the system offers; its `heuristic` by
    /// default, else its default player).
    #[serde(default)]
    player: Option<String>,
    /// The record's length the client saw.
    #[serde(default)]
    expect: Option<usize>,
    #[serde(default)]
    legal: bool,
}

/// `POST /api/games/{id}/finish`: the computer finishes the step for the seat to act ("let
/// the computer finish this step for me", such as a set-up's placements): the system's
/// computer player takes that seat's actions until the step or the seat to act changes. Only
/// for a token that may act for the seat to act (in an online game, that seat's own). The
/// answer is an action's (`accepted`, `events`, `change`).
pub async fn finish(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let waiting = slot.waiting();
    let r = to_the_end(finish_now(app, slot, headers, body)).await;
    waiting.done();
    r
}

/// [`finish`], run to its end.
async fn finish_now(
    app: Arc<App>,
    slot: Arc<Slot>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: FinishBody = if body.iter().all(u8::is_ascii_whitespace) {
        FinishBody::default()
    } else {
        parse_body(&body)?
    };
    let seat = slot.seat(bearer(&headers))?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    may_act(&slot, live, seat, req.expect)?;
    let ToAct::Side(side) = live.game.to_act() else {
        return Err(ApiError::conflict(
            "there is no step to finish: no side is to act",
        ));
    };
    let offered = live.system.players();
    let spec = match req.player {
        Some(p) if offered.contains(&p) => p,
        Some(p) => {
            return Err(ApiError::bad_request(format!(
                "no computer player '{p}' here (offered: {})",
                offered.join(", ")
            )))
        }
        None if offered.iter().any(|p| p == "heuristic") => "heuristic".to_string(),
        None => default_computer(&*live.system),
    };
    let seed = slot.row.seed;
    let (_, seen) = app
        .games
        .run(
            &slot,
            &mut guard,
            viewer_of(Some(seat)),
            req.legal,
            move |live, applied| {
                live.finish_step(side, &spec, seed, usize::MAX, applied)
                    .map_err(ApiError::conflict)
            },
        )
        .await?;
    drop(guard);
    Ok(acted(&seen))
}

#[derive(Serialize)]
struct UndoneHead<'a> {
    undone: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    also_undone: &'a [String],
}

/// The body of `POST /api/games/{id}/undo` and `POST /api/games/{id}/takeback` (optional).
#[derive(Deserialize, Default)]
struct UndoBody {
    #[serde(default)]
    legal: bool,
    #[serde(default)]
    accept: Option<bool>,
}

fn undo_body(body: &Bytes) -> Result<UndoBody, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        Ok(UndoBody::default())
    } else {
        parse_body(body)
    }
}

/// How many actions `seat`'s take-back takes back: its last action, and in a game against the
/// computer every action the computer took after it; and the side that took that action.
fn undo_count(slot: &Slot, live: &Live, seat: Seat) -> Result<usize, ApiError> {
    let nothing = |why: &str| {
        // the case is the rules' own (their refusal of a take-back)
        let r = live.game.undo_refusal();
        ApiError::refused(Refusal {
            case: r.case,
            why: why.into(),
        })
    };
    if live.log.is_empty() {
        return Err(nothing("there is nothing to take back"));
    }
    let side_of = |name: &str| {
        slot.seats
            .iter()
            .position(|s| s == name)
            .map(|i| Side(i as u8))
    };
    let computer = slot.computer().map(|c| c.0);
    let mut count = 0;
    for e in live.log.iter().rev() {
        count += 1;
        match side_of(&e.side) {
            Some(s) if computer == Some(s) => continue,
            Some(s) if seat.covers(s) => return Ok(count),
            Some(s) => {
                return Err(ApiError::conflict(format!(
                    "the last action was {}'s: only they may take it back",
                    slot.seat_name(Seat::Side(s))
                )))
            }
            // a chance outcome: the rules say whether it may be taken back
            None => return Ok(count),
        }
    }
    Err(nothing("there is no action of yours to take back"))
}

/// The rules' refusal of a take-back of `count` actions, checked before anything changes.
fn check_undoable(live: &Live, count: usize) -> Result<(), ApiError> {
    if live.game.undoable() < count {
        return Err(ApiError::refused(live.game.undo_refusal()));
    }
    Ok(())
}

fn undone_reply(undone: &[String], change: &str) -> Response {
    let (first, rest) = undone
        .split_last()
        .map(|(l, r)| (l.as_str(), r))
        .unwrap_or(("", &[]));
    json(
        StatusCode::OK,
        with_change(
            &UndoneHead {
                undone: first,
                also_undone: rest,
            },
            change,
        ),
    )
}

/// `POST /api/games/{id}/undo`: takes back the seat's last action; in an online game, asks
/// the opponent to consent (5.14, 5.17) and answers 202.
pub async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let waiting = slot.waiting();
    let r = to_the_end(undo_now(app, slot, headers, body)).await;
    waiting.done();
    r
}

/// [`undo`], run to its end.
async fn undo_now(
    app: Arc<App>,
    slot: Arc<Slot>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req = undo_body(&body)?;
    let seat = slot.seat(bearer(&headers))?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    let count = undo_count(&slot, live, seat)?;
    if slot.mode == Mode::Online {
        check_undoable(live, count)?;
        let by = slot.seat_name(seat);
        let actions: Vec<String> = live
            .log
            .iter()
            .rev()
            .take(count)
            .map(|e| e.action.clone())
            .collect();
        let t = TakeBack {
            by,
            actions,
            actions_recorded: live.len(),
        };
        slot.set_takeback(Some(t.clone()), "asked");
        drop(guard);
        let v = serde_json::json!({"requested": t});
        return Ok(json(StatusCode::ACCEPTED, v.to_string()));
    }
    let sees = live.sees_all(viewer_of(Some(seat)));
    let (mut undone, seen) = app
        .games
        .undo(&slot, &mut guard, count, viewer_of(Some(seat)), req.legal)
        .await?;
    drop(guard);
    if !sees {
        // the computer's actions taken back with the seat's own are not the seat's to read
        let own = undone.len().saturating_sub(1);
        for t in &mut undone[..own] {
            t.clear();
        }
    }
    Ok(undone_reply(&undone, &seen.change))
}

/// `GET /api/games/{id}/takeback`: the pending request to take back, or `null`.
pub async fn takeback_get(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let v = serde_json::json!({"takeback": slot.pending_takeback()});
    Ok(json(StatusCode::OK, v.to_string()))
}

/// `POST /api/games/{id}/takeback` body `{"accept": true|false}`: the opponent consents to
/// (or declines) the pending take-back; the side that asked may withdraw it (`false`).
pub async fn takeback(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let waiting = slot.waiting();
    let r = to_the_end(takeback_now(app, slot, headers, body)).await;
    waiting.done();
    r
}

/// [`takeback`], run to its end.
async fn takeback_now(
    app: Arc<App>,
    slot: Arc<Slot>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req = undo_body(&body)?;
    let Some(accept) = req.accept else {
        return Err(ApiError::bad_request(
            "give {\"accept\": true} or {\"accept\": false}",
        ));
    };
    let seat = slot.seat(bearer(&headers))?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    let Some(t) = slot.pending_takeback() else {
        return Err(ApiError::conflict(
            "no one has asked to take back an action",
        ));
    };
    let n = live.len();
    if t.actions_recorded != n {
        slot.set_takeback(None, "the game has moved on since it was asked");
        return Err(ApiError::conflict(
            "the game has moved on since the take-back was asked",
        ));
    }
    let asker = slot
        .seats
        .iter()
        .position(|s| *s == t.by)
        .map(|i| Side(i as u8));
    let own = asker.is_some_and(|s| seat == Seat::Side(s));
    if !accept {
        let why = if own { "withdrawn" } else { "declined" };
        slot.set_takeback(None, why);
        drop(guard);
        let v = serde_json::json!({"takeback": why});
        return Ok(json(StatusCode::OK, v.to_string()));
    }
    if own {
        return Err(ApiError::conflict(
            "only the opponent may consent to this take-back",
        ));
    }
    let Some(asker) = asker else {
        return Err(ApiError::conflict("the take-back has no side to act for"));
    };
    let count = undo_count(&slot, live, Seat::Side(asker))?;
    if let Err(e) = check_undoable(live, count) {
        slot.set_takeback(None, "refused by the rules");
        return Err(e);
    }
    let (undone, seen) = app
        .games
        .undo(&slot, &mut guard, count, viewer_of(Some(seat)), req.legal)
        .await?;
    slot.set_takeback(None, "accepted");
    drop(guard);
    Ok(undone_reply(&undone, &seen.change))
}

/// The body of `POST /api/games/{id}/branch`.
#[derive(Deserialize)]
struct BranchBody {
    at: Option<usize>,
}

/// `POST /api/games/{id}/branch`.
pub async fn branch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    to_the_end(branch_now(app, id, headers, body)).await
}

/// [`branch`], run to its end.
async fn branch_now(
    app: Arc<App>,
    id: String,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let viewer = slot.viewer(bearer(&headers))?;
    let req: BranchBody = if body.iter().all(u8::is_ascii_whitespace) {
        BranchBody { at: None }
    } else {
        parse_body(&body)?
    };
    let (record, seed) = {
        let mut guard = slot.live.lock().await;
        let live = app.games.ensure(&slot, &mut guard).await?;
        // a branch replays the record: only for whoever may read it
        if !live.sees_all(viewer) {
            return Err(hidden_record());
        }
        let n = live.len();
        let at = req.at.unwrap_or(n);
        if at > n {
            return Err(ApiError::bad_request(format!(
                "at={at}: the record has only {n} actions"
            )));
        }
        let mut r = live.game.record().clone();
        r.actions.truncate(at);
        let over = matches!(live.game.to_act(), ToAct::Over(_));
        if slot.row.salt.is_some() && !over {
            // Secret dice: a branch of a sealed game that goes on must not roll the game's
            // own dice (it would show the next roll). Its rolls so far are kept as given
            // (physical dice) and what follows is drawn from a fresh seed.
            let seats = live.game.seats();
            for (a, e) in r.actions.iter_mut().zip(&live.log) {
                if !seats.contains(&e.side) {
                    a.manual = true;
                }
            }
            let fresh = random_seed()?;
            r.seed = fresh;
            (r, fresh)
        } else {
            (r, slot.row.seed)
        }
    };
    let new_id = format!("g_{}", random_hex(12)?);
    let token = random_hex(16)?;
    let row = GameRow {
        id: new_id.clone(),
        scenario: slot.row.scenario.clone(),
        scenario_digest: slot.row.scenario_digest.clone(),
        rules: slot.row.rules.clone(),
        seed,
        mode: Mode::Hotseat.name().to_string(),
        created_at: now_seconds(),
        token_first: None,
        token_second: None,
        token_both: Some(token_hash(&token)),
        computer: None,
        computer_side: None,
        branched_from: Some(slot.id.clone()),
        salt: None,
    };
    app.games.create(row, Start::Replay(record)).await?;
    let mut seats = BTreeMap::new();
    seats.insert("both".to_string(), token);
    let links = seat_links(&new_id, &seats);
    Ok(json(
        StatusCode::CREATED,
        to_json(&Created {
            id: new_id,
            mode: Mode::Hotseat.name(),
            seats,
            urls: seat_urls(app.public_url(), &links),
            links,
            commitment: None,
        })?,
    ))
}

/// `GET /api/games/{id}/replay/{n}`: the state view after `n` actions, as the request's
/// viewer sees it.
pub async fn replay(
    State(app): State<Arc<App>>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let viewer = slot.viewer(bearer(&headers))?;
    let n: usize = n
        .parse()
        .map_err(|_| ApiError::bad_request(format!("'{n}' is not a number of actions")))?;
    let (record, log) = {
        let mut guard = slot.live.lock().await;
        let live = app.games.ensure(&slot, &mut guard).await?;
        let len = live.len();
        if n > len {
            return Err(ApiError::bad_request(format!(
                "the record has only {len} actions, not {n}"
            )));
        }
        let mut r = live.game.record().clone();
        r.actions.truncate(n);
        (r, live.log_for(viewer, &live.log[..n.min(live.log.len())]))
    };
    let lib = app.library().clone();
    let id2 = slot.id.clone();
    let body = tokio::task::spawn_blocking(move || -> Result<String, ApiError> {
        let game = lib
            .resume(record)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        let mut v = game.view(viewer);
        if let Value::Object(m) = &mut v {
            m.insert("id".into(), Value::from(id2));
            m.insert("log".into(), serde_json::to_value(&log).unwrap_or_default());
        }
        Ok(v.to_string())
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(json(StatusCode::OK, body))
}

/// `GET /api/games/{id}/ws`: the state on connect and after every change.
///
/// A watcher sees the game as its seat does: the token in `?seat=TOKEN` (or an
/// `Authorization: Bearer` header), a spectator without one; a wrong token is 401.
pub async fn ws(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
    client: Option<axum::Extension<crate::Client>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let q = q.unwrap_or_default();
    let args = query_args(&q);
    let token = args.get("seat").copied().or_else(|| bearer(&headers));
    let viewer = slot.viewer(token)?;
    let upgrade =
        upgrade.map_err(|e| ApiError::bad_request(format!("this is a WebSocket endpoint: {e}")))?;
    // one of the client's places for a socket, held until the socket closes (429 when all
    // are taken)
    let place = match app.guard.websocket(client.map(|c| c.0)) {
        Ok(p) => p,
        Err(refused) => return Ok(refused.into_response()),
    };
    // what one socket may cost: the client's messages are small (and ignored); the server's
    // are written one at a time, each awaited (a state view of a long game is the largest)
    Ok(upgrade
        .max_message_size(64 * 1024)
        .max_frame_size(64 * 1024)
        .read_buffer_size(16 * 1024)
        .write_buffer_size(16 * 1024)
        .max_write_buffer_size(16 * 1024 * 1024)
        .on_upgrade(move |socket| watch_game(socket, app, slot, viewer, place)))
}

/// Sends the watcher the game's messages until it goes: it closes the socket, it does not
/// answer a ping by the next one (every [`crate::Limits::ws_ping`]), or it does not take a
/// message within that time. Everything the socket holds (the subscription to the game, its
/// place under the per-address cap) is dropped with this task: nothing else keeps it.
async fn watch_game(
    mut socket: WebSocket,
    app: Arc<App>,
    slot: Arc<Slot>,
    viewer: Viewer,
    place: crate::net::Place,
) {
    let _place = place;
    let every = app
        .limits()
        .ws_ping
        .max(std::time::Duration::from_millis(10));
    let mut rx = slot.subscribe(viewer);
    let current = |app: Arc<App>, slot: Arc<Slot>| async move {
        let state = app.games.full_state(&slot, viewer).await.ok()?;
        Some(crate::games::ws_state_message(
            &state,
            slot.pending_takeback().as_ref(),
        ))
    };
    // a send the client does not take within `every` ends the watch
    async fn send(socket: &mut WebSocket, msg: Message, every: std::time::Duration) -> bool {
        matches!(
            tokio::time::timeout(every, socket.send(msg)).await,
            Ok(Ok(()))
        )
    }
    let Some(first) = current(app.clone(), slot.clone()).await else {
        return;
    };
    if !send(&mut socket, Message::Text(first.into()), every).await {
        return;
    }
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = true;
    loop {
        tokio::select! {
            msg = rx.recv() => {
                let text = match msg {
                    Ok(m) => m.to_string(),
                    Err(RecvError::Lagged(_)) => {
                        // skip what was missed: the whole state instead
                        rx = rx.resubscribe();
                        match current(app.clone(), slot.clone()).await {
                            Some(t) => t,
                            None => break,
                        }
                    }
                    Err(RecvError::Closed) => break,
                };
                if !send(&mut socket, Message::Text(text.into()), every).await {
                    break;
                }
            }
            _ = ping.tick() => {
                if !heard {
                    tracing::debug!("a watcher of {} did not answer its ping: closed", slot.id);
                    break;
                }
                heard = false;
                if !send(&mut socket, Message::Ping(Default::default()), every).await {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                // a pong, or anything else: the client is there (its messages are ignored)
                Some(Ok(_)) => heard = true,
            },
        }
    }
    drop(rx);
    // the last watcher of a game no client waits on: a search for it stops
    slot.abandon_if_alone();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(1),
        socket.send(Message::Close(None)),
    )
    .await;
}
