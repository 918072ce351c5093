// A walk through a game in a real browser (Debian's chromium via playwright-core), with
// screenshots in test-artifacts/. Runs against the mock server (web/dev/mock-server.mjs) or the
// real one (BASE=http://127.0.0.1:8813).
//
//   node web/dev/mock-server.mjs &          # or: cargo run -p grognard -- play (the server)
//   PLAYWRIGHT_DIR=/tmp/webtest node web/dev/check.mjs
import { launch, page, BASE, OUT } from './browser.mjs';

const b = await launch();
const p = await page(b);
const shot = (n) => p.screenshot({ path: `${OUT}/${n}.png` });
const fails = [];
const check = (ok, what) => { console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`); if (!ok) fails.push(what); };

// ---- start screen -> hot-seat game
await p.goto(BASE + '/');
await p.waitForSelector('.scenario-card');
await shot('01-start');
await p.click('button[type=submit]');
await p.waitForSelector('svg.board .counter');
await p.waitForTimeout(400);
await shot('02-game');
const id = await p.evaluate(() => window.grognard.id);
check(await p.evaluate(() => !location.hash.includes('seat=')), 'the seat token is kept out of the address bar');
check(await p.evaluate((id) => !!JSON.parse(localStorage.getItem('grognard.seats'))[id].token, id), 'the seat token is in localStorage');

const pt = (hex) => p.evaluate((h) => window.grognard.board.clientPoint(h), hex);
const clickHex = async (hex) => { const [x, y] = await pt(hex); await p.mouse.click(x, y); await p.waitForTimeout(350); };
const state = () => p.evaluate(() => window.grognard.state);
const idle = () => p.waitForFunction(() => !window.grognard.busy);

// ---- French: no attack on turn 1 -> end
await p.click('.btn-end');
await idle();
await p.waitForTimeout(300);
check((await state()).phasing === 'Allied', 'end: the Allied movement phase begins');

// ---- select PR.9, its destinations, the path on hover, move by click
await p.evaluate(() => window.grognard.board.centreOn('2416', 1.6));
await clickHex('2516');
await p.waitForSelector('.layer-dest .dest');
const nd = await p.locator('.layer-dest .dest').count();
check(nd > 5, `PR.9's destinations are shaded (${nd})`);
{ const [x, y] = await pt('2414'); await p.mouse.move(x, y); await p.waitForTimeout(250); }
check(await p.locator('.layer-path .path-line').count() === 1, 'hovering a destination draws the path');
await shot('03-moves');
await clickHex('2416');
await idle();
check((await state()).units.find((u) => u.id === 'PR.9').hex === '2416', 'click on a destination moves PR.9 to 2416');
await shot('04-moved');

// ---- a refusal, by the command box: the toast names the case and links to the rule
await p.fill('.cmd-input', 'move PR.10 2514');
await p.press('.cmd-input', 'Enter');
await p.waitForSelector('.toast-error');
const toastText = await p.locator('.toast-error').first().innerText();
check(/5\.32/.test(toastText), `a refusal shows its case: ${toastText.replace(/\s+/g, ' ').slice(0, 120)}`);
await shot('05-refused');
await p.locator('.toast-error a.case').first().click();
await p.waitForSelector('#rules-drawer.open');
await p.waitForTimeout(400);
const hit = await p.locator('#rules-drawer .rule.hit').count() ? await p.locator('#rules-drawer .rule.hit').getAttribute('data-case') : null;
check(hit === '5.32', `the case link opens the rules at 5.32 (${hit ?? await p.locator('.rules-status').innerText()})`);
await shot('06-rules');
await p.keyboard.press('Escape');
await p.waitForTimeout(300);

// ---- drag and drop: RU.3 from 2514 to 2513? (whatever its first destination is)
await clickHex('2514');
await p.waitForSelector('.layer-dest .dest');
const dest = await p.evaluate(() => window.grognard.moves.list.find((d) => d.cost <= 1).hex);
{
  const [x0, y0] = await pt('2514');
  const [x1, y1] = await pt(dest);
  await p.mouse.move(x0, y0);
  await p.mouse.down();
  await p.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 5 });
  await p.mouse.move(x1, y1, { steps: 5 });
  await p.mouse.up();
  await idle();
  await p.waitForTimeout(200);
}
check((await state()).units.find((u) => u.id === 'RU.3').hex === dest, `drag and drop moves RU.3 to ${dest}`);

