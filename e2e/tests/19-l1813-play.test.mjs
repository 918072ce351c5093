// Playing Leipzig 1813 on the board (issue 15): a forced march declared and its die shown in the
// events panel (Forced March); a corps broken down (Stacking (E)); an attack with a supply unit
// allocated to it (Supply (C) I), the supply unit spent at the end of the combat phase; and in a
// spring scenario online a hidden Allied counter the French page shows blank until the French
// examine it (Reconnaissance), then shows its face. The set-ups are played by API calls with a
// fixed seed and a fixed choice of placements; the play itself goes through the board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFixture, server, api, browser, newPage, shot, openBoard, waitActions, command, centreOn, boardState, assertNoPageErrors, clickHex, idle } from './helpers.mjs';

useFixture();

/** A fixed pseudo-random choice. @param {number} seed */
function chooser(seed) {
  let s = seed;
  return (/** @type {number} */ n) => { s = (s * 1103515245 + 12345) % 2147483648; return s % n; };
}

/** Every event of the game's log. @param {any} s */
const events = (s) => s.log.flatMap((/** @type {any} */ e) => e.events);

/** Types an action in the command box and waits for the board to record it. @param {import('playwright-core').Page} page @param {string} action */
async function play(page, action) {
  const n = (await boardState(page)).actions_recorded;
  await command(page, action);
  await waitActions(page, n);
}

/**
 * Clicks a hex; when it holds a stack, picks `id` in the dialog the board opens (the stack
 * opened).
 * @param {import('playwright-core').Page} page @param {string} hex @param {string} id
 */
async function selectIn(page, hex, id) {
  const deselect = page.locator('.card-orders .unit-card button[aria-label="Deselect"]');
  if (await deselect.count()) await deselect.click();
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.selected === null);
  await centreOn(page, hex);
  await clickHex(page, hex);
  const pick = page.locator(`dialog.pick-unit button[data-unit="${id}"]`);
  if (await page.locator('dialog.pick-unit').count()) await pick.click();
  await page.waitForFunction((u) => /** @type {any} */ (window).grognard.selected === u, id);
  await idle(page);
}

/**
 * Clicks a break-down or build-up in the opened stack's card, once its button says what it
 * takes and makes (the server's preview), and waits for the board to record it.
 * @param {import('playwright-core').Page} page @param {string} action @param {RegExp} says
 */
async function regroup(page, action, says) {
  const btn = page.locator(`.card-l1813-stack button[data-action="${action}"]`);
  await btn.waitFor();
  await page.waitForFunction(([a, re]) => new RegExp(re).test(document.querySelector(`.card-l1813-stack button[data-action="${a}"]`)?.textContent || ''), [action, says.source]);
  const n = (await boardState(page)).actions_recorded;
  await btn.click();
  await waitActions(page, n);
}

/** Whether two hexes touch, by the board's own geometry (their centres lie one hex apart).
 *  @param {import('playwright-core').Page} page @param {string} a @param {string} b */
async function touching(page, a, b) {
  return page.evaluate(([x, y]) => {
    const pt = (/** @type {string} */ h) => /** @type {any} */ (window).grognard.board.clientPoint(h);
    const [ax, ay] = pt('1010'); const [bx, by] = pt('1011');
    const [px, py] = pt(x); const [qx, qy] = pt(y);
    return Math.hypot(px - qx, py - qy) < 1.2 * Math.hypot(ax - bx, ay - by);
  }, [a, b]);
}

