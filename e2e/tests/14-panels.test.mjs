// The board's panels, keys and flow (issue 12): an exported record that `grognard replay
// --verify` accepts (a 64-bit seed from the start screen), Enter pressed thrice ends one phase,
// the rules search finds CRT and TEC, the start screen's Level selector within its card and no
// sideways scroll on a phone, "the computer is thinking" at once, selection after a declaration
// and in a retreat, a take-back's answer said to the asker; the events panel, the "what changed"
// summary with the computer's plan once, the sequence-of-play track, the charts with the
// combat's column and die highlighted, and the phone's end-phase bar within thumb reach.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, waitBoard, idle, boardState, waitActions, centreOn, clickHex, command, unitOf, assertNoPageErrors, BIN,
} from './helpers.mjs';

useFixture();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Plays bon-first-day by the API to the Allied declaration of PR.9 against FR.26. @param {string} id @param {string} token */
async function toAlliedCombat(id, token) {
  await api.act(id, 'end', token);
  await api.act(id, 'move PR.9 2416', token);
  await api.act(id, 'end', token);
}

/** No sideways scroll. @param {import('playwright-core').Page} page */
async function noSideways(page) {
  const r = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth, bw: document.body.scrollWidth }));
  assert.ok(r.sw <= r.cw && r.bw <= r.cw, `no horizontal scroll: ${JSON.stringify(r)}`);
}

test('14a. a 64-bit seed from the start screen; the exported record passes replay --verify; a too-large seed said plainly', { timeout: 90_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(server.base + '/');
  await page.check('.scenario-card input[value="bon-first-day"]');
  await page.click('details.advanced summary');
  // too large: our words, not a parser's
  await page.fill('#seed', '18446744073709551616');
  await page.click('button[type="submit"]');
  const err = page.locator('.start-form .error');
  await err.waitFor({ state: 'visible' });
  assert.match(await err.innerText(), /whole number from 0 to 18446744073709551615/);
  assert.doesNotMatch(await err.innerText(), /serde|invalid type|expected/i);
  const seed = '1668751322352442745';
  await page.fill('#seed', seed);
  assert.equal(await page.inputValue('#seed'), seed, 'the field keeps every digit');
  const [req] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/api/games') && r.method() === 'POST'),
    page.click('button[type="submit"]'),
  ]);
  assert.match(req.postData() || '', new RegExp(`"seed":"${seed}"`), 'a seed past 2^53 travels as its digits');
  await waitBoard(page);
  const id = await page.evaluate(() => /** @type {any} */ (window).grognard.id);
  // a few actions, a die among them
  let n = (await boardState(page)).actions_recorded;
  for (const a of ['end', 'move PR.9 2416', 'end', 'attack PR.9 FR.26', 'end']) {
    await command(page, a);
    await waitActions(page, n);
    n = (await boardState(page)).actions_recorded;
  }
  const resolve = (await api.state(id)).legal.find((/** @type {string} */ a) => a.startsWith('resolve '));
  await command(page, resolve);
  await waitActions(page, n);
  const s = await api.state(id);
  assert.ok(s.log.some((/** @type {any} */ e) => /^roll \d$/.test(e.action || '')), 'a die was rolled');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button.tool[aria-label="Export"]')]);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'grognard-export-')), 'record.json');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.match(text, new RegExp(`"seed"\\s*:\\s*"?${seed}\\b`), 'the record keeps the seed whole');
  const out = execFileSync(BIN, ['replay', '--verify', file], { encoding: 'utf8' });
  assert.match(out, /OK/);
  assertNoPageErrors(page);
  await page.context().close();
});

test('14b. three Enters on the end button end one phase only', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 3, mode: 'hotseat' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const end = page.locator('.card-orders button.btn-end');
  await end.focus();
  const n = (await boardState(page)).actions_recorded;
  await page.keyboard.press('Enter');
  await waitActions(page, n);
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press('Enter');
    await idle(page);
  }
  const s = await boardState(page);
  assert.equal(s.actions_recorded, n + 1, 'one phase ended');
  assert.equal(s.phasing, 'Allied');
  assert.equal(s.step, 'movement');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-key')), 'orders-status', 'the focus rests on the orders, not on the next end');
  assertNoPageErrors(page);
  await page.context().close();
});

