// The map as the real server describes it (docs/api.md): the legend (terrain fills and patterns,
// hexside features with their width and `style`) and `parity` drawn as given; the zones of
// control and ranges of the state view's `overlays` drawn as computed by the rules.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, boardState, waitActions, centreOn, clickHex, unitOf, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/** The board's size of a hex across its flats, in SVG units (web/js/views/board.js `S`). */
const S = 60;

/** The neighbour of an XXYY hex (even rows shifted, the `parity` of the shipped maps). @param {string} hex @param {string} dir */
function neighbour(hex, dir) {
  const x = Number(hex.slice(0, 2)), y = Number(hex.slice(2));
  const s = x % 2 === 0 ? 1 : 0;
  const d = /** @type {Record<string, number[]>} */ ({ E: [0, -1], W: [0, 1], NE: [-1, s - 1], NW: [-1, s], SE: [1, s - 1], SW: [1, s] })[dir];
  const p = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return p(x + d[0]) + p(y + d[1]);
}

test('11a. the legend and parity of the map view are drawn as the server gives them', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 3, mode: 'hotseat' });
  const map = (await api.call(`/api/games/${g.id}/map`)).json;
  // the shape the board reads
  assert.ok(map.parity === 'even' || map.parity === 'odd', `parity ${JSON.stringify(map.parity)}`);
  assert.ok(Array.isArray(map.legend.terrain) && map.legend.terrain.length);
  for (const t of map.legend.terrain) {
    assert.equal(typeof t.id, 'string');
    assert.equal(typeof t.name, 'string');
    assert.equal(typeof t.code, 'string');
    assert.match(t.fill, /^#|^[a-z]+$/i);
  }
  for (const f of map.legend.features) {
    assert.equal(typeof f.width, 'number');
    assert.ok(f.width > 0 && f.width < 1, `${f.id}: width in hex widths (${f.width})`);
    assert.ok(f.style === undefined || ['route', 'crossing', 'hachured', 'edge'].includes(f.style), `${f.id}: style ${f.style}`);
  }
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  // every feature the map's hexsides carry is drawn in its legend stroke and width
  const used = new Set(map.hexsides.flatMap((/** @type {any} */ x) => x.features));
  assert.ok(used.size);
  for (const id of used) {
    const f = map.legend.features.find((/** @type {any} */ x) => x.id === id);
    const el = page.locator(`svg.board .features path.f-${id}`);
    assert.equal(await el.count(), 1, `one path of ${id}`);
    assert.equal(await el.getAttribute('stroke'), f.stroke);
    assert.equal(Number(await el.getAttribute('stroke-width')), Math.round(f.width * S * 100) / 100);
    const d = /** @type {string} */ (await el.getAttribute('d'));
    const segments = (d.match(/M/g) || []).length;
    const sides = map.hexsides.filter((/** @type {any} */ x) => x.features.includes(id)).length;
    // a hachured feature has four ticks per hexside; the others one segment
    assert.equal(segments, f.style === 'hachured' ? 5 * sides : sides, `${id}: segments`);
    if (f.style === 'route') {
      // from hex centre to hex centre: a route's segment is a hex long (or half, at the map's edge)
      const [x1, y1, x2, y2] = /** @type {number[]} */ (d.match(/M([\d.-]+),([\d.-]+)L([\d.-]+),([\d.-]+)/)?.slice(1).map(Number));
      const len = Math.hypot(x2 - x1, y2 - y1) / S;
      assert.ok(Math.abs(len - 1) < 0.02 || Math.abs(len - 0.5) < 0.02, `${id}: centre to centre (${len})`);
    }
  }
  // terrain patterns by the legend's names
  for (const t of map.legend.terrain) {
    if (!map.terrain.flat().includes(t.id)) continue;
    const fill = page.locator(`svg.board .terrain path.t-${t.id}`);
    assert.equal(await fill.getAttribute('fill'), t.fill, `${t.id} fill`);
    if (t.pattern && t.pattern !== 'buildings') assert.equal(await page.locator(`svg.board .terrain path[fill="url(#pat-${t.pattern})"]`).count(), 1, `${t.id}: pattern ${t.pattern}`);
  }
  assert.equal(await page.locator('svg.board defs pattern#pat-trees').count(), 1);
  // the legend lists the map's terrains and features by their names
  await page.locator('button[aria-label="Legend (L)"]').click();
  const legend = page.locator('aside.legend');
  await legend.waitFor({ state: 'visible' });
  const text = await legend.innerText();
  for (const id of used) assert.ok(text.includes(map.legend.features.find((/** @type {any} */ x) => x.id === id).name), `legend lists ${id}`);
  for (const t of map.legend.terrain) if (map.terrain.flat().includes(t.id)) assert.ok(text.includes(t.name), `legend lists ${t.name}`);
  await centreOn(page, '1213');
  await shot(page, '11-legend');
  assertNoPageErrors(page);
  await page.context().close();
});

