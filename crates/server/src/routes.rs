//! The HTTP handlers of `docs/api.md`.

use crate::error::ApiError;
use crate::games::{random_hex, token_hash, with_change, Mode, Seat, Slot, TakeBack};
use crate::store::GameRow;
use crate::App;
use axum::body::Bytes;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use engine::{Rules, Side, ToAct};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

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

/// `GET /api/rules`.
pub async fn rules(State(app): State<Arc<App>>) -> Response {
    json(StatusCode::OK, app.rules_json.to_string())
}

/// `GET /api/odds?attack=13&defence=4&doubled=false`.
pub async fn odds(RawQuery(q): RawQuery) -> Result<Response, ApiError> {
    let q = q.unwrap_or_default();
    let mut args: BTreeMap<&str, &str> = BTreeMap::new();
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        args.insert(k, v);
    }
    let num = |name: &str| -> Result<u32, ApiError> {
        let v = args
            .get(name)
            .ok_or_else(|| ApiError::bad_request(format!("give {name}=N")))?;
        v.parse()
            .map_err(|_| ApiError::bad_request(format!("{name}={v} is not a whole number")))
    };
    let attack = num("attack")?;
    let defence = match args.get("defence").or_else(|| args.get("defense")) {
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
    let view = present::odds_view(attack, defence, doubled)
        .ok_or_else(|| ApiError::bad_request(format!("defence {defence} is too large")))?;
    Ok(json(StatusCode::OK, to_json(&view)?))
}

/// The body of `POST /api/games`.
#[derive(Deserialize)]
struct NewGame {
    scenario: String,
    seed: Option<u64>,
    #[serde(default)]
    mode: Option<String>,
    computer_side: Option<String>,
    computer: Option<String>,
}