test('14c. the rules search finds CRT and TEC', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 3, mode: 'hotseat' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  await page.keyboard.press('r');
  const search = page.locator('#rules-drawer .rules-search');
  await search.waitFor({ state: 'visible' });
  for (const q of ['CRT', 'TEC', 'crt']) {
    await search.fill(q);
    await page.locator(`#rules-drawer .rule[data-case="${q.toUpperCase()}"]`).waitFor({ state: 'visible' });
  }
  assertNoPageErrors(page);
  await page.context().close();
});

test('14d. the Level selector stays in its card; a phone never scrolls sideways; the end button within thumb reach', { timeout: 90_000 }, async () => {
  for (const [name, opts] of /** @type {const} */ ([['1440', {}], ['390', PHONE]])) {
    const page = await newPage(browser, opts);
    await page.goto(server.base + '/');
    await page.check('input[name="mode"][value="computer"]');
    await page.locator('#level[data-loaded="true"]').waitFor({ state: 'attached' });
    const r = await page.evaluate(() => {
      const s = /** @type {HTMLElement} */ (document.querySelector('#level')).getBoundingClientRect();
      const c = /** @type {HTMLElement} */ (document.querySelector('#level')?.closest('.mode-card')).getBoundingClientRect();
      return { s: [s.left, s.right], c: [c.left, c.right] };
    });
    assert.ok(r.s[1] <= r.c[1] && r.s[0] >= r.c[0], `the Level selector within its card: ${JSON.stringify(r)}`);
    assert.match(await page.locator('#level-about').innerText(), /\w/, 'what the level means, beneath it');
    await noSideways(page);
    await page.locator('#level').scrollIntoViewIfNeeded();
    await shot(page, `14-start-level-${name}`);
    await page.context().close();
  }
  const g = await api.create({ scenario: 'bon-first-day', seed: 3, mode: 'hotseat' });
  const phone = await newPage(browser, PHONE);
  await openBoard(phone, server.base, g.links.both);
  await noSideways(phone);
  const bar = phone.locator('.phone-bar .phone-end');
  await bar.waitFor({ state: 'visible' });
  const box = await bar.boundingBox();
  assert.ok(box && box.y + box.height <= 844 && box.y >= 844 / 2, `the end button in the lower half of the screen: ${JSON.stringify(box)}`);
  await shot(phone, '14-phone-bar-390');
  const n = (await boardState(phone)).actions_recorded;
  await bar.tap();
  await waitActions(phone, n);
  assert.equal((await boardState(phone)).phasing, 'Allied');
  await noSideways(phone);
  assertNoPageErrors(phone);
  await phone.context().close();
});

