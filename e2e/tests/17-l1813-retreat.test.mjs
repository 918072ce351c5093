// Leipzig 1813 on the board (issue 15): the owner's choice of a retreat's route among equal ends
// (Retreat Order of Preference, ruling L45) made by clicking one of the ends the board
// highlights, from the legal `retreat A3 HEX` actions; and the board at a desktop's and a phone's
// size, where a stack's box sits in the Orders card below the selected unit's card and a phone
// never scrolls sideways. A hot-seat game brought to the position by replaying the actions of two
// heuristic players through the API (tests/data/l1813-retreat.json; the server rolls the same
// dice from the same seed).
//
// After a rules change the record is made again by (from the workspace's root):
//   L1813_E2E_DATA=e2e/tests/data cargo test -p systems --test l1813_e2e_data -- --ignored

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useFixture, server, api, browser, newPage, shot, openBoard, boardState, waitActions, centreOn, clickHex, idle, assertNoPageErrors } from './helpers.mjs';

useFixture();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A page that never scrolls sideways. @param {import('playwright-core').Page} page */
async function noSideways(page) {
  const r = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth, bw: document.body.scrollWidth }));
  assert.ok(r.sw <= r.cw && r.bw <= r.cw, `no horizontal scroll: ${JSON.stringify(r)}`);
}

const data = JSON.parse(readFileSync(new URL('./data/l1813-retreat.json', import.meta.url), 'utf8'));

/** The game at the retreat's choice. */
async function atTheChoice() {
  const g = await api.create({ scenario: data.scenario, seed: data.seed, mode: 'hotseat' });
  for (const a of data.actions) await api.act(g.id, a, g.seats.both);
  const s = await api.state(g.id);
  assert.equal(s.to_act, data.side, `the ${data.side} choose the route`);
  assert.ok(s.retreat_choice, 'a retreat waits for its route');
  const routes = s.legal_actions.filter((/** @type {any} */ a) => a.kind === 'retreat');
  assert.deepEqual(routes.map((/** @type {any} */ a) => a.text).sort(), [...data.routes].sort(), 'the routes of the record');
  assert.ok(routes.length >= 2, 'equal routes to choose from');
  return { g, s, routes };
}

test('1. a retreat\'s route among equal ones, chosen by clicking a highlighted end', { timeout: 240_000 }, async () => {
  const { g, s, routes } = await atTheChoice();
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  // the retreating unit is selected; its box says why the owner chooses, and every end is
  // highlighted on the map
  const unit = routes[0].unit;
  await page.waitForFunction((u) => /** @type {any} */ (window).grognard.ctl.selected === u, unit);
  const box = page.locator('.card-orders .card-l1813-retreat');
  await box.waitFor();
  assert.match(await box.innerText(), /L45/);
  for (const r of routes) assert.equal(await box.locator(`[data-hex="${r.to}"]`).count(), 1, `${r.to} is listed`);
  assert.equal(await page.locator('svg.board .cand.cand-retreat').count(), routes.length, 'each end highlighted');
  // the last end, not the first: the owner's choice
  const chosen = routes[routes.length - 1];
  await centreOn(page, chosen.to);
  await shot(page, '17-l1813-retreat-choice');
  const n = (await boardState(page)).actions_recorded;
  await clickHex(page, chosen.to);
  await waitActions(page, n);
  const after = await api.state(g.id);
  const mine = after.log.filter((/** @type {any} */ e) => e.n > s.actions_recorded);
  assert.equal(mine[0]?.action, chosen.text, 'the clicked route was sent');
  const moved = after.units.find((/** @type {any} */ u) => u.id === unit);
  assert.ok(!moved || moved.status !== 'map' || moved.hex === chosen.to, `${unit} retreated to ${chosen.to}: ${JSON.stringify(moved)}`);
  assert.ok(!after.retreat_choice || JSON.stringify(after.retreat_choice) !== JSON.stringify(s.retreat_choice), 'the choice is made');
  await shot(page, '17-l1813-retreat-chosen');
  assertNoPageErrors(page);
  await page.context().close();
});