/// The answer to creating a game.
#[derive(Serialize)]
struct Created {
    id: String,
    mode: &'static str,
    seats: BTreeMap<String, String>,
    links: BTreeMap<String, String>,
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
    let req: NewGame = parse_body(&body)?;
    let mode_name = req.mode.as_deref().unwrap_or("hotseat");
    let mode = Mode::parse(mode_name).ok_or_else(|| {
        ApiError::bad_request(format!(
            "mode '{mode_name}': give hotseat, computer or online"
        ))
    })?;
    let sc = app.games.scenario(&req.scenario).cloned().ok_or_else(|| {
        let ids: Vec<&str> = app
            .games
            .scenarios()
            .iter()
            .map(|(i, _)| i.as_str())
            .collect();
        ApiError::not_found(format!(
            "there is no scenario '{}' (shipped: {})",
            req.scenario,
            ids.join(", ")
        ))
    })?;
    let side_of = |name: &str| -> Result<Side, ApiError> {
        sc.sides
            .iter()
            .position(|s| s.eq_ignore_ascii_case(name))
            .map(|i| Side(i as u8))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "there is no side '{name}': the sides are {} and {}",
                    sc.sides[0], sc.sides[1]
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
                .unwrap_or_else(|| crate::games::default_computer().to_string());
            ai::player(&spec, 0).map_err(|e| ApiError::bad_request(format!("computer: {e}")))?;
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
    let mut row = GameRow {
        id: id.clone(),
        scenario: req.scenario.clone(),
        scenario_digest: engine::hash_text(sc.digest),
        rules: naw::RULES_VERSION.to_string(),
        seed: match req.seed {
            Some(s) => s,
            None => random_seed()?,
        },
        mode: mode.name().to_string(),
        created_at: now_seconds(),
        token_first: None,
        token_second: None,
        token_both: None,
        computer,
        computer_side,
        branched_from: None,
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
            seats.insert(sc.sides[human.0 as usize].clone(), t);
        }
        Mode::Online => {
            for (i, side) in sc.sides.iter().enumerate() {
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
    app.games.create(row, Vec::new()).await?;
    tracing::info!("new {} game {id} of {}", mode.name(), req.scenario);
    let links = seat_links(&id, &seats);
    Ok(json(
        StatusCode::CREATED,
        to_json(&Created {
            id,
            mode: mode.name(),
            seats,
            links,
        })?,
    ))
}

/// `GET /api/games/{id}`.
pub async fn state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let state = app.games.full_state(&slot).await?;
    Ok(json(StatusCode::OK, state.to_string()))
}

/// `GET /api/players`: the computer players a game may be given, weakest first.
pub async fn players() -> Response {
    let v = serde_json::json!({
        "players": ai::PLAYERS,
        "default": crate::games::default_computer(),
        "levels": LEVELS
            .iter()
            .map(|(name, spec, what)| serde_json::json!({"name": name, "spec": spec, "about": what}))
            .collect::<Vec<_>>(),
    });
    json(StatusCode::OK, v.to_string())
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
    let side = match seat {
        Seat::Both => "both".to_string(),
        Seat::Side(s) => slot.scenario.sides[s.0 as usize].clone(),
    };
    let v = serde_json::json!({"side": side, "mode": slot.mode.name()});
    Ok(json(StatusCode::OK, v.to_string()))
}

/// `GET /api/games/{id}/map`.
pub async fn map(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let m = app
        .maps
        .get(&slot.row.scenario)
        .cloned()
        .ok_or_else(|| ApiError::not_found("this game's map is not shipped"))?;
    Ok(json(StatusCode::OK, m.to_string()))
}

/// `GET /api/games/{id}/moves/{unit}`.
pub async fn moves(
    State(app): State<Arc<App>>,
    Path((id, unit)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    let g = &live.session.game;
    let u = present::find_unit(g, &unit)
        .ok_or_else(|| ApiError::not_found(format!("there is no unit '{unit}' in this game")))?;
    let view = present::moves_view(g, u);
    Ok(json(StatusCode::OK, to_json(&view)?))
}

/// `GET /api/games/{id}/record`.
pub async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    Ok(json(StatusCode::OK, live.session.record.to_json()))
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
    events: &'a [present::EventEntry],
}

/// Checks that `seat` may act now and that the client saw the latest record.
fn may_act(
    slot: &Slot,
    live: &crate::games::Live,
    seat: Seat,
    expect: Option<usize>,
) -> Result<(), ApiError> {
    let n = live.session.record.actions.len();
    if let Some(e) = expect {
        if e != n {
            return Err(ApiError::conflict(format!(
                "the record has {n} actions, not {e}: someone acted first; reload the state"
            )));
        }
    }
    if let ToAct::Side(s) = live.session.game.to_act() {
        if !seat.covers(s) {
            let name = present::side_name(&live.session.game, s);
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
    let req: ActionBody = parse_body(&body)?;
    let seat = slot.seat(bearer(&headers))?;
    if req.action.len() > 200 {
        return Err(ApiError::bad_request("an action is at most 200 characters"));
    }
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    may_act(&slot, live, seat, req.expect)?;
    let text = req.action.clone();
    let (applied, change) = app
        .games
        .run(&slot, &mut guard, req.legal, move |live, applied| {
            live.act(&text, applied).map_err(ApiError::refused)
        })
        .await?;
    drop(guard);
    Ok(json(
        StatusCode::OK,
        with_change(
            &ActedHead {
                accepted: &applied.accepted,
                events: &applied.events,
            },
            &change,
        ),
    ))
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
fn undo_count(slot: &Slot, live: &crate::games::Live, seat: Seat) -> Result<usize, ApiError> {
    if live.log.is_empty() {
        return Err(ApiError::refused(engine::Refusal::new(
            "5.14",
            "there is nothing to take back",
        )));
    }
    let sides = &slot.scenario.sides;
    let side_of = |name: &str| sides.iter().position(|s| s == name).map(|i| Side(i as u8));
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
                    sides[s.0 as usize]
                )))
            }
            // a die: the rules refuse to take it back (5.14)
            None => return Ok(count),
        }
    }
    Err(ApiError::refused(engine::Refusal::new(
        "5.14",
        "there is no action of yours to take back",
    )))
}

/// The refusal of a take-back past a die (5.14), checked before anything changes.
fn check_undoable(live: &crate::games::Live, count: usize) -> Result<(), ApiError> {
    if live.session.game.undoable() < count {
        return Err(ApiError::refused(engine::Refusal::new(
            "5.14",
            "a die has been rolled since: the move can no longer be taken back",
        )));
    }
    Ok(())
}

