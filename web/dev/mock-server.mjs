// A stand-in for `grognard play`'s HTTP API (docs/api.md), for developing the board without the
// real server. It serves web/ and answers every /api route by running the real CLI
// (target/debug/grognard) on a record file per game: `grognard show --json` already gives the
// state view (with `system`, `overlays`, typed events in `log` and `setup_events`); the mock adds
// the game's `id`, structures `legal_actions` as the server does (`text`, `kind`, `unit`, `from`,
// `to`, `target`), answers actions, undos and WebSocket messages with *changes* (docs/api.md "The
// change"), and serves the map with hexmap's standard `legend` and `parity` as the server does.
// Not part of the product: the server does not embed web/dev/.
//
//   cargo build -p grognard && node web/dev/mock-server.mjs [--port 8814] [--demo]
//
// Seats: every game route takes `Authorization: Bearer <token>` (a wrong token is 401), the
// WebSocket `?seat=<token>`. `--demo` (or GROGNARD_DEMO=1) adds what Napoleon at War never sends,
// to exercise the generic board: a stack with two leaders, facing, markers, hidden units, one
// unit turned artillery with a stand-in range, and hidden information by seat (a seat that is
// not the hot-seat sees the other side's action texts empty until the game is over, and the
// record is 403 for it).
//
// No dependencies (a minimal WebSocket server is included).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(here, '..');
const ROOT = path.resolve(WEB, '..');
const BIN = process.env.GROGNARD_BIN || path.join(ROOT, 'target/debug/grognard');
const DATA = fs.mkdtempSync('/tmp/grognard-mock-');
const portArg = process.argv.indexOf('--port');
const PORT = portArg > 0 ? Number(process.argv[portArg + 1]) : 8814;
const DEMO = process.argv.includes('--demo') || process.env.GROGNARD_DEMO === '1';
const SIDES = ['French', 'Allied'];

/**
 * @typedef {{file: string, scenario: string, mode: string, seats: Record<string, string>,
 *   computer_side?: string, computer?: string, notes: Map<number, string>, sockets: Set<{sock: any, viewer: string|null}>}} MockGame
 */
/** @type {Map<string, MockGame>} */
const games = new Map();

function run(args) {
  return new Promise((resolve) => {
    execFile(BIN, args, { maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr });
    });
  });
}

// ---------------------------------------------------------------- map
function neighbour(hex, dir) {
  const x = Number(hex.slice(0, 2)), y = Number(hex.slice(2));
  const s = x % 2 === 0 ? 1 : 0;
  const d = { E: [0, -1], W: [0, 1], NE: [-1, s - 1], NW: [-1, s], SE: [1, s - 1], SW: [1, s] }[dir];
  const p = (n) => String(n).padStart(2, '0');
  return p(x + d[0]) + p(y + d[1]);
}
const DIRS = ['E', 'NE', 'NW', 'W', 'SW', 'SE'];

/** hexmap's standard legend as the server serialises it (`style` left out for `edge`). */
const LEGEND = {
  features: [
    { id: 'road', name: 'Road', stroke: '#9C5A1A', style: 'route', width: 0.1 },
    { dash: '0.12 0.07', id: 'trail', name: 'Trail', stroke: '#9C5A1A', style: 'route', width: 0.055 },
    { id: 'river', name: 'River', stroke: '#0072B2', width: 0.15 },
    { id: 'stream', name: 'Stream', stroke: '#3A9AD9', width: 0.07 },
    { id: 'bridge', name: 'Bridge', stroke: '#1F1F1F', style: 'crossing', width: 0.19 },
    { id: 'slope', name: 'Slope', stroke: '#6B4423', style: 'hachured', width: 0.035 },
  ],
  terrain: [
    { code: '.', fill: '#F4EFD9', id: 'clear', name: 'Clear' },
    { code: 'f', fill: '#9FD3B5', id: 'forest', name: 'Forest', pattern: 'trees' },
    { code: 'r', fill: '#E2CCA3', id: 'rough', name: 'Rough', pattern: 'hatching' },
    { code: 'm', fill: '#CBE6EE', id: 'marsh', name: 'Marsh', pattern: 'tufts' },
    { code: 't', fill: '#E9D6CF', id: 'town', name: 'Town', pattern: 'buildings' },
  ],
};