test('1. a summer game: a forced march and its die, a corps broken down, an attack with supply spent', { timeout: 240_000 }, async () => {
  const g = await api.create({ scenario: 'leipzig1813-5', mode: 'hotseat', seed: 3 });
  const token = g.seats.both;
  const pick = chooser(11);
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  let s = await api.state(g.id);
  // the set-up: the Allies at random among their hexes; the French, where they can, a combat
  // unit next to an Allied stack (outside a fortress) and a supply unit at or next to such a
  // front, so that an attack may be supplied on the first turn
  for (let i = 0; i < 600 && s.step === 'setup'; i++) {
    const places = s.legal.filter((/** @type {string} */ a) => a.startsWith('place '));
    let a = places.length ? places[pick(places.length)] : 'end';
    if (places.length && s.to_act === 'French') {
      const forts = (s.fortresses || []).map((/** @type {any} */ f) => f.hex);
      const type = (/** @type {string} */ id) => s.units.find((/** @type {any} */ u) => u.id === id).type;
      const onMap = s.units.filter((/** @type {any} */ u) => u.status === 'map');
      const allied = [...new Set(onMap.filter((/** @type {any} */ u) => u.side === 'Allies').map((/** @type {any} */ u) => u.hex))];
      const french = [...new Set(onMap.filter((/** @type {any} */ u) => u.side === 'French' && ['infantry', 'cavalry'].includes(u.type)).map((/** @type {any} */ u) => u.hex))];
      const supplyPlaces = places.filter((/** @type {string} */ x) => type(x.split(' ')[1]) === 'supply');
      const combatPlaces = places.filter((/** @type {string} */ x) => ['infantry', 'cavalry'].includes(type(x.split(' ')[1])) && !forts.includes(x.split(' ')[2]));
      const better = await page.evaluate(([al, fr, sp, cp, fo]) => {
        const pt = (/** @type {string} */ h) => /** @type {any} */ (window).grognard.board.clientPoint(h);
        const [ax, ay] = pt('1010'); const [bx, by] = pt('1011');
        const step = 1.2 * Math.hypot(ax - bx, ay - by);
        const near = (/** @type {string} */ x, /** @type {string} */ y) => { const [p, q] = pt(x); const [r, t] = pt(y); return Math.hypot(p - r, q - t) < step; };
        const fronts = fr.filter((h) => !fo.includes(h) && al.some((x) => near(h, x)));
        for (const m of sp) { const to = m.split(' ')[2]; if (fronts.some((h) => h === to || near(h, to))) return m; }
        if (!fronts.length) for (const m of cp) { const to = m.split(' ')[2]; if (al.some((x) => near(x, to))) return m; }
        return null;
      }, [allied, french, supplyPlaces, combatPlaces, forts]);
      if (better) a = better;
    }
    await api.act(g.id, a, token);
    s = await api.state(g.id);
  }
  await page.reload();
  await page.waitForSelector('svg.board .layer-counters .counter');
  assert.equal(s.step, 'movement');
  assert.equal(s.to_act, 'French');

  // a corps built up and broken down by clicks (Stacking (E)): the stack opened (a click on
  // its hex, a unit picked), then the build-up's button, which names the divisions it takes
  // and the corps it makes with its movement points; then the corps's break-down
  const combine = s.legal.find((/** @type {string} */ a) => /^combine \d{4} infantry-corps$/.test(a));
  assert.ok(combine, 'divisions may build up into a corps');
  const combineHex = combine.split(' ')[1];
  const division = s.units.find((/** @type {any} */ u) => u.hex === combineHex && u.side === 'French' && u.kind === 'infantry-division');
  await selectIn(page, combineHex, division.id);
  await shot(page, '19-stack-opened');
  await regroup(page, combine, /Build up .* from F\d+/);
  s = await api.state(g.id);
  const combined = events(s).find((/** @type {any} */ e) => e.kind === 'combined');
  assert.ok(combined, 'the build-up is an event');
  // the corps just built, or else any that may break down
  const splits = s.legal.filter((/** @type {string} */ a) => /^split F\d+ infantry-division$/.test(a));
  const split = splits.find((/** @type {string} */ a) => s.units.find((/** @type {any} */ u) => u.id === a.split(' ')[1])?.hex === combineHex) || splits[0];
  assert.ok(split, `a corps may break down: ${s.legal.filter((/** @type {string} */ a) => a.startsWith('split')).join(', ')}`);
  const corps = split.split(' ')[1];
  const corpsHex = s.units.find((/** @type {any} */ u) => u.id === corps).hex;
  await selectIn(page, corpsHex, corps);
  await regroup(page, split, /Break down F\d+ into F\d+/);
  s = await api.state(g.id);
  const splitEv = events(s).find((/** @type {any} */ e) => e.kind === 'split');
  assert.ok(splitEv, 'the break-down is an event');
  assert.notEqual(s.units.find((/** @type {any} */ u) => u.id === corps)?.status, 'map', 'the corps left the map');
  const parts = s.units.filter((/** @type {any} */ u) => u.status === 'map' && u.hex === corpsHex && u.side === 'French');
  assert.ok(parts.length >= 2, 'its divisions stand where it stood');
  for (const p of parts) await page.waitForSelector(`svg.board .counter[data-unit="${p.id}"]`, { state: 'attached' });
  assert.equal(await page.locator(`svg.board .counter[data-unit="${corps}"]`).count(), 0);
  await centreOn(page, corpsHex);
  await shot(page, '19-corps-split');

  // a forced march declared, then its roll: the die shows in the events panel (Forced March)
  s = await api.state(g.id);
  const march = s.legal.find((/** @type {string} */ a) => a.startsWith('march ') && a.endsWith(' double'));
  assert.ok(march, 'a forced march may be declared');
  const marcher = march.split(' ')[1];
  await play(page, march);
  s = await api.state(g.id);
  assert.ok(events(s).some((/** @type {any} */ e) => e.kind === 'march_declared' && e.unit === marcher));
  assert.ok(s.legal.includes(`press ${marcher}`), 'the march rolls when pressed');
  await play(page, `press ${marcher}`);
  await page.waitForFunction(() => !!(/** @type {any} */ (window).grognard.state.log.some((/** @type {any} */ e) => e.events.some((/** @type {any} */ x) => x.kind === 'march_rolled'))));
  s = await api.state(g.id);
  const rolled = events(s).find((/** @type {any} */ e) => e.kind === 'march_rolled');
  assert.ok(rolled && rolled.die >= 1 && rolled.die <= 6, 'the roll has its die');
  assert.equal(rolled.case, 'Forced March');
  const shown = page.locator('.events-list li.event.ev-march_rolled');
  await shown.first().waitFor({ state: 'attached' });
  assert.match(await shown.first().textContent() || '', /Forced march/);
  await centreOn(page, s.units.find((/** @type {any} */ u) => u.id === marcher).hex);
  await shot(page, '19-forced-march-rolled');

  // a supply unit moves up to a French stack outside a fortress that touches an Allied one, so
  // that its attack may be supplied (Supply (C) I)
  s = await api.state(g.id);
  const fortHexes = (s.fortresses || []).map((/** @type {any} */ f) => f.hex);
  const french = [...new Set(s.units.filter((/** @type {any} */ u) => u.status === 'map' && u.side === 'French' && !['supply', 'depot', 'leader'].includes(u.type)).map((/** @type {any} */ u) => u.hex))]
    .filter((h) => !fortHexes.includes(h));
  const allied = [...new Set(s.units.filter((/** @type {any} */ u) => u.status === 'map' && u.side === 'Allies').map((/** @type {any} */ u) => u.hex))];
  const supplyIds = new Set(s.units.filter((/** @type {any} */ u) => u.type === 'supply').map((/** @type {any} */ u) => u.id));
  const supplyMoves = s.legal.filter((/** @type {string} */ a) => a.startsWith('move ') && supplyIds.has(a.split(' ')[1]));
  const supplyHexes = [...new Set(s.units.filter((/** @type {any} */ u) => u.status === 'map' && u.side === 'French' && u.type === 'supply').map((/** @type {any} */ u) => u.hex))];
  const combatIds = new Set(s.units.filter((/** @type {any} */ u) => u.side === 'French' && ['infantry', 'cavalry'].includes(u.type)).map((/** @type {any} */ u) => u.id));
  const combatMoves = s.legal.filter((/** @type {string} */ a) => a.startsWith('move ') && combatIds.has(a.split(' ')[1]) && !fortHexes.includes(a.split(' ')[2]));
  // a supply unit to a front, or else a combat unit to a hex that touches both an Allied
  // stack and a supply unit
  const upMove = await page.evaluate(([fr, al, ms, sh, cm]) => {
    const pt = (/** @type {string} */ h) => /** @type {any} */ (window).grognard.board.clientPoint(h);
    const [ax, ay] = pt('1010'); const [bx, by] = pt('1011');
    const step = 1.2 * Math.hypot(ax - bx, ay - by);
    const near = (/** @type {string} */ x, /** @type {string} */ y) => { const [p, q] = pt(x); const [r, t] = pt(y); return Math.hypot(p - r, q - t) < step; };
    const fronts = fr.filter((h) => al.some((a) => near(h, a)));
    for (const m of ms) { const to = m.split(' ')[2]; if (fronts.some((h) => h === to || near(h, to))) return m; }
    for (const m of cm) { const to = m.split(' ')[2]; if (al.some((a) => near(a, to)) && sh.some((h) => h === to || near(h, to))) return m; }
    return null;
  }, [french, allied, supplyMoves, supplyHexes, combatMoves]);
  if (upMove) await play(page, upMove);

  // the movement phase ends; an attack is declared and a supply unit allocated to it
  for (let i = 0; i < 10 && s.step === 'movement'; i++) {
    await play(page, s.legal.includes(`halt ${marcher}`) ? `halt ${marcher}` : 'end');
    s = await api.state(g.id);
  }
  // an attack from outside a fortress (in one, units fight supplied without a supply unit:
  // Supply (D)), with a supply unit at or next to the attacking hex
  const forts = new Set((s.fortresses || []).map((/** @type {any} */ f) => f.hex));
  const supplies = s.legal.filter((/** @type {string} */ a) => a.startsWith('supply '))
    .map((/** @type {string} */ a) => [a, s.units.find((/** @type {any} */ u) => u.id === a.split(' ')[1]).hex]);
  /** @type {[string, string]|null} */
  let choice = null;
  for (const a of s.legal.filter((/** @type {string} */ x) => x.startsWith('attack ') && !forts.has(x.split(' ')[1]))) {
    const from = a.split(' ')[1];
    for (const [sa, sh] of supplies) if (sh === from || await touching(page, sh, from)) { choice = [a, sa]; break; }
    if (choice) break;
  }
  assert.ok(choice, `an attack with a supply unit at hand is legal in ${s.step}: ${s.legal.slice(0, 12).join(', ')}`);
  const [attack, supply] = choice;
  // the attack by clicks: a unit of the attacking hex selected, the enemy hex clicked; the
  // orders show the odds the server's rules compute (with and without supply, the column
  // rounded for the defender) before the attack is confirmed
  const [, fromHex, toHex] = attack.split(' ');
  const attacker = s.units.find((/** @type {any} */ u) => u.hex === fromHex && u.side === 'French' && ['infantry', 'cavalry'].includes(u.type));
  await selectIn(page, fromHex, attacker.id);
  await centreOn(page, toHex);
  await clickHex(page, toHex);
  await page.locator('.confirm-box .l1813-odds-table tbody tr').first().waitFor().catch(async (e) => {
    const orders = await page.locator('.card-orders').textContent();
    const st = await page.evaluate(() => ({ sel: /** @type {any} */ (window).grognard.selected, step: /** @type {any} */ (window).grognard.state.step, la: /** @type {any} */ (window).grognard.state.legal_actions.filter((/** @type {any} */ x) => x.kind === 'attack').slice(0, 3) }));
    throw new Error(`${e.message}\n${JSON.stringify(st)}\n${orders}`);
  });
  const want = (await api.call(`/api/games/${g.id}/preview?action=${encodeURIComponent(attack)}`, { token })).json;
  assert.ok(want.odds && want.odds.cases.length >= 1, JSON.stringify(want));
  const rows = await page.locator('.confirm-box .l1813-odds-table tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-attacker-supplied'), tr.getAttribute('data-defender-supplied'), tr.getAttribute('data-column'), tr.textContent]));
  assert.equal(rows.length, want.odds.cases.length);
  for (const c of want.odds.cases) {
    const row = rows.find((r) => r[0] === String(c.attacker_supplied) && r[1] === String(c.defender_supplied));
    assert.ok(row, `the case ${JSON.stringify(c)} is shown`);
    assert.equal(row[2], c.column || '');
    if (c.defence !== null) assert.ok((row[3] || '').includes(`${c.attack} : ${c.defence}`), `${row[3]} shows ${c.attack} : ${c.defence}`);
    if (typeof c.percent === 'number') assert.ok((row[3] || '').includes(`${c.percent}%`));
  }
  await shot(page, '19-attack-odds');
  const nBefore = (await boardState(page)).actions_recorded;
  await page.locator('.confirm-box [data-key="confirm-go"]').click();
  await waitActions(page, nBefore);
  s = await api.state(g.id);
  assert.ok(events(s).some((/** @type {any} */ e) => e.kind === 'attack_declared'), 'the attack was declared');
  assert.ok(s.legal.includes(supply), 'the supply unit may be allocated');
  const sup = supply.split(' ')[1];
  await play(page, supply);
  s = await api.state(g.id);
  assert.ok(events(s).some((/** @type {any} */ e) => e.kind === 'supply_allocated'), 'the allocation is an event');
  assert.ok((await boardState(page)).units.find((/** @type {any} */ u) => u.id === sup).supply_use.length > 0, 'the supply unit is marked allocated');
  await centreOn(page, attack.split(' ')[1]);
  await shot(page, '19-attack-supplied');
  // the rest of the combat phase by the command box: the defender's segments, the combats;
  // at its end the allocated supply unit is spent (Supply (C))
  for (let i = 0; i < 40 && !events(s).some((/** @type {any} */ e) => e.kind === 'supply_spent' && e.unit === sup); i++) {
    await play(page, s.legal.includes('end') ? 'end' : s.legal[0]);
    s = await api.state(g.id);
  }
  const spent = events(s).find((/** @type {any} */ e) => e.kind === 'supply_spent' && e.unit === sup);
  assert.ok(spent, `the supply unit ${sup} was spent: ${s.step} ${JSON.stringify(s.log.slice(s.log.findIndex((/** @type {any} */ e) => e.action === supply) - 1).slice(0, 8).map((/** @type {any} */ e) => [e.action, e.events.filter((/** @type {any} */ x) => x.kind !== 'dispersed').map((/** @type {any} */ x) => x.text)]))}`);
  assert.equal(spent.case, 'Supply (C)');
  assert.notEqual(s.units.find((/** @type {any} */ u) => u.id === sup)?.status, 'map', 'the spent supply unit left the map');
  assert.ok(events(s).some((/** @type {any} */ e) => e.kind === 'combat_resolved'), 'the combat was fought');
  await page.locator('.events-list li.event.ev-supply_spent').first().waitFor({ state: 'attached' });
  assert.equal(await page.locator(`svg.board .counter[data-unit="${sup}"]`).count(), 0);
  await shot(page, '19-supply-spent');
  assertNoPageErrors(page);
  await page.context().close();
});

