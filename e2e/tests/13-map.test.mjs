// The map a wargamer reads (issue 12): labels that never print over each other or over a
// counter's designation, counters readable at the opening view and not hiding the rivers, the
// view remembered, counters hidden by a key, nations told apart without colour, arrows gone
// for resolved combats, reinforcements on the map, the hover card (terrain effects from the
// server's charts, odds before declaring) and the other side's last moves marked and slid.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, waitBoard, idle, boardState, waitActions, centreOn, clickHex, hexPoint, unitOf, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/** Bon-first-day after the French turn 1 and PR.9's move to 2416: the Allied combat phase, with
 *  PR.9 obliged to attack (7.12) and FR.26 to be attacked (7.11). @param {number} seed */
async function combatPhase(seed) {
  const g = await api.create({ scenario: 'bon-first-day', seed, mode: 'hotseat' });
  const t = g.seats.both;
  for (const a of ['end', 'move PR.9 2416', 'end']) await api.act(g.id, a, t);
  return g;
}

/** The client boxes of what the map labels, and of the text printed on the counters. @param {import('playwright-core').Page} page */
async function labelBoxes(page) {
  return page.evaluate(() => {
    const box = (/** @type {Element} */ e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height, what: `${e.getAttribute('class')} ${e.textContent}` };
    };
    const seen = (/** @type {Element} */ e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
    const labels = [...document.querySelectorAll('svg.board .layer-places text.place, svg.board .obligation-tag, svg.board .odds-badge, svg.board .reinf-mark')].filter(seen).map(box);
    const text = [...document.querySelectorAll('svg.board .layer-counters .counter text.designation, svg.board .layer-counters .counter text.sm')].filter(seen).map(box);
    return { labels, text };
  });
}

/** @param {{x: number, y: number, w: number, h: number}} a @param {{x: number, y: number, w: number, h: number}} b */
const meets = (a, b) => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;

test('13a. labels: none overlaps another or a counter\'s designation, at the opening view; strengths readable', { timeout: 120_000 }, async () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    const g = await combatPhase(42);
    const page = await newPage(browser, { viewport });
    await openBoard(page, server.base, g.links.both);
    // the obligation tags of PR.9 and FR.26 (neighbours), then the odds badge of their combat
    for (const stage of ['obligations', 'declared']) {
      if (stage === 'declared') {
        const n = (await boardState(page)).actions_recorded;
        await page.evaluate(() => /** @type {any} */ (window).grognard.act('attack PR.9 FR.26'));
        await waitActions(page, n);
      }
      await page.waitForSelector(stage === 'declared' ? 'svg.board .odds-badge' : 'svg.board .obligation-tag');
      const { labels, text } = await labelBoxes(page);
      assert.ok(labels.length > 10, `labels on the map (${labels.length})`);
      if (stage === 'obligations') assert.equal(labels.filter((l) => /obligation-tag/.test(l.what)).length, 2, 'both obligation tags');
      for (let i = 0; i < labels.length; i++) {
        for (let j = i + 1; j < labels.length; j++) assert.ok(!meets(labels[i], labels[j]), `${stage}: "${labels[i].what}" overlaps "${labels[j].what}"`);
        for (const t of text) assert.ok(!meets(labels[i], t), `${stage}: "${labels[i].what}" overlaps the counter text "${t.what}"`);
      }
      // Lindenau and its causeway are neighbours: both names shown, apart
      if (viewport.width === 1440 && stage === 'obligations') {
        const names = labels.filter((l) => /place Lindenau/.test(l.what));
        assert.equal(names.length, 2, 'Lindenau and Lindenau causeway are both in view');
        // at the opening view of a laptop, the counters' strengths are at least 11 px high
        const heights = await page.evaluate(() => [...document.querySelectorAll('svg.board .layer-counters .counter text.sm')]
          .map((e) => e.getBoundingClientRect()).filter((r) => r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth).map((r) => r.height));
        assert.ok(heights.length >= 20, `counters in view (${heights.length})`);
        assert.ok(Math.min(...heights) >= 11, `strength text ${Math.min(...heights)} px high`);
      }
      await idle(page);
      await shot(page, `13-labels-${stage}-${viewport.width}`);
    }
    assertNoPageErrors(page);
    await page.context().close();
  }
});

