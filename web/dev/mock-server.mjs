// A stand-in for `grognard play`'s HTTP API (docs/api.md), for developing the board without the
// real server. It serves web/ and answers every /api route by running the real CLI
// (target/debug/grognard) on a record file per game, then reshaping the CLI's JSON into the API's
// state view. Not part of the product: the server does not need to embed web/dev/.
//
//   cargo build -p grognard && node web/dev/mock-server.mjs [--port 8814] [--demo]
//
// It sends the data the board reads beyond the CLI's: `system`, `legal_actions` (structured),
// `overlays` (zones of control stopped by unbridged rivers, artillery ranges), typed events
// (`kind` and fields, read back from the events' sentences) and the map's `legend` and `parity`.
// `--demo` (or GROGNARD_DEMO=1) adds what Napoleon at War never sends, to exercise the generic
// board: a stack with two leaders, facing, markers and hidden units.
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

/** @type {Map<string, {file:string, scenario:string, mode:string, seats:Record<string,string>, computer_side?:string, sockets:Set<any>}>} */
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
function loadMap() {
  const text = fs.readFileSync(path.join(ROOT, 'crates/scenarios/maps/leipzig.toml'), 'utf8');
  const get = (k) => (text.match(new RegExp(`^${k} = "?([^"\\n]*)"?`, 'm')) || [])[1];
  const codes = { '.': 'clear', f: 'forest', r: 'rough', m: 'marsh', t: 'town' };
  const terr = text.match(/terrain = \[([\s\S]*?)\]/)[1].match(/"([^"]*)"/g).map((s) => [...s.slice(1, -1)].map((c) => codes[c]));
  const sides = new Map();
  const hs = text.split('[hexsides]')[1].split('[[places]]')[0];
  for (const m of hs.matchAll(/(\w+) = \[([\s\S]*?)\]/g)) {
    for (const e of m[2].match(/"([^"]*)"/g) || []) {
      let [a, b] = e.slice(1, -1).split('/');
      if (!/^\d{4}$/.test(b)) b = neighbour(a, b);
      const key = [a, b].sort().join('/');
      if (!sides.has(key)) sides.set(key, { a, b, features: [] });
      sides.get(key).features.push(m[1]);
    }
  }
  const places = [...text.matchAll(/\[\[places\]\]\s*name = "([^"]*)"\s*hex = "(\d{4})"/g)].map((m) => ({ name: m[1], hex: m[2] }));
  const legend = {
    terrain: [
      { id: 'clear', name: 'Clear', fill: '#F4EFD9', pattern: null },
      { id: 'forest', name: 'Forest', fill: '#9FD3B5', pattern: 'forest' },
      { id: 'rough', name: 'Rough', fill: '#E2CCA3', pattern: 'rough' },
      { id: 'marsh', name: 'Marsh', fill: '#CBE6EE', pattern: 'marsh' },
      { id: 'town', name: 'Town', fill: '#E9D6CF', pattern: 'town' },
    ],
    features: [
      { id: 'stream', name: 'Stream', stroke: '#3A9AD9', width: 0.07, dash: null },
      { id: 'river', name: 'River', stroke: '#0072B2', width: 0.15, dash: null },
      { id: 'bridge', name: 'Bridge', stroke: '#1F1F1F', width: 0.19, dash: null },
      { id: 'trail', name: 'Trail', stroke: '#9C5A1A', width: 0.055, dash: '0.12 0.07' },
      { id: 'road', name: 'Road', stroke: '#9C5A1A', width: 0.1, dash: null },
    ],
  };
  return { id: get('id'), title: get('title'), width: Number(get('width')), height: Number(get('height')), terrain: terr, hexsides: [...sides.values()], slope_hexes: [], places, legend, parity: 'even' };
}
const MAP = loadMap();

function nightTurns(scenario) {
  try {
    const t = fs.readFileSync(path.join(ROOT, `crates/scenarios/scenarios/${scenario}.toml`), 'utf8');
    return JSON.parse(t.match(/^night_turns = (\[[^\]]*\])/m)[1]);
  } catch { return []; }
}