test('2. a spring game online: a hidden Allied counter, blank on the French page, shows its face once examined', { timeout: 240_000 }, async () => {
  const g = await api.create({ scenario: 'leipzig1813-1', mode: 'online' });
  const allies = g.seats.Allies;
  const french = g.seats.French;
  const pick = chooser(11);
  for (let i = 0; i < 400; i++) {
    const s = (await api.call(`/api/games/${g.id}`, { token: allies })).json;
    if (s.to_act !== 'Allies') break;
    const places = s.legal.filter((/** @type {string} */ a) => a.startsWith('place '));
    await api.act(g.id, places.length ? places[pick(places.length)] : 'end', allies);
  }
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.French);
  // the French set-up (placements where the chart leaves a choice), then their movement phase
  for (let i = 0; i < 400; i++) {
    const s = (await api.call(`/api/games/${g.id}`, { token: french })).json;
    if (s.to_act !== 'French' || s.step !== 'setup') break;
    const places = s.legal.filter((/** @type {string} */ a) => a.startsWith('place '));
    await api.act(g.id, places.length ? places[pick(places.length)] : 'end', french);
  }
  let fv = (await api.call(`/api/games/${g.id}`, { token: french })).json;
  assert.equal(fv.step, 'movement');
  assert.equal(fv.to_act, 'French');
  await page.reload();
  await page.waitForSelector('svg.board .counter.hidden-unit');
  const before = await page.locator('svg.board .counter.hidden-unit').count();
  assert.equal(before, fv.units.filter((/** @type {any} */ u) => u.hidden).length, 'every inverted counter is drawn blank');
  // a French cavalry move that ends next to an inverted Allied counter (the board's own
  // geometry says which hexes touch: their centres lie one hex apart)
  const cavalry = new Set(fv.units.filter((/** @type {any} */ u) => u.side === 'French' && u.type === 'cavalry').map((/** @type {any} */ u) => u.id));
  const moves = fv.legal.filter((/** @type {string} */ a) => a.startsWith('move ') && cavalry.has(a.split(' ')[1]));
  const blanks = fv.units.filter((/** @type {any} */ u) => u.hidden && u.status === 'map').map((/** @type {any} */ u) => u.hex);
  const near = await page.evaluate(([ms, bs]) => {
    const b = /** @type {any} */ (window).grognard.board;
    const pt = (/** @type {string} */ h) => b.clientPoint(h);
    const [ax, ay] = pt('1010'); const [bx, by] = pt('1011');
    const step = Math.hypot(ax - bx, ay - by);
    for (const m of ms) {
      const [px, py] = pt(m.split(' ')[2]);
      for (const h of bs) { const [x, y] = pt(h); if (Math.hypot(px - x, py - y) < step * 1.2) return [m, h]; }
    }
    return null;
  }, [moves, blanks]);
  assert.ok(near, `a French cavalry unit may move next to an inverted Allied counter (${moves.length} moves, ${blanks.length} blanks)`);
  const [move, target] = near;
  const hidden = fv.units.filter((/** @type {any} */ u) => u.hidden && u.hex === target);
  assert.ok(hidden.length > 0, 'the Allied counter is inverted');
  // before: the counter is blank on the French page, with nothing of what it is
  await centreOn(page, target);
  await shot(page, '19-spring-before-reveal');
  // the cavalry moves, typed in the French page's command box (Reconnaissance)
  await play(page, move);
  fv = (await api.call(`/api/games/${g.id}`, { token: french })).json;
  const rev = events(fv).find((/** @type {any} */ e) => e.kind === 'revealed');
  assert.ok(rev, 'the Allied counters next to the cavalry were revealed');
  assert.equal(rev.case, 'Reconnaissance');
  const shownUnit = fv.units.find((/** @type {any} */ u) => u.hex === target && u.side === 'Allies' && !u.hidden);
  assert.ok(shownUnit, 'the French view now says what the counter is');
  await page.waitForSelector(`svg.board .counter[data-unit="${shownUnit.id}"]`);
  assert.equal(await page.locator(`svg.board .counter[data-unit="${shownUnit.id}"].hidden-unit`).count(), 0);
  assert.ok((await page.locator(`svg.board .counter[data-unit="${shownUnit.id}"]`).textContent() || '').trim().length > 0, 'the counter shows its face');
  assert.ok(await page.locator('svg.board .counter.hidden-unit').count() < before, 'fewer blank counters');
  await page.locator('.events-list li.event.ev-revealed').first().waitFor({ state: 'attached' });
  await centreOn(page, target);
  await shot(page, '19-spring-after-reveal');
  assertNoPageErrors(page);
  await page.context().close();
});