/** The map view of `GET /api/games/{id}/map`, read from the map file (standard legend, even rows shifted). */
function loadMap() {
  const text = fs.readFileSync(path.join(ROOT, 'crates/scenarios/maps/leipzig.toml'), 'utf8');
  const get = (k) => (text.match(new RegExp(`^${k} = "?([^"\\n]*)"?`, 'm')) || [])[1];
  const codes = Object.fromEntries(LEGEND.terrain.map((t) => [t.code, t.id]));
  const terr = text.match(/terrain = \[([\s\S]*?)\]/)[1].match(/"([^"]*)"/g).map((s) => [...s.slice(1, -1)].map((c) => codes[c]));
  const order = LEGEND.features.map((f) => f.id);
  const sides = new Map();
  const hs = text.split('[hexsides]')[1].split('[[places]]')[0];
  for (const m of hs.matchAll(/(\w+) = \[([\s\S]*?)\]/g)) {
    for (const e of m[2].match(/"([^"]*)"/g) || []) {
      let [a, dir] = e.slice(1, -1).split('/');
      let b = dir;
      if (/^\d{4}$/.test(dir)) dir = DIRS.find((d) => neighbour(a, d) === b);
      else b = neighbour(a, dir);
      const key = [a, b].sort().join('/');
      if (!sides.has(key)) sides.set(key, { a, b, dir, features: [] });
      sides.get(key).features.push(m[1]);
    }
  }
  for (const side of sides.values()) side.features.sort((x, y) => order.indexOf(x) - order.indexOf(y));
  const places = [...text.matchAll(/\[\[places\]\]\s*name = "([^"]*)"\s*hex = "(\d{4})"/g)].map((m) => ({ name: m[1], hex: m[2] }));
  return { id: get('id'), title: get('title'), width: Number(get('width')), height: Number(get('height')), terrain: terr, hexsides: [...sides.values()], slope_hexes: [], places, legend: LEGEND, parity: 'even' };
}
const MAP = loadMap();

// ---------------------------------------------------------------- state view
/**
 * The state view of a game as `viewer` sees it (a side, `both` for the hot-seat's referee, null
 * for a spectator): the CLI's `show --json`, with the game's id, structured legal actions, the
 * computer's explanations in the log, and (--demo) what Napoleon at War never sends.
 */
async function stateOf(id, g, viewer, file = g.file) {
  const r = await run(['show', file, '--json']);
  if (r.code) throw new Error(r.stderr);
  const s = JSON.parse(r.stdout);
  const view = { id, ...s };
  view.system = s.system || 'naw';
  view.log = (s.log || []).map((e) => (g.notes.has(e.n) ? { ...e, events: [{ case: 'computer', kind: 'computer', text: g.notes.get(e.n) }, ...e.events] } : e));
  if (DEMO) demo(view, viewer);
  const byId = new Map(view.units.map((u) => [u.id, u]));
  view.legal = s.legal || [];
  view.legal_actions = view.legal.map((t) => structured(t, byId));
  return view;
}

/** A legal action's text with its structure, as the server's `legal_actions` (crates/present). */
function structured(text, byId) {
  const w = text.split(/\s+/);
  const v = w[0];
  const hex = (u) => byId.get(u)?.hex;
  const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, x]) => x != null));
  if (v === 'move' && w.length === 3) return clean({ text, kind: 'move', unit: w[1], from: hex(w[1]) ?? byId.get(w[1])?.arrival?.hex, to: w[2] });
  if ((v === 'retreat' || v === 'advance') && w.length === 3) return clean({ text, kind: v, unit: w[1], from: hex(w[1]), to: w[2] });
  if (v === 'attack') return clean({ text, kind: 'attack', unit: w[1], from: hex(w[1]), to: hex(w[2]), target: w[2] });
  if (v === 'resolve') return clean({ text, kind: 'resolve', to: hex(w[1]), target: w[1] });
  if (v === 'stand') return clean({ text, kind: 'stand', unit: w[1], from: hex(w[1]) });
  return { text, kind: ['lose', 'roll', 'hold', 'end'].includes(v) ? v : 'other' };
}