// ---------------------------------------------------------------- state view
function parseLog(text) {
  // lines: "   3. Allied: move RU.10 0229" then "  [15.1] RU.10 enters the map"
  const log = [];
  let cur = { n: 0, side: null, action: null, events: [] };
  for (const line of text.split('\n')) {
    let m = line.match(/^\s+(\d+)\. ([^:]+): (.*)$/);
    if (m) { if (cur.n > 0 || cur.events.length) log.push(cur); cur = { n: Number(m[1]), side: m[2] === 'die' ? 'chance' : m[2], action: m[3].replace(/ \(by hand\)$/, ''), events: [] }; continue; }
    m = line.match(/^\s+\[([^\]]+)\] (.*)$/);
    if (m) cur.events.push(typed({ case: m[1], text: m[2] }));
  }
  if (cur.n > 0 || cur.events.length) log.push(cur);
  return log;
}

async function stateOf(id, file, scenario) {
  const r = await run(['show', file, '--json']);
  if (r.code) throw new Error(r.stderr);
  const s = JSON.parse(r.stdout);
  const rp = await run(['replay', file]);
  const view = {
    id, scenario: s.scenario, title: s.title, turn: s.turn, first_turn: s.first_turn, last_turn: s.last_turn,
    night_turns: nightTurns(scenario), night: s.night, phasing: s.phasing, phase: s.phase, step: s.step, to_act: s.to_act,
    actions_recorded: s.actions_recorded, undoable: s.undoable, state_hash: s.state_hash, demoralization: s.demoralization,
    units: s.units.map((u) => {
      const o = { ...u };
      if (u.arrival_turn != null) { o.arrival = { turn: u.arrival_turn, hex: u.arrival_hex }; delete o.arrival_turn; delete o.arrival_hex; }
      return o;
    }),
    combats: (s.combats || []).map((c) => ({ ...c, column: c.column ?? c.odds })),
    obligations: s.obligations || [],
    legal: s.legal_actions || s.legal || [],
    log: parseLog(rp.stdout),
    outcome: s.outcome ?? null,
  };
  view.system = 'naw';
  if (DEMO) demo(view);
  view.legal_actions = view.legal.map(structured);
  view.overlays = overlays(view.units);
  return view;
}

// ---------------------------------------------------------------- what the CLI does not say
const ID = '[A-Z]{2}\\.[\\w.]+';
/** The typed fields of an event, read back from its sentence (crates/naw/src/event.rs). */
function typed(ev) {
  const t = ev.text;
  let m;
  const ids = (s) => s.split(/,\s*/).filter(Boolean);
  if ((m = t.match(/^(.+?) \((\d+)\) against (.+?) \((\d+)\) at (\S+): die (\d), (\w+)/))) {
    return { ...ev, kind: 'combat', attackers: ids(m[1]), defenders: ids(m[3]), attack: Number(m[2]), defence: Number(m[4]), column: m[5], die: Number(m[6]), result: m[7] };
  }
  if ((m = t.match(new RegExp(`^(${ID}) \\(\\d+\\) is eliminated`)))) return { ...ev, kind: 'eliminated', unit: m[1] };
  if ((m = t.match(new RegExp(`^(${ID}) is displaced from (\\d{4}) by (${ID})`)))) return { ...ev, kind: 'displaced', unit: m[1], from: m[2], by: m[3] };
  if ((m = t.match(new RegExp(`^(${ID}) advances into (\\d{4})`)))) return { ...ev, kind: 'advanced', unit: m[1], to: m[2] };
  if ((m = t.match(new RegExp(`^(${ID}) enters the map`)))) return { ...ev, kind: 'entered', unit: m[1], hex: null };
  if ((m = t.match(new RegExp(`^(${ID}) cannot enter at (\\d{4})`)))) return { ...ev, kind: 'delayed', unit: m[1], hex: m[2] };
  if ((m = t.match(/^(\w+) have no movement phase/))) return { ...ev, kind: 'no_movement', side: m[1] };
  if ((m = t.match(new RegExp(`^(${ID}) cannot trace a line of communications to (\\d{4})`)))) return { ...ev, kind: 'cut_off', unit: m[1], hex: m[2] };
  if ((m = t.match(/; (?:the phasing player \()?(\w+)\)? wins?$/))) return { ...ev, kind: 'game_over', winner: m[1] };
  if (/a draw$/.test(t)) return { ...ev, kind: 'game_over', winner: null };
  return ev;
}