fn undone_reply(undone: &[String], change: &present::StateChange) -> Response {
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
    let req = undo_body(&body)?;
    let seat = slot.seat(bearer(&headers))?;
    let mut guard = slot.live.lock().await;
    let live = app.games.ensure(&slot, &mut guard).await?;
    let count = undo_count(&slot, live, seat)?;
    if slot.mode == Mode::Online {
        check_undoable(live, count)?;
        let by = match seat {
            Seat::Side(s) => slot.scenario.sides[s.0 as usize].clone(),
            Seat::Both => "both".to_string(),
        };
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
            actions_recorded: live.session.record.actions.len(),
        };
        slot.set_takeback(Some(t.clone()), "asked");
        drop(guard);
        let v = serde_json::json!({"requested": t});
        return Ok(json(StatusCode::ACCEPTED, v.to_string()));
    }
    let (undone, change) = app.games.undo(&slot, &mut guard, count, req.legal).await?;
    drop(guard);
    Ok(undone_reply(&undone, &change))
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
    let n = live.session.record.actions.len();
    if t.actions_recorded != n {
        slot.set_takeback(None, "the game has moved on since it was asked");
        return Err(ApiError::conflict(
            "the game has moved on since the take-back was asked",
        ));
    }
    let asker = slot
        .scenario
        .sides
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
        slot.set_takeback(None, "refused by the rules (5.14)");
        return Err(e);
    }
    let (undone, change) = app.games.undo(&slot, &mut guard, count, req.legal).await?;
    slot.set_takeback(None, "accepted");
    drop(guard);
    Ok(undone_reply(&undone, &change))
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
    body: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let req: BranchBody = if body.is_empty() {
        BranchBody { at: None }
    } else {
        parse_body(&body)?
    };
    let actions = {
        let mut guard = slot.live.lock().await;
        let live = app.games.ensure(&slot, &mut guard).await?;
        let n = live.session.record.actions.len();
        let at = req.at.unwrap_or(n);
        if at > n {
            return Err(ApiError::bad_request(format!(
                "at={at}: the record has only {n} actions"
            )));
        }
        live.session.record.actions[..at].to_vec()
    };
    let new_id = format!("g_{}", random_hex(12)?);
    let token = random_hex(16)?;
    let row = GameRow {
        id: new_id.clone(),
        scenario: slot.row.scenario.clone(),
        scenario_digest: slot.row.scenario_digest.clone(),
        rules: slot.row.rules.clone(),
        seed: slot.row.seed,
        mode: Mode::Hotseat.name().to_string(),
        created_at: now_seconds(),
        token_first: None,
        token_second: None,
        token_both: Some(token_hash(&token)),
        computer: None,
        computer_side: None,
        branched_from: Some(slot.id.clone()),
    };
    app.games.create(row, actions).await?;
    let mut seats = BTreeMap::new();
    seats.insert("both".to_string(), token);
    let links = seat_links(&new_id, &seats);
    Ok(json(
        StatusCode::CREATED,
        to_json(&Created {
            id: new_id,
            mode: Mode::Hotseat.name(),
            seats,
            links,
        })?,
    ))
}

/// `GET /api/games/{id}/replay/{n}`.
pub async fn replay(
    State(app): State<Arc<App>>,
    Path((id, n)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let n: usize = n
        .parse()
        .map_err(|_| ApiError::bad_request(format!("'{n}' is not a number of actions")))?;
    let (record, log) = {
        let mut guard = slot.live.lock().await;
        let live = app.games.ensure(&slot, &mut guard).await?;
        let len = live.session.record.actions.len();
        if n > len {
            return Err(ApiError::bad_request(format!(
                "the record has only {len} actions, not {n}"
            )));
        }
        let mut r = live.session.record.clone();
        r.actions.truncate(n);
        (r, live.log[..n.min(live.log.len())].to_vec())
    };
    let sc = slot.scenario.clone();
    let id2 = slot.id.clone();
    let body = tokio::task::spawn_blocking(move || -> Result<String, ApiError> {
        let start = naw::Game::from_arc(sc);
        let digest = start.scenario().digest;
        let s = engine::Session::resume(start, record, digest)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        to_json(&present::state_view(&s, Some(&id2), &log))
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(json(StatusCode::OK, body))
}

/// `GET /api/games/{id}/ws`: the state on connect and after every change.
pub async fn ws(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let upgrade =
        upgrade.map_err(|e| ApiError::bad_request(format!("this is a WebSocket endpoint: {e}")))?;
    Ok(upgrade
        .max_message_size(64 * 1024)
        .on_upgrade(move |socket| watch_game(socket, app, slot)))
}

async fn watch_game(mut socket: WebSocket, app: Arc<App>, slot: Arc<Slot>) {
    let mut rx = slot.tx.subscribe();
    let current = |app: Arc<App>, slot: Arc<Slot>| async move {
        let state = app.games.full_state(&slot).await.ok()?;
        Some(crate::games::ws_state_message(
            &state,
            slot.pending_takeback().as_ref(),
        ))
    };
    let Some(first) = current(app.clone(), slot.clone()).await else {
        return;
    };
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
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
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            },
        }
    }
}