const SMALL = ['turn', 'night', 'phasing', 'phase', 'step', 'to_act', 'actions_recorded', 'undoable', 'state_hash', 'demoralization', 'combats', 'obligations', 'outcome', 'system', 'overlays'];
/**
 * The change from `before` to `after` (docs/api.md "The change"): the small fields, the units
 * that changed, the new log entries (none after a take-back), and the legal actions when asked.
 */
function changeOf(before, after, legal) {
  const c = { base: before.actions_recorded };
  for (const k of SMALL) c[k] = after[k];
  const was = new Map(before.units.filter((u) => u.id).map((u) => [u.id, JSON.stringify(u)]));
  c.units = after.units.filter((u) => !u.id || was.get(u.id) !== JSON.stringify(u));
  c.log = after.actions_recorded > before.actions_recorded ? after.log.filter((e) => e.n > before.actions_recorded) : [];
  if (legal) { c.legal = after.legal; c.legal_actions = after.legal_actions; }
  return c;
}

/** Hexes within two of `hex` on the map (the demo artillery's stand-in range). */
function near(hex, reach) {
  const seen = new Set([hex]);
  let ring = [hex];
  for (let i = 0; i < reach; i++) {
    const next = [];
    for (const h of ring) for (const d of DIRS) { const n = neighbour(h, d); if (!seen.has(n) && MAP.terrain[Number(n.slice(0, 2)) - 1]?.[Number(n.slice(2)) - 1]) { seen.add(n); next.push(n); } }
    ring = next;
  }
  seen.delete(hex);
  return [...seen];
}

/** --demo: a stack with two leaders, facing, markers, hidden units, an artillery unit with its
 *  range, and the other side's actions hidden from a seat (Napoleon at War has none of these). */
function demo(view, viewer) {
  const onMap = (side) => view.units.filter((u) => u.side === side && u.status === 'map' && u.hex);
  const fr = onMap('French'), al = onMap('Allied');
  if (fr[0]) {
    view.units.push({ id: 'FR.Nap', side: 'French', nation: 'FR', designation: 'Nap', type: 'leader', strength: 0, movement: 6, status: 'map', hex: fr[0].hex, moved: false, in_combat: false, facing: 0 });
    view.units.push({ id: 'FR.Ney', side: 'French', nation: 'FR', designation: 'Ney', type: 'leader', strength: 0, movement: 6, status: 'map', hex: fr[0].hex, moved: false, in_combat: false });
    fr[0].facing = 3;
  }
  if (fr[1]) fr[1].markers = ['disordered'];
  if (fr[2]) { fr[2].type = 'artillery'; view.overlays = { ...view.overlays, range: { ...(view.overlays?.range || {}), [fr[2].id]: near(fr[2].hex, 2) } }; }
  if (al[0]) { al[0].markers = ['spent', 'out_of_supply']; al[0].facing = 1; }
  if (al[1]) al[1].facing = 4;
  const occupied = new Set(view.units.map((u) => u.hex));
  let n = 0;
  for (const u of al) {
    for (const d of ['W', 'SW']) {
      const hx = neighbour(u.hex, d);
      if (n < 2 && !occupied.has(hx) && MAP.terrain[Number(hx.slice(0, 2)) - 1]?.[Number(hx.slice(2)) - 1]) {
        view.units.push({ side: 'Allied', hidden: true, status: 'map', hex: hx });
        occupied.add(hx);
        n++;
      }
    }
  }
  if (al[2]) view.units.push({ side: 'Allied', hidden: true, status: 'map', hex: al[2].hex });
  // a seat does not see the other seat's action texts until the game is over
  if (!view.outcome && viewer !== 'both') view.log = view.log.map((e) => (e.side !== viewer && e.side !== 'chance' ? { ...e, action: '', events: e.events.filter((x) => x.case !== 'computer') } : e));
}