test('14e. the computer thinks at once; its turn summed up with its plan once', { timeout: 90_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 5, mode: 'computer', computer_side: 'Allied', computer: 'search@1s' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.French);
  // the header's words from the click on, until the computer's moves are in
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.thinkingSeen = false;
    const el = /** @type {HTMLElement} */ (document.querySelector('.actor'));
    new MutationObserver(() => {
      if (/thinking/.test(el.textContent || '') && w.grognard.state.actions_recorded === 0) w.thinkingSeen = true;
    }).observe(el, { childList: true, subtree: true, characterData: true });
  });
  const n = (await boardState(page)).actions_recorded;
  await page.locator('.card-orders button.btn-end').click();
  await waitActions(page, n);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).thinkingSeen), true, 'the header said the computer is thinking before its moves came');
  assert.doesNotMatch(await page.locator('.actor').innerText(), /thinking/, 'and stops saying it once they are in');
  // what changed: the Allied turn, its moves, its plan once
  const wc = page.locator('.sidebar .what-changed');
  await wc.waitFor({ state: 'visible' });
  const s = await api.state(g.id);
  const moves = s.log.filter((/** @type {any} */ e) => e.side === 'Allied' && /^move /.test(e.action || '')).length;
  assert.ok(moves > 0);
  assert.match(await wc.innerText(), new RegExp(`Allied \\(computer\\) played [\\s\\S]*${moves} moves`));
  const plans = await wc.locator('.wc-plan').allInnerTexts();
  assert.ok(plans.length >= 1, 'the plan is said');
  assert.equal(new Set(plans).size, plans.length, 'each plan once');
  // the log shows no explanation twice in a row
  const said = await page.locator('.card-log .log-events .ev-computer').allInnerTexts();
  for (let i = 1; i < said.length; i++) assert.notEqual(said[i], said[i - 1]);
  // the events panel lists the reinforcements that entered
  const entered = s.log.flatMap((/** @type {any} */ e) => e.events).filter((/** @type {any} */ e) => e.kind === 'entered');
  assert.ok(entered.length > 0);
  const events = page.locator('.card-events .events-list');
  for (const e of entered) assert.ok((await events.innerText()).includes(e.text), `the events panel lists "${e.text}"`);
  await shot(page, '14-what-changed-1440');
  await page.locator('button[data-key="wc-dismiss"]').click();
  await wc.waitFor({ state: 'detached' });
  assertNoPageErrors(page);
  await page.context().close();
  // the same on a phone
  const phone = await newPage(browser, PHONE);
  await openBoard(phone, server.base, g.links.French);
  await noSideways(phone);
  await shot(phone, '14-computer-390');
  await phone.context().close();
});

