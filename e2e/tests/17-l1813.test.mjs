// Leipzig 1813, the strategic game, on the board (issue 15): a summer game hot-seat shows the
// campaign map with its places named, the counters in stacks with their printed values, the
// victory point track and the fortresses; a placement typed in the command box is taken. In a
// spring game online, the French seat's board shows the Allied counters inverted (blank, where
// they stand) and its page holds none of the hidden counters' ids.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFixture, server, api, browser, newPage, shot, openBoard, waitActions, command, centreOn, assertNoPageErrors } from './helpers.mjs';

useFixture();

test('1. a summer game: the campaign map, counters in stacks, the victory points, a placement', { timeout: 120_000 }, async () => {
  const g = await api.create({ scenario: 'leipzig1813-5', mode: 'hotseat', seed: 3 });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const s = await api.state(g.id);
  assert.equal(s.system, 'leipzig-1813');
  assert.equal(s.step, 'setup');
  // the map names its places
  const labels = await page.locator('svg.board').innerHTML();
  for (const place of ['Leipzig', 'Dresden', 'Magdeburg', 'Berlin', 'Prague']) assert.ok(labels.includes(place), `${place} is named`);
  // every counter on the map is drawn, with its printed values
  const onMap = s.units.filter((/** @type {any} */ u) => u.status === 'map');
  assert.equal(await page.locator('svg.board .layer-counters .counter').count(), onMap.length);
  const inf = onMap.find((/** @type {any} */ u) => u.type === 'infantry');
  assert.equal(await page.locator(`svg.board .counter[data-unit="${inf.id}"] text.sm`).textContent(), inf.designation);
  // the panels: the victory point track with the cities, the fortresses
  assert.match(await page.locator('.card-l1813-victory').innerText(), /victory points/);
  assert.match(await page.locator('.card-l1813-victory').innerText(), /Dresden/);
  assert.equal(await page.locator('.card-l1813-fortresses').count(), 1);
  // the counters waiting to be placed say so, where a scheduled arrival would give its turn
  const due = await page.locator('.card-reinf tbody').innerText();
  assert.match(due, /to place/);
  assert.doesNotMatch(due, /^\?/m);
  await shot(page, '17-summer-setup');
  // a placement, typed
  const place = s.legal.find((/** @type {string} */ a) => a.startsWith('place '));
  assert.ok(place, 'a placement is legal');
  const [, unit, hex] = place.split(' ');
  await command(page, place);
  await waitActions(page, 0);
  const after = await api.state(g.id);
  assert.equal(after.units.find((/** @type {any} */ u) => u.id === unit).hex, hex);
  await page.waitForSelector(`svg.board .counter[data-unit="${unit}"]`);
  await centreOn(page, hex);
  await shot(page, '17-summer-placed');
  assertNoPageErrors(page);
  await page.context().close();
});

test('2. a spring game online: the French seat sees the Allied counters inverted, never what they are', { timeout: 180_000 }, async () => {
  const g = await api.create({ scenario: 'leipzig1813-1', mode: 'online' });
  const allies = g.seats.Allies;
  const french = g.seats.French;
  // the Allies deploy first: their placements, by the API, until the French are to act
  let seed = 11;
  const pick = (/** @type {number} */ n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let i = 0; i < 400; i++) {
    const s = (await api.call(`/api/games/${g.id}`, { token: allies })).json;
    if (s.to_act !== 'Allies') break;
    const places = s.legal.filter((/** @type {string} */ a) => a.startsWith('place '));
    const a = places.length ? places[pick(places.length)] : 'end';
    await api.act(g.id, a, allies);
  }
  const av = (await api.call(`/api/games/${g.id}`, { token: allies })).json;
  const secret = av.units.filter((/** @type {any} */ u) => u.hidden_from === 'French').map((/** @type {any} */ u) => u.id);
  assert.ok(secret.length > 0, 'Allied counters are hidden from the French');
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.French);
  const fv = (await api.call(`/api/games/${g.id}`, { token: french })).json;
  assert.equal(fv.hidden, 'Allies');
  const inverted = fv.units.filter((/** @type {any} */ u) => u.hidden);
  assert.ok(inverted.length > 0, 'inverted counters in the French view');
  assert.equal(await page.locator('svg.board .counter.hidden-unit').count(), inverted.length);
  // nothing on the French page names a hidden counter: its text, titles, labels and data
  // attributes (not the SVG's path data, whose arcs read `A2,2 ...`)
  const said = await page.evaluate(() => {
    const out = [document.body.innerText];
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.getAttributeNames()) {
        if (a === 'title' || a.startsWith('aria-') || a.startsWith('data-')) out.push(el.getAttribute(a) || '');
      }
      if (el.tagName.toLowerCase() === 'title' || el.tagName.toLowerCase() === 'text') out.push(el.textContent || '');
    }
    return out.join(' ');
  });
  const words = new Set(said.split(/[^A-Za-z0-9]+/));
  const named = secret.filter((/** @type {string} */ id) => words.has(id));
  assert.deepEqual(named, [], 'the French page names hidden Allied counters');
  assert.match(await page.locator('.card-l1813-victory').innerText(), /Reconnaissance/);
  await centreOn(page, inverted[0].hex);
  await shot(page, '17-spring-french-seat');
  assertNoPageErrors(page);
  await page.context().close();
});