/** May `viewer` have the record now? (--demo hides the other seat's actions from a seat.) */
function recordVisible(view, viewer) {
  return !DEMO || viewer === 'both' || !!view.outcome;
}

// ---------------------------------------------------------------- http helpers
function send(res, status, body) {
  const b = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(b);
}
function err(res, status, kind, why, kase) {
  send(res, status, { error: { status, kind, why, ...(kase ? { case: kase } : {}) } });
}
function body(req) {
  return new Promise((resolve) => {
    let b = '';
    req.on('data', (c) => (b += c));
    req.on('end', () => { try { resolve(b ? JSON.parse(b) : {}); } catch { resolve(null); } });
  });
}
const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png', '.ico': 'image/x-icon' };
function serveStatic(req, res) {
  let p = decodeURIComponent(new URL('http://x' + req.url).pathname);
  if (p === '/') p = '/index.html';
  const f = path.resolve(WEB, '.' + p);
  if (!f.startsWith(WEB) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) { res.writeHead(404); res.end('not found'); return; }
  res.writeHead(200, { 'Content-Type': MIME[path.extname(f)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
  fs.createReadStream(f).pipe(res);
}
const token = () => crypto.randomBytes(16).toString('hex');

function readRecord(file) { return JSON.parse(fs.readFileSync(file, 'utf8')); }

async function newGame(scenario, seed, mode, computer_side, actions) {
  const id = 'g_' + crypto.randomBytes(12).toString('hex');
  const file = path.join(DATA, id + '.json');
  const r = await run(['new', scenario, '--seed', String(seed ?? Math.floor(Math.random() * 1e9)), '-o', file]);
  if (r.code) return { error: r.stderr };
  if (actions) { const rec = readRecord(file); rec.actions = actions; fs.writeFileSync(file, JSON.stringify(rec, null, 2)); }
  let seats = {};
  if (mode === 'hotseat') seats = { both: token() };
  else if (mode === 'computer') { for (const s of SIDES) if (s !== computer_side) seats[s] = token(); }
  else for (const s of SIDES) seats[s] = token();
  games.set(id, { file, scenario, mode, seats, computer_side: mode === 'computer' ? computer_side : undefined, notes: new Map(), sockets: new Set() });
  const links = {};
  for (const [k, t] of Object.entries(seats)) links[k] = `/#game=${id}&seat=${t}&side=${k}`;
  return { id, mode, seats, links };
}

function sideOfToken(g, tok) {
  for (const [k, t] of Object.entries(g.seats)) if (t === tok) return k;
  return null;
}

/** The viewer of a request: its token's seat, null without a token, undefined for a wrong one. */
function viewerOf(g, tok) {
  if (!tok) return null;
  return sideOfToken(g, tok) ?? undefined;
}

async function computerTurn(id, g, events, accepted) {
  // the mock's "computer": a random legal action (ends the phase now and then)
  for (let i = 0; i < 400; i++) {
    const s = await stateOf(id, g, 'both');
    if (s.to_act !== g.computer_side || s.outcome) return;
    const legal = s.legal.filter((a) => a !== 'end');
    const pick = legal.length && Math.random() < 0.85 ? legal[Math.floor(Math.random() * legal.length)] : 'end';
    const before = s.actions_recorded;
    let r = await run(['act', g.file, pick]);
    if (r.code) { r = await run(['act', g.file, s.legal[0]]); if (r.code) return; }
    const note = `${g.computer_side} (random) ${r.code ? s.legal[0] : pick}: a random legal action.`;
    g.notes.set(before + 1, note);
    const s2 = await stateOf(id, g, 'both');
    for (const e of s2.log.filter((x) => x.n > before)) { accepted.push(e.action); events.push(...e.events); }
  }
}

/** Sends each watcher the change as it sees it. */
async function broadcast(id, g, before, events) {
  for (const w of g.sockets) {
    try {
      const b = await stateOf(id, g, w.viewer, before);
      const a = await stateOf(id, g, w.viewer);
      w.sock.write(wsFrame(JSON.stringify({ type: 'change', change: changeOf(b, a, false), events })));
    } catch { g.sockets.delete(w); }
  }
}

/** A copy of a game's record file as it stands (to diff a change against). */
function snapshot(g) {
  const f = g.file.replace(/\.json$/, `-before-${crypto.randomBytes(3).toString('hex')}.json`);
  fs.copyFileSync(g.file, f);
  return f;
}

// ---------------------------------------------------------------- routes
const server = http.createServer(async (req, res) => {
  const url = new URL('http://x' + req.url);
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] !== 'api') return serveStatic(req, res);
  // like the server: every request that is not a read is JSON
  if (req.method !== 'GET' && req.method !== 'HEAD' && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] || '')) {
    return err(res, 415, 'bad_request', 'a request to /api/ that is not a read carries Content-Type: application/json');
  }
  try {
    if (parts[1] === 'scenarios') {
      const r = await run(['scenarios', '--json']);
      return send(res, 200, JSON.parse(r.stdout).map(({ components, ...s }) => s));
    }
    if (parts[1] === 'players') return send(res, 200, { players: ['random'], default: 'random', levels: [{ name: 'Easy', spec: 'random', about: 'The mock picks random legal actions.' }] });
    if (parts[1] === 'rules') return send(res, 200, RULES);
    if (parts[1] === 'odds') {
      const a = url.searchParams.get('attack'), d = url.searchParams.get('defence');
      const r = await run(['odds', a, d, '--json', ...(url.searchParams.get('doubled') === 'true' ? ['--terrain', 'doubled'] : [])]);
      if (r.code) return err(res, 400, 'bad_request', r.stderr.trim());
      const o = JSON.parse(r.stdout);
      return send(res, 200, { attack: Number(a), defence: Number(d), column: o.column, probabilities: o.probabilities });
    }
    if (parts[1] !== 'games') return err(res, 404, 'not_found', 'no such route');
    if (parts.length === 2 && req.method === 'POST') {
      const b = await body(req);
      if (!b || !b.scenario) return err(res, 400, 'bad_request', 'missing field scenario');
      const out = await newGame(b.scenario, b.seed, b.mode || 'hotseat', b.computer_side || 'Allied');
      if (out.error) return err(res, 404, 'not_found', out.error);
      const g = games.get(out.id);
      if (g.mode === 'computer') await computerTurn(out.id, g, [], []);
      return send(res, 201, out);
    }
    const id = parts[2];
    const g = games.get(id);
    if (!g) return err(res, 404, 'not_found', `no game ${id}`);
    const what = parts[3];
    const tok = (req.headers.authorization || '').replace(/^Bearer\s+/i, '');
    const viewer = viewerOf(g, tok);
    if (viewer === undefined) return err(res, 401, 'unauthorized', 'this seat token is not one of this game');
    if (!what && req.method === 'GET') return send(res, 200, await stateOf(id, g, viewer));
    if (what === 'map') return send(res, 200, MAP);
    if (what === 'seat') return viewer ? send(res, 200, { side: viewer, mode: g.mode }) : err(res, 401, 'unauthorized', 'a seat token is needed');
    if (what === 'takeback' && req.method === 'GET') return send(res, 200, { takeback: null });
    if (what === 'record') {
      if (!recordVisible(await stateOf(id, g, viewer), viewer)) return err(res, 403, 'forbidden', 'this game hides what each seat does: its record is given out when it is over');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(fs.readFileSync(g.file));
    }
    if (what === 'moves') {
      const r = await run(['moves', g.file, decodeURIComponent(parts[4]), '--json']);
      if (r.code) return err(res, 404, 'not_found', r.stderr.trim());
      const { cannot_move, ...m } = JSON.parse(r.stdout);
      return send(res, 200, m);
    }
    if (what === 'replay') {
      const n = Number(parts[4]);
      const rec = readRecord(g.file);
      if (!(n >= 0 && n <= rec.actions.length)) return err(res, 400, 'bad_request', `no position ${n}: the record holds ${rec.actions.length} actions`);
      const f2 = path.join(DATA, `${id}-replay.json`);
      fs.writeFileSync(f2, JSON.stringify({ ...rec, actions: rec.actions.slice(0, n) }));
      const s = await stateOf(id, g, viewer, f2);
      s.undoable = 0;
      return send(res, 200, s);
    }
    if (what === 'ws') { return err(res, 400, 'bad_request', 'websocket only'); }
    if (req.method !== 'POST') return err(res, 405, 'bad_request', 'no such route');
    const b = await body(req);
    if (b === null) return err(res, 400, 'bad_request', 'malformed JSON');
    if (what === 'branch') {
      const rec = readRecord(g.file);
      const at = b.at ?? rec.actions.length;
      if (at > rec.actions.length) return err(res, 400, 'bad_request', `the record holds ${rec.actions.length} actions`);
      const out = await newGame(g.scenario, rec.seed, 'hotseat', null, rec.actions.slice(0, at));
      return send(res, 201, out);
    }
    const side = viewer;
    if (!side) return err(res, 401, 'unauthorized', 'missing or wrong seat token');
    const beforeFile = snapshot(g);
    try {
      const before = await stateOf(id, g, side);
      if (what === 'undo') {
        const r = await run(['undo', g.file]);
        if (r.code) { const m = r.stderr.match(/refused: ([^:]+): (.*)/); return err(res, 422, 'refused', m ? m[2].trim() : r.stderr.trim(), m ? m[1] : '5.14'); }
        const after = await stateOf(id, g, side);
        await broadcast(id, g, beforeFile, []);
        return send(res, 200, { undone: r.stdout.split('\n')[0].replace(/^took back: /, '').trim(), change: changeOf(before, after, !!b.legal) });
      }
      if (what === 'actions') {
        if (typeof b.action !== 'string') return err(res, 400, 'bad_request', 'missing field action', 'action');
        if (b.expect != null && b.expect !== before.actions_recorded) return err(res, 409, 'conflict', `expect ${b.expect} but the record holds ${before.actions_recorded} actions`);
        if (side !== 'both' && before.to_act !== side) return err(res, 409, 'conflict', `it is not ${side}'s turn to act`);
        const r = await run(['act', g.file, b.action]);
        if (r.code) {
          const m = r.stderr.match(/refused: ([^:]+): (.*?)(?: \(action '.*'\))?$/m);
          if (m) return err(res, m[1] === 'action' ? 400 : 422, m[1] === 'action' ? 'bad_request' : 'refused', m[2].trim(), m[1]);
          return err(res, 400, 'bad_request', r.stderr.trim(), 'action');
        }
        const accepted = [], events = [];
        let after = await stateOf(id, g, side);
        for (const e of after.log.filter((x) => x.n > before.actions_recorded)) { accepted.push(e.action); events.push(...e.events); }
        if (g.mode === 'computer') {
          await computerTurn(id, g, events, accepted);
          after = await stateOf(id, g, side);
        }
        await broadcast(id, g, beforeFile, events);
        return send(res, 200, { accepted, events, change: changeOf(before, after, !!b.legal) });
      }
      return err(res, 404, 'not_found', 'no such route');
    } finally {
      fs.rmSync(beforeFile, { force: true });
    }
  } catch (e) {
    console.error(e);
    return err(res, 500, 'internal', String(e));
  }
});