test('14f. the track, the charts with the combat highlighted, the events panel, selection after a declaration and in a retreat', { timeout: 120_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 42, mode: 'hotseat' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  // turn 1: the French open in combat (14.62)
  const track = page.locator('.sidebar .card-track');
  await track.waitFor({ state: 'visible' });
  assert.match(await track.locator('.seq-now').innerText(), /French combat phase/);
  assert.match(await track.locator('.seq-skipped').first().innerText(), /French movement phase[\s\S]*14\.62/);
  await page.locator('.card-track .seq-why a.case:has-text("14.62")').waitFor({ state: 'visible' });
  await page.waitForFunction(() => /No French movement|French have no movement/i.test(document.querySelector('.card-track .seq-why')?.textContent || ''));
  await shot(page, '14-track-1440');

  await toAlliedCombat(g.id, g.seats.both);
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.state.actions_recorded === 3);
  await idle(page);
  // declare by the attacker and its target; the attacker is not selected after
  await centreOn(page, '2416');
  let n = (await boardState(page)).actions_recorded;
  await clickHex(page, '2416');
  await page.waitForSelector('.card-orders button.btn-attack:has-text("Attack FR.26")');
  await clickHex(page, '2316');
  await waitActions(page, n);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.selected), null, 'no unit stays selected after its declaration');
  // the charts: the combat's column highlighted
  await page.keyboard.press('t');
  const drawer = page.locator('#tables-drawer');
  await drawer.locator('.crt-table').waitFor({ state: 'visible' });
  const cb = (await api.state(g.id)).combats[0];
  assert.deepEqual(await drawer.locator('.crt-table thead th.hl-col').allInnerTexts(), [cb.column]);
  assert.ok((await drawer.locator('.tec-table tbody tr').count()) > 3, 'the terrain chart');
  await shot(page, '14-charts-column-1440');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  n = (await boardState(page)).actions_recorded;
  await command(page, 'end');
  await waitActions(page, n);
  n = (await boardState(page)).actions_recorded;
  await page.locator('.card-combats button[data-key="resolve:0"]').click();
  await waitActions(page, n);
  const s = await api.state(g.id);
  const result = s.log.flatMap((/** @type {any} */ e) => e.events).find((/** @type {any} */ e) => e.kind === 'combat');
  assert.ok(result);
  // the events panel lists the result; the notice over the map is brief
  await page.locator(`.card-events .events-list .ev-combat:has-text("${result.text}")`).waitFor({ state: 'visible' });
  // the charts: the column and the die's row
  await page.locator('button.tool[data-key="charts"]').click();
  await drawer.locator('.crt-table').waitFor({ state: 'visible' });
  assert.deepEqual(await drawer.locator('.crt-table thead th.hl-col').allInnerTexts(), [result.column]);
  assert.equal(await drawer.locator('.crt-table tbody tr.hl-row th').innerText(), String(result.die));
  assert.equal(await drawer.locator('.crt-table td.hl-cell').innerText(), result.result);
  await shot(page, '14-charts-rolled-1440');
  await page.locator('#tables-drawer .icon-btn').click();
  // a retreat: the unit to place is selected; clicking it keeps it selected, its hexes shown
  assert.equal(s.step, 'retreat', `1-2 gives a retreat either way: ${s.step}`);
  const act = s.legal.find((/** @type {string} */ a) => a.startsWith('retreat '));
  const [, unit, hex] = act.split(' ');
  await page.waitForFunction((u) => /** @type {any} */ (window).grognard.selected === u, unit);
  await centreOn(page, unitOf(s, unit).hex);
  await clickHex(page, unitOf(s, unit).hex);
  await idle(page);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.selected), unit, 'a click on the unit to retreat keeps it selected');
  await page.waitForSelector('svg.board .layer-cand .cand-retreat');
  n = (await boardState(page)).actions_recorded;
  await clickHex(page, hex);
  await waitActions(page, n);
  assert.equal(unitOf(await boardState(page), unit).hex, hex, 'the next click retreats it');
  await shot(page, '14-events-1440');
  // the same panels on a phone
  const phone = await newPage(browser, PHONE);
  await openBoard(phone, server.base, g.links.both);
  await noSideways(phone);
  await phone.locator('.card-events').scrollIntoViewIfNeeded();
  await shot(phone, '14-events-390');
  await phone.keyboard.press('t');
  await phone.locator('#tables-drawer .crt-table').waitFor({ state: 'visible' });
  await shot(phone, '14-charts-390');
  assertNoPageErrors(phone);
  await phone.context().close();
  assertNoPageErrors(page);
  await page.context().close();
});

test('14g. the asker hears that the take-back was allowed; no stale notice', { timeout: 90_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });
  const french = await newPage(browser);
  await openBoard(french, server.base, g.links.French);
  const allied = await newPage(browser);
  await openBoard(allied, server.base, g.links.Allied);
  await api.act(g.id, 'end', g.seats.French);
  await api.act(g.id, 'move PR.9 2416', g.seats.Allied);
  for (const p of [french, allied]) {
    await p.waitForFunction(() => /** @type {any} */ (window).grognard.state.actions_recorded === 2);
    await idle(p);
  }
  await allied.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.querySelector('button.tool[aria-label="Undo"]'))).disabled);
  await allied.locator('button.tool[aria-label="Undo"]').click();
  await allied.locator('#toasts .toast:has-text("Take-back asked")').waitFor({ state: 'visible' });
  await french.locator('.takeback-bar button[data-key="takeback-accept"]').click();
  await allied.locator('#toasts .toast:has-text("Take-back allowed")').waitFor({ state: 'visible' });
  assert.match(await allied.locator('#toasts .toast:has-text("Take-back allowed")').innerText(), /move PR\.9 2416/);
  assert.equal(await allied.locator('#toasts .toast:not(.leaving):has-text("Take-back asked")').count(), 0, 'the waiting notice is gone');
  await allied.locator('.takeback-bar').waitFor({ state: 'hidden' });
  assert.equal(unitOf(await boardState(allied), 'PR.9').hex, '2516');
  await shot(allied, '14-takeback-allowed');
  for (const p of [french, allied]) {
    assertNoPageErrors(p);
    await p.context().close();
  }
});