test('13b. rivers over the counters\' edges; the view remembered across reloads; U hides the counters', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 7, mode: 'hotseat' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  // the river and the streams are drawn again above the counters (a counter never hides them)
  const order = await page.evaluate(() => [...document.querySelectorAll('svg.board .viewport > g.layer')].map((e) => e.getAttribute('class')));
  const at = (/** @type {string} */ name) => order.indexOf(`layer layer-${name}`);
  assert.ok(at('counters') >= 0 && at('sides') > at('counters'), `hexside features over the counters: ${order.join(', ')}`);
  assert.equal(await page.locator('svg.board .layer-sides path.fs-river').count(), 1);
  assert.equal(await page.locator('svg.board .layer-sides path.fs-road').count(), 0, 'roads stay under the counters');
  // zoom and pan, reload: the same view
  await centreOn(page, '1418');
  await page.evaluate(() => /** @type {any} */ (window).grognard.board.zoom(1.25));
  const before = await page.evaluate(() => { const b = /** @type {any} */ (window).grognard.board; return { k: b.view.k, p: b.clientPoint('1418') }; });
  await page.waitForFunction((id) => !!localStorage.getItem(`grognard.view.${id}`), g.id);
  await page.reload();
  await waitBoard(page);
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.board.fitted);
  const after = await page.evaluate(() => { const b = /** @type {any} */ (window).grognard.board; return { k: b.view.k, p: b.clientPoint('1418') }; });
  assert.ok(Math.abs(after.k - before.k) < 1e-3, `zoom kept: ${before.k} -> ${after.k}`);
  assert.ok(Math.abs(after.p[0] - before.p[0]) < 2 && Math.abs(after.p[1] - before.p[1]) < 2, `position kept: ${before.p} -> ${after.p}`);
  // U hides the counters, and shows them again
  await page.locator('svg.board').focus();
  await page.keyboard.press('u');
  assert.equal(await page.locator('svg.board .layer-counters').isVisible(), false, 'counters hidden');
  await shot(page, '13-counters-hidden');
  await page.keyboard.press('u');
  assert.equal(await page.locator('svg.board .layer-counters .counter').first().isVisible(), true, 'counters back');
  // the help says so
  await page.keyboard.press('?');
  await page.locator('dialog.help').waitFor({ state: 'visible' });
  assert.match(await page.locator('dialog.help').innerText(), /U\s+hide \/ show the counters/);
  await page.keyboard.press('Escape');
  assertNoPageErrors(page);
  await page.context().close();
});

test('13c. every nation has its own mark on its counters, not only its colour', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 7, mode: 'hotseat' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const marks = await page.evaluate(() => {
    /** @type {Record<string, string[]>} */
    const by = {};
    for (const c of document.querySelectorAll('svg.board .layer-counters .counter')) {
      const nation = [...c.classList].find((x) => x.startsWith('nation-'))?.slice(7) || '';
      const m = c.querySelector('.unit-mark [data-mark]')?.getAttribute('data-mark') || '';
      by[nation] = [...new Set([...(by[nation] || []), m])];
    }
    return by;
  });
  const nations = Object.keys(marks);
  assert.ok(nations.includes('FR') && nations.includes('RU') && nations.includes('PR'), `nations on the map: ${nations}`);
  for (const n of nations) assert.equal(marks[n].length, 1, `${n}: one mark (${marks[n]})`);
  const shapes = nations.map((n) => marks[n][0]);
  assert.ok(shapes.every(Boolean), `every nation marked: ${JSON.stringify(marks)}`);
  assert.equal(new Set(shapes).size, shapes.length, `a different mark per nation: ${JSON.stringify(marks)}`);
  // the legend shows them
  await page.locator('button[aria-label="Legend (L)"]').click();
  assert.ok(await page.locator('aside.legend .lg-mark').count() >= 3);
  await centreOn(page, '1914');
  await shot(page, '13-nation-marks');
  assertNoPageErrors(page);
  await page.context().close();
});