/** A legal action's text with its structure (docs/api.md `legal_actions`). */
function structured(text) {
  const w = text.split(/\s+/);
  const v = w[0];
  if ((v === 'move' || v === 'retreat' || v === 'advance') && w.length === 3) return { text, kind: v, unit: w[1], to: w[2] };
  if (v === 'attack') return { text, kind: 'attack', unit: w[1], target: w[2] };
  if (v === 'resolve') return { text, kind: 'resolve', target: w[1] };
  if (v === 'stand') return { text, kind: 'stand', unit: w[1] };
  return { text, kind: ['lose', 'roll', 'hold', 'end'].includes(v) ? v : 'other' };
}

/** Hexsides with a river and no bridge (zones of control stop there, 6.x). */
const UNBRIDGED = new Set(MAP.hexsides.filter((s) => s.features.includes('river') && !s.features.includes('bridge')).map((s) => [s.a, s.b].sort().join('/')));
const ALL_DIRS = ['E', 'NE', 'NW', 'W', 'SW', 'SE'];
function hexDistance(a, b) {
  const dbl = (h) => { const x = Number(h.slice(0, 2)), y = Number(h.slice(2)); return [2 * y + 1 + (x % 2 === 0 ? 1 : 0), x]; };
  const [c1, r1] = dbl(a), [c2, r2] = dbl(b);
  const dc = Math.abs(c1 - c2), dr = Math.abs(r1 - r2);
  return dc > dr ? dr + (dc - dr) / 2 : dr;
}
/** Zones of control by side and artillery ranges (two hexes) by unit: the mock's stand-in for the rules. */
function overlays(units) {
  const zoc = {}, range = {};
  const onMap = units.filter((u) => u.status === 'map' && u.hex && !u.hidden);
  for (const u of onMap) {
    if (u.type === 'leader') continue;
    const z = (zoc[u.side] ||= new Set());
    for (const d of ALL_DIRS) {
      const n = neighbour(u.hex, d);
      if (!UNBRIDGED.has([u.hex, n].sort().join('/'))) z.add(n);
    }
    if (u.type === 'artillery') {
      const r = [];
      for (const v of onMap) if (v.side !== u.side && hexDistance(u.hex, v.hex) <= 2) r.push(v.hex);
      for (let x = -2; x <= 2; x++) for (let y = -3; y <= 3; y++) {
        const hx = String(Number(u.hex.slice(0, 2)) + x).padStart(2, '0') + String(Number(u.hex.slice(2)) + y).padStart(2, '0');
        if (hx !== u.hex && hexDistance(u.hex, hx) <= 2 && !r.includes(hx)) r.push(hx);
      }
      range[u.id] = r;
    }
  }
  return { zoc: Object.fromEntries(Object.entries(zoc).map(([k, s]) => [k, [...s]])), range };
}