// ---- undo
check(!(await p.locator('button[aria-label=Undo]').isDisabled()), 'undo is enabled');
await p.click('button[aria-label=Undo]');
await idle();
await p.waitForTimeout(300);
check((await state()).units.find((u) => u.id === 'RU.3').hex === '2514', 'undo takes RU.3 back');

// ---- ZOC overlay and hex numbers
await p.keyboard.press('z');
await p.keyboard.press('h');
await p.waitForTimeout(200);
check(await p.locator('.layer-zoc path.zoc').count() === 1, 'the ZOC overlay is drawn');
await shot('07-zoc-numbers');
await p.keyboard.press('z');
await p.keyboard.press('h');

// ---- end movement: obligations, declare an attack by clicks
await p.click('.btn-end');
await idle();
await p.waitForTimeout(300);
const s1 = await state();
check(s1.step === 'declare', 'the Allied combat phase: declaring');
check(await p.locator('.obligation-ring').count() === s1.obligations.length, `obligations ringed (${s1.obligations.length})`);
await shot('08-obligations');
await clickHex('2416');
await clickHex('2316');
await idle();
await p.waitForTimeout(300);
const s2 = await state();
check(s2.combats.length === 1, 'attack PR.9 FR.26 declared by two clicks');
await shot('09-declared');

// ---- end declarations; resolve
await p.click('.btn-end');
await idle();
await p.waitForTimeout(300);
check((await state()).step === 'choose', 'choosing a combat');
await shot('10-choose');
await p.click('.combat-card .btn-primary');
await idle();
await p.waitForTimeout(500);
await shot('11-result');
const s3 = await state();
check(s3.actions_recorded > s2.actions_recorded + 1, `resolved and the die rolled (step ${s3.step})`);
check(await p.locator('.toast-result, .toast-info').count() > 0, 'the die result is shown');

// ---- retreat / advance as offered
for (let i = 0; i < 6; i++) {
  const s = await state();
  if (s.step === 'retreat' || s.step === 'advance') {
    const act = s.legal.find((a) => a.startsWith(s.step));
    const hex = act.split(' ')[2];
    await shot(`12-${s.step}`);
    await clickHex(hex);
    await idle();
    await p.waitForTimeout(300);
  } else if (s.legal.includes('hold')) {
    await p.click('text=Hold');
    await idle();
  } else break;
}
await shot('13-after-combat');

// ---- replay and branch
await p.click('button[aria-label=Replay]');
await p.waitForSelector('.replay-bar:not([hidden])');
await p.click('button[aria-label="To the start"]');
await p.waitForTimeout(700);
check((await p.evaluate(() => window.grognard.view.actions_recorded)) === 0, 'replay to 0');
await p.click('button[aria-label="Forward one action (])"]');
await p.click('button[aria-label="Forward one action (])"]');
await p.waitForTimeout(700);
await shot('14-replay');
check((await p.evaluate(() => window.grognard.view.actions_recorded)) === 2, 'replay steps forward');
await p.click('text=Branch from here');
await p.waitForFunction((id) => window.grognard && window.grognard.id !== id && window.grognard.state, id);
await p.waitForTimeout(500);
check((await state()).actions_recorded === 2, 'branch opens a new game at action 2');
await shot('15-branch');

// ---- keyboard: focus the map, move the cursor, select with Enter
await p.keyboard.press('m');
await p.keyboard.press('ArrowRight');
await p.keyboard.press('ArrowDown');
await p.waitForTimeout(200);
check(await p.locator('.layer-cursor .cursor').count() === 1, 'the keyboard hex cursor shows');
await shot('16-keyboard');

// ---- export
const [download] = await Promise.all([p.waitForEvent('download'), p.click('button[aria-label=Export]')]);
check(/grognard-.*\.json/.test(download.suggestedFilename()), `export downloads ${download.suggestedFilename()}`);

// ---- narrow screen
await p.setViewportSize({ width: 420, height: 860 });
await p.waitForTimeout(400);
await shot('17-narrow');

// refusals are expected (the browser logs their 422 replies)
p.errors = p.errors.filter((e) => !/status of 422/.test(e));
console.log(p.errors.length ? `page errors:\n${p.errors.join('\n')}` : 'no page errors');
await b.close();
if (fails.length || p.errors.length) process.exit(1);