test('3. a summer game: the set-up\'s counters placed by the computer for each side by a button', { timeout: 240_000 }, async () => {
  const g = await api.create({ scenario: 'leipzig1813-5', mode: 'hotseat', seed: 5 });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  let s = await api.state(g.id);
  assert.equal(s.step, 'setup');
  assert.equal(s.to_act, 'Allies', 'the Allies deploy first');
  assert.ok(s.legal.some((/** @type {string} */ a) => a.startsWith('place ')), 'the Allies have counters to place');
  await shot(page, '19-setup-before');
  // the Allies' set-up, then the French one: each a click on the button
  for (const side of ['Allies', 'French']) {
    s = await api.state(g.id);
    assert.equal(s.to_act, side);
    const n = (await boardState(page)).actions_recorded;
    const btn = page.locator('[data-key="finish-step"]');
    await btn.waitFor();
    await btn.click();
    await waitActions(page, n);
    s = await api.state(g.id);
    const placed = s.log.filter((/** @type {any} */ e) => e.side === side && e.action.startsWith('place ')).length;
    assert.ok(placed > 0, `the computer placed ${side} counters`);
    assert.ok(!(s.to_act === side && s.step === 'setup'), `the ${side} set-up is done`);
  }
  assert.equal(s.step, 'movement', 'the game begins');
  assert.equal(s.to_act, 'French', 'the French move first');
  const onMap = s.units.filter((/** @type {any} */ u) => u.status === 'map');
  assert.ok(onMap.some((/** @type {any} */ u) => u.side === 'French') && onMap.some((/** @type {any} */ u) => u.side === 'Allies'));
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.state.step === 'movement');
  assert.equal(await page.locator('[data-key="finish-step"]').count(), 0, 'no set-up to finish in the movement phase');
  await shot(page, '19-setup-finished');
  assertNoPageErrors(page);
  await page.context().close();
});