/** --demo: a stack with two leaders, facing, markers and hidden units (Napoleon at War has none). */
function demo(view) {
  const onMap = (side) => view.units.filter((u) => u.side === side && u.status === 'map' && u.hex);
  const fr = onMap('French'), al = onMap('Allied');
  if (fr[0]) {
    view.units.push({ id: 'FR.Nap', side: 'French', nation: 'FR', designation: 'Nap', type: 'leader', strength: 0, movement: 6, status: 'map', hex: fr[0].hex, moved: false, in_combat: false, facing: 0 });
    view.units.push({ id: 'FR.Ney', side: 'French', nation: 'FR', designation: 'Ney', type: 'leader', strength: 0, movement: 6, status: 'map', hex: fr[0].hex, moved: false, in_combat: false });
    fr[0].facing = 3;
  }
  if (fr[1]) fr[1].markers = ['disordered'];
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
const token = () => crypto.randomBytes(12).toString('hex');

function readRecord(file) { return JSON.parse(fs.readFileSync(file, 'utf8')); }

async function newGame(scenario, seed, mode, computer_side, actions) {
  const id = 'g_' + crypto.randomBytes(5).toString('hex');
  const file = path.join(DATA, id + '.json');
  const r = await run(['new', scenario, '--seed', String(seed ?? Math.floor(Math.random() * 1e9)), '-o', file]);
  if (r.code) return { error: r.stderr };
  if (actions) { const rec = readRecord(file); rec.actions = actions; fs.writeFileSync(file, JSON.stringify(rec, null, 2)); }
  const sides = ['French', 'Allied'];
  let seats = {};
  if (mode === 'hotseat') seats = { both: token() };
  else if (mode === 'computer') { for (const s of sides) if (s !== computer_side) seats[s] = token(); }
  else for (const s of sides) seats[s] = token();
  games.set(id, { file, scenario, mode, seats, computer_side, sockets: new Set() });
  const links = {};
  for (const [k, t] of Object.entries(seats)) links[k] = `/#game=${id}&seat=${t}`;
  return { id, seats, links };
}

function sideOfToken(g, tok) {
  for (const [k, t] of Object.entries(g.seats)) if (t === tok) return k;
  return null;
}

async function computerTurn(id, g, events, accepted) {
  // the mock's "computer": a random legal action (ends the phase now and then)
  for (let i = 0; i < 400; i++) {
    const s = await stateOf(id, g.file, g.scenario);
    if (s.to_act !== g.computer_side || s.outcome) return;
    const legal = s.legal.filter((a) => a !== 'end');
    const pick = legal.length && Math.random() < 0.85 ? legal[Math.floor(Math.random() * legal.length)] : 'end';
    const before = s.log.length;
    const r = await run(['act', g.file, pick]);
    if (r.code) { const r2 = await run(['act', g.file, s.legal[0]]); if (r2.code) return; }
    const s2 = await stateOf(id, g.file, g.scenario);
    for (const e of s2.log.slice(before)) { accepted.push(e.action); events.push(...e.events); }
    events.push({ case: 'ai', text: `The computer (random) chose ${pick}.` });
  }
}

function broadcast(g, msg) {
  const frame = wsFrame(JSON.stringify(msg));
  for (const sock of g.sockets) { try { sock.write(frame); } catch { g.sockets.delete(sock); } }
}

// ---------------------------------------------------------------- routes
const server = http.createServer(async (req, res) => {
  const url = new URL('http://x' + req.url);
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] !== 'api') return serveStatic(req, res);
  try {
    if (parts[1] === 'scenarios') {
      const r = await run(['scenarios', '--json']);
      return send(res, 200, JSON.parse(r.stdout).map(({ units, ...s }) => s));
    }
    if (parts[1] === 'rules') return send(res, 200, RULES);
    if (parts[1] === 'odds') {
      const a = url.searchParams.get('attack'), d = url.searchParams.get('defence');
      const r = await run(['odds', a, d, '--json', ...(url.searchParams.get('doubled') === 'true' ? ['--terrain', 'doubled'] : [])]);
      if (r.code) return err(res, 400, 'bad_request', r.stderr.trim());
      const o = JSON.parse(r.stdout);
      return send(res, 200, { column: o.column, probabilities: o.probabilities });
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
    if (!what && req.method === 'GET') return send(res, 200, await stateOf(id, g.file, g.scenario));
    if (what === 'map') return send(res, 200, MAP);
    if (what === 'record') { res.writeHead(200, { 'Content-Type': 'application/json' }); return res.end(fs.readFileSync(g.file)); }
    if (what === 'moves') {
      const r = await run(['moves', g.file, decodeURIComponent(parts[4]), '--json']);
      if (r.code) return err(res, 404, 'not_found', r.stderr.trim());
      const m = JSON.parse(r.stdout);
      let why_not = null;
      if (m.cannot_move) { const k = m.cannot_move.match(/^([\d.]+|action): (.*)$/); why_not = k ? { case: k[1], why: k[2] } : { case: '', why: m.cannot_move }; }
      return send(res, 200, { unit: m.unit, destinations: m.destinations, why_not });
    }
    if (what === 'replay') {
      const n = Number(parts[4]);
      const rec = readRecord(g.file);
      if (!(n >= 0 && n <= rec.actions.length)) return err(res, 404, 'not_found', `no action ${n}`);
      const f2 = path.join(DATA, `${id}-replay.json`);
      fs.writeFileSync(f2, JSON.stringify({ ...rec, actions: rec.actions.slice(0, n) }));
      const s = await stateOf(id, f2, g.scenario);
      s.undoable = 0;
      return send(res, 200, s);
    }
    if (what === 'ws') { res.writeHead(400); return res.end('websocket only'); }
    if (req.method !== 'POST') return err(res, 404, 'not_found', 'no such route');
    const b = await body(req);
    if (b === null) return err(res, 400, 'bad_request', 'malformed JSON');
    if (what === 'branch') {
      const rec = readRecord(g.file);
      const out = await newGame(g.scenario, rec.seed, 'hotseat', null, rec.actions.slice(0, b.at));
      return send(res, 201, out);
    }
    const tok = (req.headers.authorization || '').replace(/^Bearer /, '');
    const side = sideOfToken(g, tok);
    if (!side) return err(res, 401, 'unauthorized', 'missing or wrong seat token');
    const before = await stateOf(id, g.file, g.scenario);
    if (side !== 'both' && before.to_act !== side && what === 'actions') return err(res, 409, 'conflict', `it is not ${side}'s turn to act`);
    if (what === 'undo') {
      const r = await run(['undo', g.file]);
      if (r.code) { const m = r.stderr.match(/refused: ([^:]+): (.*)/); return err(res, 422, 'refused', m ? m[2].trim() : r.stderr.trim(), m ? m[1] : '5.14'); }
      const st = await stateOf(id, g.file, g.scenario);
      broadcast(g, { type: 'state', state: st, events: [] });
      return send(res, 200, { undone: r.stdout.split('\n')[0].replace(/^took back: /, '').trim(), state: st });
    }
    if (what === 'actions') {
      if (typeof b.action !== 'string') return err(res, 400, 'bad_request', 'missing field action', 'action');
      if (b.expect != null && b.expect !== before.actions_recorded) return err(res, 409, 'conflict', `expect ${b.expect} but the record holds ${before.actions_recorded} actions`);
      const r = await run(['act', g.file, b.action]);
      if (r.code) {
        const m = r.stderr.match(/refused: ([^:]+): (.*?)(?: \(action '.*'\))?$/m);
        if (m) return err(res, m[1] === 'action' ? 400 : 422, m[1] === 'action' ? 'bad_request' : 'refused', m[2].trim(), m[1]);
        return err(res, 400, 'bad_request', r.stderr.trim(), 'action');
      }
      let st = await stateOf(id, g.file, g.scenario);
      const accepted = [], events = [];
      for (const e of st.log.slice(before.log.length)) { accepted.push(e.action); events.push(...e.events); }
      if (g.mode === 'computer') { await computerTurn(id, g, events, accepted); st = await stateOf(id, g.file, g.scenario); }
      broadcast(g, { type: 'state', state: st, events });
      return send(res, 200, { accepted, events, state: st });
    }
    return err(res, 404, 'not_found', 'no such route');
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
  const parts = new URL('http://x' + req.url).pathname.split('/').filter(Boolean);
  const g = games.get(parts[2]);
  if (!g || parts[3] !== 'ws') { sock.destroy(); return; }
  const acc = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acc}\r\n\r\n`);
  g.sockets.add(sock);
  sock.on('data', (d) => { if ((d[0] & 0x0f) === 8) { g.sockets.delete(sock); sock.end(); } });
  sock.on('close', () => g.sockets.delete(sock));
  sock.on('error', () => g.sockets.delete(sock));
  sock.write(wsFrame(JSON.stringify({ type: 'state', state: await stateOf(parts[2], g.file, g.scenario), events: [] })));
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