test('13d. after an Ar result and the retreat, no attack arrow is left from the retreated unit', { timeout: 90_000 }, async () => {
  // seed 1: PR.9's attack on FR.26 (1-2) rolls Ar
  const g = await combatPhase(1);
  const t = g.seats.both;
  for (const a of ['attack PR.9 FR.26', 'end']) await api.act(g.id, a, t);
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  assert.equal(await page.locator('svg.board .layer-combats .combat-arrow').count(), 1, 'the declared attack\'s arrow');
  let s = await boardState(page);
  let n = s.actions_recorded;
  await page.locator('.card-combats button[data-key="resolve:0"]').click();
  await waitActions(page, n);
  s = await api.state(g.id);
  const ev = s.log.flatMap((/** @type {any} */ e) => e.events).find((/** @type {any} */ e) => e.kind === 'combat');
  assert.equal(ev.result, 'Ar', 'seed 1 rolls Ar');
  n = s.actions_recorded;
  await page.evaluate(() => /** @type {any} */ (window).grognard.act('retreat PR.9 2517'));
  await waitActions(page, n);
  s = await boardState(page);
  assert.equal(unitOf(s, 'PR.9').hex, '2517');
  assert.ok(s.combats.every((/** @type {any} */ c) => c.resolved), 'the combat is resolved');
  assert.equal(await page.locator('svg.board .layer-combats .combat-arrow').count(), 0, 'no arrow for a resolved combat');
  assert.equal(await page.locator('svg.board .layer-combats .odds-badge').count(), 0);
  await centreOn(page, '2416');
  await idle(page);
  await shot(page, '13-after-ar');
  assertNoPageErrors(page);
  await page.context().close();
});

test('13e. reinforcements: entry hexes marked with what arrives when; a delayed arrival flagged late', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 7, mode: 'hotseat' });
  const s = await api.state(g.id);
  const waiting = s.units.filter((/** @type {any} */ u) => u.status === 'waiting' && u.arrival);
  assert.ok(waiting.length, 'the scenario has reinforcements');
  const late = waiting[0];
  const page = await newPage(browser);
  // the server's state view with a `delayed` event (docs/api.md) for one waiting unit, as the
  // rules type it when an arrival is held back
  await page.route(new RegExp(`/api/games/${g.id}$`), async (route) => {
    const res = await route.fetch();
    const view = await res.json();
    view.log = [...(view.log || []), { n: view.actions_recorded, side: null, action: null, events: [{ case: '16.1', kind: 'delayed', unit: late.id, hex: late.arrival.hex, by: 'FR.26', text: `${late.id} is delayed` }] }];
    await route.fulfill({ response: res, json: view });
  });
  await openBoard(page, server.base, g.links.both);
  const marks = await page.evaluate(() => [...document.querySelectorAll('svg.board .layer-reinf .reinf-mark')].map((e) => ({
    hex: e.getAttribute('data-hex'), turn: Number(e.getAttribute('data-turn')), late: e.classList.contains('late'), text: e.querySelector('text')?.textContent || '', title: e.querySelector('title')?.textContent || '',
  })));
  const map = (await api.call(`/api/games/${g.id}/map`)).json;
  const onMap = new Set(map.terrain.flatMap((/** @type {string[]} */ row, /** @type {number} */ x) => row.map((_, y) => `${String(x + 1).padStart(2, '0')}${String(y + 1).padStart(2, '0')}`)));
  /** @type {Map<string, string[]>} */
  const want = new Map();
  for (const u of waiting) if (onMap.has(u.arrival.hex)) want.set(`${u.arrival.hex} ${u.arrival.turn}`, [...(want.get(`${u.arrival.hex} ${u.arrival.turn}`) || []), u.id]);
  assert.equal(marks.length, want.size, `one mark per entry hex and turn: ${JSON.stringify(marks)}`);
  for (const m of marks) {
    const ids = /** @type {string[]} */ (want.get(`${m.hex} ${m.turn}`));
    assert.ok(ids, `${m.hex} turn ${m.turn} is an arrival`);
    assert.match(m.text, new RegExp(`^T${m.turn}: \\+${ids.length}`));
    for (const id of ids) assert.ok(m.title.includes(id), `${id} named in the tooltip of ${m.hex}`);
    const isLate = ids.includes(late.id);
    assert.equal(m.late, isLate, `${m.hex} turn ${m.turn} late: ${isLate}`);
    if (isLate) assert.match(m.text, /late/);
  }
  await centreOn(page, late.arrival.hex);
  await idle(page);
  await shot(page, '13-reinforcements');
  assertNoPageErrors(page);
  await page.context().close();
});