test('2. desktop and phone: a stack opened below the unit\'s card, the odds in the hover card, no sideways scroll', { timeout: 240_000 }, async () => {
  const g = await api.create({ scenario: 'leipzig1813-5', mode: 'hotseat', seed: 5 });
  for (let i = 0; i < 2; i++) await api.call(`/api/games/${g.id}/finish`, { method: 'POST', body: {}, token: g.seats.both });
  const s = await api.state(g.id);
  assert.equal(s.step, 'movement');
  // a French stack of several units
  /** @type {Map<string, any[]>} */
  const byHex = new Map();
  for (const u of s.units.filter((/** @type {any} */ u) => u.status === 'map' && u.side === 'French')) byHex.set(u.hex, [...(byHex.get(u.hex) || []), u]);
  const [hex, units] = [...byHex].sort((a, b) => b[1].length - a[1].length)[0];
  assert.ok(units.length >= 2, 'a stack');
  for (const [name, opts] of /** @type {const} */ ([['1440', {}], ['390', PHONE]])) {
    const page = await newPage(browser, opts);
    await openBoard(page, server.base, g.links.both);
    await noSideways(page);
    await centreOn(page, hex);
    await page.evaluate((id) => /** @type {any} */ (window).grognard.selectUnit(id), units[0].id);
    await idle(page);
    const stack = page.locator('.card-orders .card-l1813-stack');
    await stack.waitFor();
    for (const u of units) assert.equal(await stack.locator(`[data-unit="${u.id}"]`).count() > 0, true, `${u.id} in the stack's box`);
    // the stack's box follows the selected unit's card in the Orders card
    const order = await page.evaluate(() => {
      const unitCard = document.querySelector('.card-orders .unit-card');
      const st = document.querySelector('.card-orders .card-l1813-stack');
      return !!unitCard && !!st && !!(unitCard.compareDocumentPosition(st) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(order, 'the stack follows the unit card');
    await noSideways(page);
    await stack.scrollIntoViewIfNeeded();
    await shot(page, `17-l1813-stack-${name}`);
    assertNoPageErrors(page);
    await page.context().close();
  }
});

test('3. a unit kept out of its hex\'s declared attack by unticking it in the stack\'s box', { timeout: 240_000 }, async () => {
  const fights = (/** @type {any} */ u) => ['infantry', 'cavalry', 'leader'].includes(u.type);
  /** @type {any} */
  let g = null;
  /** @type {any} */
  let s = null;
  /** @type {string|undefined} */
  let attack;
  // a summer game whose set-ups the computer makes, to the French attacks; an attack from a
  // stack of several units (the seeds tried in turn, should the computer's set-up change)
  for (const seed of [5, 1, 2, 3]) {
    g = await api.create({ scenario: 'leipzig1813-5', mode: 'hotseat', seed });
    for (let i = 0; i < 2; i++) await api.call(`/api/games/${g.id}/finish`, { method: 'POST', body: {}, token: g.seats.both });
    s = await api.state(g.id);
    for (let i = 0; i < 30 && s.step === 'movement'; i++) {
      await api.act(g.id, s.legal.find((/** @type {string} */ a) => a.startsWith('halt ')) || 'end', g.seats.both);
      s = await api.state(g.id);
    }
    attack = s.legal.find((/** @type {string} */ a) => a.startsWith('attack ') && s.units.filter((/** @type {any} */ u) => u.hex === a.split(' ')[1] && u.side === 'French' && fights(u)).length >= 2);
    if (attack) break;
  }
  assert.ok(attack, 'an attack from a stack');
  await api.act(g.id, attack, g.seats.both);
  s = await api.state(g.id);
  const from = attack.split(' ')[1];
  const asides = s.legal_actions.filter((/** @type {any} */ a) => a.kind === 'aside' && a.from === from);
  assert.ok(asides.length >= 1, 'a unit of the stack may stand aside');
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  await centreOn(page, from);
  await page.evaluate((id) => /** @type {any} */ (window).grognard.selectUnit(id), asides[0].unit);
  await idle(page);
  const box = page.locator(`.card-orders .card-l1813-stack fieldset.l1813-aside[data-from="${from}"]`);
  await box.waitFor();
  const tick = box.locator(`input[data-unit="${asides[0].unit}"]`);
  assert.equal(await tick.isChecked(), true, 'it takes part until unticked');
  await shot(page, '17-l1813-aside-before');
  const n = (await boardState(page)).actions_recorded;
  // a click rather than `uncheck`: the board ignores an order while a request is under way (its
  // busy flag) and re-renders the box from the state, so a click that lands then leaves the box
  // ticked; the click is made again, on an idle board, until the aside is recorded
  for (let i = 0; ; i++) {
    await idle(page);
    if (await tick.isChecked()) await tick.click();
    try {
      await page.waitForFunction((k) => (/** @type {any} */ (window).grognard?.state?.actions_recorded ?? -1) > k, n, { timeout: 10_000 });
      break;
    } catch (e) {
      if (i >= 2) throw e;
    }
  }
  await idle(page);
  const after = await api.state(g.id);
  assert.equal(after.log.at(-1).action, asides[0].text, 'the aside was sent');
  assert.ok(after.log.at(-1).events.some((/** @type {any} */ e) => e.case === 'Stacking (D)'), 'its event cites the rule');
  assert.equal(after.units.find((/** @type {any} */ u) => u.id === asides[0].unit).aside, true, 'the unit stands aside');
  await page.evaluate((id) => /** @type {any} */ (window).grognard.selectUnit(id), asides[0].unit);
  await idle(page);
  const again = page.locator(`.card-orders .card-l1813-stack input[data-unit="${asides[0].unit}"]`);
  assert.equal(await again.isChecked(), false, 'shown out of the attack');
  assert.equal(await again.isDisabled(), true);
  await shot(page, '17-l1813-aside-after');
  assertNoPageErrors(page);
  await page.context().close();
});