// ---------------------------------------------------------------- websocket (server -> client text frames only)
function wsFrame(text) {
  const p = Buffer.from(text);
  let head;
  if (p.length < 126) head = Buffer.from([0x81, p.length]);
  else if (p.length < 65536) { head = Buffer.alloc(4); head[0] = 0x81; head[1] = 126; head.writeUInt16BE(p.length, 2); }
  else { head = Buffer.alloc(10); head[0] = 0x81; head[1] = 127; head.writeBigUInt64BE(BigInt(p.length), 2); }
  return Buffer.concat([head, p]);
}
server.on('upgrade', async (req, sock) => {
  const url = new URL('http://x' + req.url);
  const parts = url.pathname.split('/').filter(Boolean);
  const g = games.get(parts[2]);
  if (!g || parts[3] !== 'ws') { sock.destroy(); return; }
  const tok = url.searchParams.get('seat') || (req.headers.authorization || '').replace(/^Bearer\s+/i, '');
  const viewer = viewerOf(g, tok);
  if (viewer === undefined) { sock.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'); return; }
  const acc = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acc}\r\n\r\n`);
  const w = { sock, viewer };
  g.sockets.add(w);
  sock.on('data', (d) => { if ((d[0] & 0x0f) === 8) { g.sockets.delete(w); sock.end(); } });
  sock.on('close', () => g.sockets.delete(w));
  sock.on('error', () => g.sockets.delete(w));
  sock.write(wsFrame(JSON.stringify({ type: 'state', state: await stateOf(parts[2], g, viewer), events: [], takeback: null })));
});

// ---------------------------------------------------------------- a few rules, in our own words (mock only)
const RULES = [
  ['4.0', 'Sequence of play', 'Each game-turn has two player-turns; in each, the phasing player moves, then fights.'],
  ['4.1', 'Ending a phase', 'A player ends his phase when he has done all he wants and must.'],
  ['5.0', 'Movement', 'Units move hex by hex, paying the cost of each hex entered.'],
  ['5.11', 'Only the phasing player moves', 'Units of the non-phasing player may not move.'],
  ['5.12', 'Enemy units', 'A unit may never enter a hex held by an enemy unit.'],
  ['5.13', 'Leaving zones of control', 'A unit may not leave an enemy zone of control in the movement phase.'],
  ['5.14', 'Taking moves back', 'A move may be taken back until a die has been rolled.'],
  ['5.15', 'Movement allowance', 'A unit may not spend more movement points than its allowance in one phase.'],
  ['5.17', 'Once per phase', 'Each unit moves at most once per movement phase.'],
  ['5.22', 'Roads', 'A unit moving along a road from road hex to road hex pays half a movement point.'],
  ['5.32', 'One unit per hex', 'No two units may end a phase in one hex; a unit may pass through friends.'],
  ['6.0', 'Zones of control', 'The six hexes around a unit are its zone of control; entering one stops movement.'],
  ['7.0', 'Combat', 'The phasing player attacks adjacent enemy units; odds are attack against defence, rounded for the defender.'],
  ['7.1', 'Declaring attacks', 'Attacks are declared before any is resolved.'],
  ['7.11', 'Defenders that must be attacked', 'Every enemy unit in the zone of control of a phasing unit must be attacked.'],
  ['7.12', 'Attackers that must attack', 'Every phasing unit in an enemy zone of control must attack.'],
  ['8.41', 'Artillery must attack or bombard', 'Phasing artillery in an enemy zone of control must attack or bombard.'],
  ['7.6', 'Combat Results Table', 'Roll a die and cross-index it with the odds column: Ae, Ar, Dr, De, Ex.'],
  ['7.7', 'Retreats', 'A retreating unit moves one hex away, never into enemy zones of control.'],
  ['7.74', 'Advance after combat', 'A victorious unit may advance into a hex vacated by combat.'],
  ['7.9', 'Reduced odds', 'The attacker may choose to resolve a combat at lower odds than it stands.'],
  ['9.0', 'Terrain effects', 'Towns double the defender; forest, rough and marsh slow movement.'],
  ['10.2', 'Night', 'At night units may leave enemy zones of control.'],
  ['14.62', 'First turn', 'The French have no movement phase in the first game-turn.'],
  ['15.1', 'Reinforcements', 'Reinforcements enter at their entry hex in their turn of arrival.'],
  ['17.0', 'Demoralization', 'An army whose losses reach its demoralization level is demoralized.'],
  ['17.2', 'Victory', 'The side that demoralizes the enemy army wins.'],
].map(([c, t, x]) => ({ case: c, title: t, text: x }));

server.listen(PORT, '127.0.0.1', () => console.log(`mock grognard server on http://127.0.0.1:${PORT}/ (records in ${DATA})`));