test('13f. hovering a hex: terrain and hexsides with their effects from the server\'s charts, control, the unit', { timeout: 60_000 }, async () => {
  const g = await combatPhase(42);
  const tables = (await api.call('/api/tables?system=naw')).json;
  const map = (await api.call(`/api/games/${g.id}/map`)).json;
  const s = (await api.call(`/api/games/${g.id}`, { token: g.seats.both })).json;
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  // FR.26's hex: a town, with its hexsides
  const hex = unitOf(s, 'FR.26').hex;
  const terrain = map.terrain[Number(hex.slice(0, 2)) - 1][Number(hex.slice(2)) - 1];
  const row = tables.tec.rows.find((/** @type {any} */ r) => r.terrain === terrain && r.kind === 'hex');
  await centreOn(page, hex);
  const [x, y] = await hexPoint(page, hex);
  await page.mouse.move(x + 3, y + 3);
  const card = page.locator('.hover-card');
  await card.waitFor({ state: 'visible' });
  await page.waitForFunction((m) => document.querySelector('.hover-card')?.textContent?.includes(m), row.movement);
  const text = await card.innerText();
  assert.ok(text.includes(hex), 'the hex');
  assert.ok(text.includes(`Movement: ${row.movement}`) && text.includes(`Combat: ${row.combat}`), `the terrain's effects from /api/tables: ${text}`);
  for (const side of map.hexsides.filter((/** @type {any} */ x) => x.a === hex || x.b === hex)) {
    for (const feat of side.features) {
      const r = tables.tec.rows.find((/** @type {any} */ x) => x.terrain === feat && x.kind === 'hexside');
      assert.equal(await card.locator(`.hc-side[data-feature="${feat}"]`).count(), 1, `hexside ${feat} listed`);
      if (r) assert.ok((await card.locator(`.hc-side[data-feature="${feat}"]`).innerText()).includes(r.combat), `${feat}: its combat effect`);
    }
  }
  assert.match(text, /Held by French/);
  // the enemy's zones of control over the hex are named; the holder's own is not
  const zocSides = Object.entries(s.overlays.zoc).filter(([side, hexes]) => side !== 'French' && /** @type {string[]} */ (hexes).includes(hex)).map(([side]) => side);
  for (const side of zocSides) assert.match(text, new RegExp(`zone of control of[^.]*${side}`));
  assert.doesNotMatch(text, /zone of control of[^.]*French/);
  assert.equal(await card.locator('.hc-unit[data-unit="FR.26"]').count(), 1, 'the unit\'s details');
  assert.match(await card.locator('.hc-unit[data-unit="FR.26"]').innerText(), /Strength \d+/);
  await shot(page, '13-hover-hex');
  await page.mouse.move(2, 2);
  assertNoPageErrors(page);
  await page.context().close();
});