test('11b. zones of control and an artillery range from the state view\'s overlays', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 42, mode: 'hotseat' });
  const token = g.seats.both;
  await api.act(g.id, 'end', token);
  // Allied movement: PR.9 next to FR.26, then into the combat phase
  await api.act(g.id, 'move PR.9 2416', token);
  let s = (await api.call(`/api/games/${g.id}`, { token })).json;
  assert.equal(typeof s.overlays, 'object');
  assert.ok(s.overlays.zoc.French.length && s.overlays.zoc.Allied.length, 'zones of control of both sides');
  assert.equal(typeof s.overlays.range, 'object');

  // No shipped scenario has artillery, so the real server's `range` is empty: the state view is
  // given one artillery unit with a range here (as the server would send it), to see it drawn.
  const gunner = 'PR.10';
  const at = unitOf(s, gunner).hex;
  const reach = new Set([at]);
  let ring = [at];
  for (let i = 0; i < 2; i++) ring = ring.flatMap((h) => ['E', 'NE', 'NW', 'W', 'SW', 'SE'].map((d) => neighbour(h, d))).filter((h) => !reach.has(h) && (reach.add(h), true));
  reach.delete(at);
  const page = await newPage(browser);
  await page.route(new RegExp(`/api/games/${g.id}$`), async (route) => {
    const res = await route.fetch();
    const view = await res.json();
    view.units = view.units.map((/** @type {any} */ u) => (u.id === gunner ? { ...u, type: 'artillery' } : u));
    view.overlays = { ...view.overlays, range: { ...view.overlays.range, [gunner]: [...reach] } };
    await route.fulfill({ response: res, json: view });
  });
  await openBoard(page, server.base, g.links.both);
  // zones of control: the enemy's of the side to act, as the server computed them
  await page.locator('button[aria-label^="Enemy zones of control"]').click();
  const zoc = page.locator('svg.board .layer-zoc path.zoc');
  await zoc.waitFor({ state: 'attached' });
  const onMap = new Set(page ? await page.evaluate(() => [.../** @type {any} */ (window).grognard.board.terrain.keys()]) : []);
  const want = s.overlays.zoc.French.filter((/** @type {string} */ h) => onMap.has(h)).length;
  assert.equal(((await zoc.getAttribute('d')) || '').match(/M/g)?.length, want, 'one hex drawn per French-controlled hex');
  // the artillery unit selected: its range
  await centreOn(page, at);
  await clickHex(page, at);
  await page.waitForFunction((u) => /** @type {any} */ (window).grognard.selected === u, gunner);
  const range = page.locator('svg.board .layer-range path.range');
  await range.waitFor({ state: 'attached' });
  assert.equal(((await range.getAttribute('d')) || '').match(/M/g)?.length, [...reach].filter((h) => onMap.has(h)).length);
  await idle(page);
  await shot(page, '11-zoc-and-range');
  assertNoPageErrors(page);
  await page.context().close();

  // the combat phase on the real board with zones of control on: declare, resolve, see the result
  const page2 = await newPage(browser);
  await openBoard(page2, server.base, g.links.both);
  await page2.locator('button[aria-label^="Enemy zones of control"]').click();
  let n = (await boardState(page2)).actions_recorded;
  await page2.evaluate(() => /** @type {any} */ (window).grognard.act('end'));
  await waitActions(page2, n);
  n = (await boardState(page2)).actions_recorded;
  await centreOn(page2, '2416');
  await clickHex(page2, '2416');
  await page2.waitForSelector('.card-orders button.btn-attack:has-text("Attack FR.26")');
  await clickHex(page2, '2316');
  await waitActions(page2, n);
  n = (await boardState(page2)).actions_recorded;
  await page2.evaluate(() => /** @type {any} */ (window).grognard.act('end'));
  await waitActions(page2, n);
  n = (await boardState(page2)).actions_recorded;
  await page2.locator('.card-combats button[data-key="resolve:0"]').click();
  await waitActions(page2, n);
  await page2.waitForSelector('.card-combats .combat-result svg.die');
  s = (await api.call(`/api/games/${g.id}`, { token })).json;
  const ev = s.log.flatMap((/** @type {any} */ e) => e.events).find((/** @type {any} */ e) => e.kind === 'combat');
  assert.ok(ev, 'a typed combat event');
  assert.equal((await page2.locator('.card-combats .combat-result .result-code').innerText()).trim(), ev.result);
  await idle(page2);
  await shot(page2, '11-combat-resolved-zoc');
  assertNoPageErrors(page2);
  await page2.context().close();
});