test('13g. odds and result probabilities on hover over a legal target before declaring, and at the keyboard cursor', { timeout: 60_000 }, async () => {
  const g = await combatPhase(42);
  const token = g.seats.both;
  const preview = (await api.call(`/api/games/${g.id}/preview?action=${encodeURIComponent('attack PR.9 FR.26')}`, { token })).json;
  assert.ok(preview.combat, `the server previews the declaration: ${JSON.stringify(preview)}`);
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    const page = await newPage(browser, { viewport });
    /** @type {string[]} */
    const asked = [];
    page.on('request', (r) => { if (r.url().includes('/preview?')) asked.push(r.url()); });
    await openBoard(page, server.base, g.links.both);
    await centreOn(page, '2416');
    await clickHex(page, '2416');
    await page.waitForFunction(() => /** @type {any} */ (window).grognard.selected === 'PR.9');
    const [x, y] = await hexPoint(page, '2316');
    await page.mouse.move(x + 2, y + 2);
    const odds = page.locator('.hover-card .hover-odds .hc-column');
    await odds.waitFor({ state: 'visible' });
    assert.equal((await odds.innerText()).trim(), preview.combat.column);
    const card = await page.locator('.hover-card .hover-odds').innerText();
    assert.ok(card.includes(`${preview.combat.attack} attack against ${preview.combat.defence} defence`), card);
    for (const [code, p] of Object.entries(preview.combat.probabilities)) assert.ok(card.includes(`${code} ${Math.round(/** @type {number} */ (p) * 100)}%`), `${code} in ${card}`);
    for (const t of preview.combat.terrain) assert.ok(card.includes(t), `the terrain effect named: ${t}`);
    // still nothing declared
    assert.equal((await boardState(page)).combats.length, 0);
    // moving on and back: the preview is asked once (cached per state and action)
    await page.mouse.move(x + 60, y - 80);
    await page.mouse.move(x + 1, y + 1);
    await odds.waitFor({ state: 'visible' });
    assert.equal(asked.length, 1, `one preview request: ${asked}`);
    // the keyboard's cursor on the target shows it too
    await page.mouse.move(1, 1);
    await page.evaluate(() => { const gg = /** @type {any} */ (window).grognard; gg.board.setCursor('2316'); gg.onCursor('2316'); });
    await odds.waitFor({ state: 'visible' });
    await shot(page, `13-odds-on-hover-${viewport.width}`);
    assertNoPageErrors(page);
    await page.context().close();
  }
});

test('13h. the other side\'s moves: marked on the map and slid, not teleported (none under reduced motion)', { timeout: 90_000 }, async () => {
  for (const reducedMotion of /** @type {const} */ (['no-preference', 'reduce'])) {
    const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });
    const page = await newPage(browser, { reducedMotion });
    await openBoard(page, server.base, g.links.French);
    // watch for a counter sliding
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.slid = [];
      new MutationObserver((ms) => {
        for (const m of ms) for (const n of m.addedNodes) {
          const el = /** @type {Element} */ (n);
          if (el.classList?.contains('sliding')) w.slid.push(el.getAttribute('data-unit'));
        }
      }).observe(/** @type {Element} */ (document.querySelector('svg.board .layer-counters')), { childList: true });
    });
    let n = (await boardState(page)).actions_recorded;
    await page.evaluate(() => /** @type {any} */ (window).grognard.act('end'));
    await waitActions(page, n);
    n = (await boardState(page)).actions_recorded;
    // the Allied player moves, elsewhere
    await api.act(g.id, 'move PR.9 2416', g.seats.Allied);
    await waitActions(page, n);
    const from = unitOf(await api.call(`/api/games/${g.id}/replay/0`).then((r) => r.json), 'PR.9').hex;
    const mark = page.locator('svg.board .layer-lastmoves .last-move[data-unit="PR.9"]');
    await mark.waitFor({ state: 'attached' });
    assert.equal(await mark.getAttribute('data-from'), from);
    assert.equal(await mark.getAttribute('data-to'), '2416');
    const slid = await page.evaluate(() => /** @type {any} */ (window).slid);
    if (reducedMotion === 'reduce') assert.deepEqual(slid, [], 'no sliding under reduced motion');
    else assert.deepEqual(slid, ['PR.9'], 'PR.9 slid from its hex');
    await centreOn(page, '2416');
    await idle(page);
    await shot(page, `13-last-moves-${reducedMotion}`);
    assertNoPageErrors(page);
    await page.context().close();
  }
});
