// Every page checked in a real headless browser: Debian's
// chromium driven by playwright-core, against a fresh server started by
// run.sh. The first admin signs in with the one-time password and changes
// it, then makes the data the pages need — tables and a Double Hand Poker
// hand at each step through the JSON API (8 seats, long names, backline
// wagers), Tripoley and dice games through their pages' forms — and every
// page is visited at 390 and 1024 px wide:
//   - no horizontal scrolling (document scrollWidth <= innerWidth);
//   - axe-core finds no serious or critical violation;
//   - at most 150 KB of HTML;
//   - every amount written 1,234.50 / −868.96, no raw timestamp, and at
//     1024 px an amount's cell right-aligned in tabular digits, and no
//     word of a table's cell broken across two lines (checks.mjs);
//   - a signed-in page has the navigation bar, its section marked;
//   - every visible button, input, select, link styled as a button, summary,
//     the label of every checkbox and radio, and each seat link of the
//     table drawing is at least 44 px high (and 44 px wide for the seats).
// A screenshot of each page at each width is saved in $PITBOOK_OUT_DIR/pages.
//
// Environment: PITBOOK_URL (http://127.0.0.1:PORT), PITBOOK_ADMIN_PASSWORD
// (the first start's one-time password), PITBOOK_OUT_DIR. Exits non-zero
// listing every page that failed a check.
//
// What it relies on in the pages (ids and names that exist today): the login
// form's #username/#password and its "Sign in" button; the password form's
// #current/#new/#confirm (or the labels "Current password", "New password",
// "New password again") and its submit button; every POST form's hidden
// `csrf` input; a kept game's hidden `version` and `idempotency_key`; the
// start forms' field names (players, chips, chip_value, profile, game); the
// Tripoley round form's names (hand_N, hand_spare, buyer, price, contrib_N,
// fold_N, shown_N, out, left_N; intent=round) and its step form's (intent=step,
// step=ante|deal|spare|money_cards). Hands are made with the JSON API only.
// Two pages whose screenshots at one width are byte-identical fail (the
// list names one page twice); so does a form control named after a property
// of its form (`action`, `name`, `id`…, which a script would read instead).

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { failFast, launch } from './chromium.mjs';
import { brokenWords, moneyProblems, navigation, shadowingControls, smallTargets } from './checks.mjs';
import { TRIPOLEY_DEAL as DEAL, TRIPOLEY_SEATING as SEATING } from './harness.mjs';

const BASE = must('PITBOOK_URL');
const ONE_TIME = must('PITBOOK_ADMIN_PASSWORD');
const OUT = join(process.env.PITBOOK_OUT_DIR || 'target/browser', 'pages');
const PASSWORD = 'pages-check-passphrase-16';
const WIDTHS = [390, 1024];
const MIN_TARGET = 44;
// No page over 150 KB of HTML (a tablet on the cardroom's Wi-Fi).
const MAX_HTML = 150 * 1024;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE)) {
  throw new Error(`PITBOOK_URL must be http://127.0.0.1:PORT, got ${BASE}`);
}

function must(name) {
  const v = process.env[name];
  if (!v) {
    console.error(`pages: ${name} is not set (run tests/browser/run.sh)`);
    process.exit(2);
  }
  return v;
}

let keys = 0;
const key = () => `pages-${process.pid}-${++keys}`;

/** The value of the hidden input `name` on the page now. */
async function hidden(page, name, scope = 'body') {
  return page.locator(`${scope} input[name="${name}"]`).first().inputValue();
}

async function signIn(page, user, password) {
  await page.goto(`${BASE}/login`);
  await page.locator('#username').fill(user);
  await page.locator('#password').fill(password);
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

/** A form posted as the page's own form would be, with its csrf token. */
async function postForm(page, path, fields, scope = 'form', expected = 303) {
  await page.goto(`${BASE}${path}`);
  const form = { csrf: await hidden(page, 'csrf', scope) };
  for (const name of ['version', 'idempotency_key']) {
    if (await page.locator(`${scope} input[name="${name}"]`).count()) {
      form[name] = await hidden(page, name, scope);
    }
  }
  const response = await page.request.post(`${BASE}${path}`, {
    form: { ...form, ...fields },
    maxRedirects: 0,
  });
  if (response.status() !== expected) {
    throw new Error(`POST ${path} ${JSON.stringify(fields)}: ${response.status()} ${await response.text()}`);
  }
  return response.headers().location;
}

async function api(page, path, body, status = 201, timeout = 30_000) {
  const response = await page.request.post(`${BASE}${path}`, { data: body, timeout });
  if (response.status() !== status && response.status() !== 200) {
    throw new Error(`POST ${path}: ${response.status()} ${await response.text()}`);
  }
  return response.json();
}

/** A hand at table `table` (8 seats) taken to `upTo`; its id. */
async function hand(page, table, upTo) {
  await api(page, '/api/v1/tables', { name: table, profile: 'lucky-chances', seats: 8 });
  const opened = await api(page, '/api/v1/hands', {
    idempotency_key: key(),
    events: [{ type: 'hand_opened', table }],
  });
  const id = opened.hand_id;
  let version = opened.version;
  const send = async (...events) => {
    const r = await api(page, `/api/v1/hands/${id}/commands`, {
      idempotency_key: key(),
      expected_version: version,
      events,
    }, 200);
    version = r.version;
  };
  const stages = ['pd', 'wagers', 'results', 'settle', 'close', 'closed', 'voided'];
  const reached = (stage) => stages.indexOf(upTo) >= stages.indexOf(stage);
  if (!reached('wagers')) return id;
  await send({ type: 'pd_set', seat: 1, player: 'Maximiliana Featherstonehaugh-Oyelaran', bank: '2000' });
  // Seats 2–8, each a primary wager; seats 3 and 6 backline wagers too.
  const order = [];
  const wagers = [];
  for (let seat = 2; seat <= 8; seat++) {
    wagers.push({ type: 'wager_placed', id: `w${seat}`, seat, bettor: `Bartholomew Quattlebaum ${seat}`, amount: '1234.50' });
    order.push(`w${seat}`);
    if (seat === 3 || seat === 6) {
      for (const n of [1, 2]) {
        wagers.push({ type: 'wager_placed', id: `w${seat}b${n}`, seat, bettor: `Wilhelmina Backline-Bettor ${n}`, amount: '99.99', backline: true });
        order.push(`w${seat}b${n}`);
      }
    }
  }
  await send(...wagers);
  if (!reached('results')) return id;
  await send({ type: 'action_set', seat: 2 });
  if (!reached('settle')) return id;
  const outcomes = ['player', 'pd', 'push'];
  const results = [];
  for (let seat = 2; seat <= 8; seat++) {
    results.push({ type: 'outcome_recorded', seat, outcome: outcomes[seat % 3] });
  }
  await send(...results);
  if (!reached('close')) return id;
  await send({ type: 'steps_confirmed', wagers: order });
  if (!reached('closed')) return id;
  if (upTo === 'voided') {
    await send({ type: 'hand_voided', reason: 'A wager was taken after the dice; the whole hand is void.' });
  } else {
    await send({ type: 'hand_closed' });
  }
  return id;
}


async function tripoleyGame(page) {
  return postForm(page, '/tripoley', {
    players: SEATING.join(', '), chips: '40', chip_value: '0.25', profile: 'classic', bet_limit: '10',
  }, '#new-game');
}

function dealFields() {
  const fields = { hand_spare: DEAL.spare };
  SEATING.forEach((name, seat) => { fields[`hand_${seat}`] = DEAL[name]; });
  return fields;
}

/** The data every page needs; the pages to visit, by name. */
async function makeData(page) {
  const pages = [];
  const add = (name, path) => pages.push({ name, path });
  add('home', '/');
  add('style guide', '/styleguide');
  add('password', '/password');
  add('users', '/users');
  // An account shows its one-time password once (200, no redirect).
  await postForm(page, '/users', { username: 'dana', staff_role: 'dealer' }, '#add-form', 200);
  add('user tokens', '/users/admin/tokens');
  add('chain', '/chain');
  const stages = { pd: 'PD', wagers: 'WAGERS', results: 'RESULTS', settle: 'SETTLE', close: 'CLOSE', closed: 'CLOSED', voided: 'VOIDED' };
  for (const [stage, table] of Object.entries(stages)) {
    const id = await hand(page, `FIT-${table}`, stage);
    add(`hand: ${stage}`, `/hands/${id}`);
    if (stage === 'wagers') add('hand: dice', `/hands/${id}?step=dice`);
    if (stage === 'results') add('hand: cards', `/hands/${id}?mode=cards`);
    if (stage === 'closed' || stage === 'voided') add(`record: ${stage}`, `/hands/${id}/record`);
    if (stage === 'settle' || stage === 'voided') {
      // The replay at its first step and its last (the settlement's drawing
      // with the bank in action; the void marked).
      add(`replay: ${stage}, first step`, `/hands/${id}/replay?step=1`);
      await page.goto(`${BASE}/hands/${id}/replay?step=1`);
      add(`replay: ${stage}, last step`, await page.locator('#replay-last').getAttribute('href'));
    }
  }
  add('a table', '/tables/FIT-CLOSED');
  add('a table with a hand in progress', '/tables/FIT-SETTLE');
  // The hand search with every hand above in its results (long names and
  // amounts), and a player's history with their totals.
  add('house way preview', '/tools/house-way?cards=Kh+Kd+4c+4d+9s+As+Qd');
  add('what each setting is worth (the form)', '/tools/hand-ev?side=banker');
  add('house ways', '/tools/house-ways');
  add('a house way chart', '/tools/house-ways/foxwoods');
  // A room's own way, loaded (the Foxwoods file renamed), and its chart
  // with who loaded it; the load form refusing a file beside its text.
  const foxwoods = readFileSync('src/domain/double_hand_poker/house_way/ways/foxwoods.txt', 'utf8');
  // Loading checks every rank pattern under the four joker and wheel rule
  // sets: under a second in a release build, about 20 s in the debug build
  // this test runs (two cores, other work running); the default 30 s
  // timeout failed CI once.
  const text = foxwoods.replace('name foxwoods', 'name our-room-way');
  const loaded = await api(page, '/api/v1/house-ways', { text }, 201, 180_000);
  add('a loaded house way chart', `/tools/house-ways/${loaded.house_way}`);
  // The tables (its house way choice holds the loaded way: a closed select
  // shows only the chosen one, so the page is listed once, here).
  add('tables', '/tables');
  add('hand search', '/history');
  add('hand search, filtered', '/history?player=maximiliana&status=closed&wager_min=50');
  add("a player's history", `/history/player?player=${encodeURIComponent('Maximiliana Featherstonehaugh-Oyelaran')}`);

  // Shifts: the list, a table's shift, its signed report (closed, so its
  // charts and a table's section show).
  add('shifts', '/shifts');
  const shift = await postFrom(page, '/shifts', '/shifts', { table: 'FIT-CLOSED' }, '#open-shift');
  add('a shift', shift);
  add('a shift report', await postFrom(page, shift, `${shift}/close`, {}, '#close-shift'));
  // A california-2026 table: its rotation clock, a TPPP marked there, the
  // guided hand's "who banks" step with the clock; the TPPP registry.
  await api(page, '/api/v1/tables', { name: 'FIT-CA', profile: 'california-2026', seats: 7 });
  await api(page, '/api/v1/tppps', { name: 'Theodora Oyelaran-Featherstone', company: 'Westbridge Proposition Players', badge: 'TPPP-004217' });
  await api(page, '/api/v1/tables/FIT-CA/tppps', { name: 'Theodora Oyelaran-Featherstone', marked: true });
  const ca = await api(page, '/api/v1/hands', { idempotency_key: key(), events: [{ type: 'hand_opened', table: 'FIT-CA' }] });
  add('a california-2026 table', '/tables/FIT-CA');
  add('hand: pd, with the rotation clock', `/hands/${ca.hand_id}`);
  // The floor: every table above, hands in progress, a clock, the alerts.
  add('the floor', '/floor');

  add('tripoley list', '/tripoley');
  // Game A: a whole round on one form, so the read-aloud list and history show.
  const a = await tripoleyGame(page);
  const round = {
    intent: 'round', ...dealFields(), buyer: 'Cy', price: '2',
    contrib_1: '10', contrib_2: '10', contrib_3: '10', contrib_0: '2', fold_0: '1',
    shown_1: 'As Ad 8s 8c Ts', shown_2: '6h 7c 8d 9d Td', shown_3: 'Kh Kd 4c 5d 2s',
    out: 'Ann', left_2: '3', left_3: '6', left_0: '2',
  };
  await postForm(page, a, round, '#round-form');
  add('tripoley: a round read aloud', a);
  // Games kept step by step, one at each screen: game k has had k steps.
  const steps = [
    ['deal', { step: 'ante' }],
    ['spare', { step: 'deal', ...dealFields() }],
    ['money cards', { step: 'spare', buyer: 'Cy', price: '2' }],
    ['betting', { step: 'money_cards' }],
  ];
  add('tripoley step: ante', await tripoleyGame(page));
  for (const [k, [screen]] of steps.entries()) {
    const game = await tripoleyGame(page);
    for (const [, fields] of steps.slice(0, k + 1)) {
      await postForm(page, game, { intent: 'step', ...fields }, '#step-form');
    }
    add(`tripoley step: ${screen}`, game);
  }

  add('dice list', '/dice');
  const tt = await postForm(page, '/dice', { game: 'ten-thousand', players: 'Anastasia, Benedikt, Cy' }, '#new-game');
  add('10,000 game', tt);
  const pd = await postForm(page, '/dice', { game: 'poker-dice', players: 'Anastasia, Benedikt', profile: 'caribena', straights: 'none' }, '#new-game');
  add('poker dice game', pd);

  // Training: a drill on screen (the longest answer form, drawn as the
  // table), drills of cards, dice, a schedule, a Tripoley board, a drill
  // answered in practice (the verdict, the answer, the explanation), a
  // test finished (the summary and every answer reviewed), progress, the
  // trainees side by side, the pass marks.
  add('training', '/training');
  const startRun = (fields) => postFrom(page, '/training', '/training/runs', fields, '#start-run');
  add('training: a settle-all drill', await startRun({ kind: 'settle-all', level: '3', mode: 'practice' }));
  add('training: a decide drill, its cards', await startRun({ kind: 'decide', level: '3', mode: 'practice' }));
  add('training: a poker dice drill, its dice', await startRun({ kind: 'poker-dice', level: '2', mode: 'practice' }));
  add('training: a collection drill, the wager and the schedule', await startRun({ kind: 'collection', level: '3', mode: 'practice' }));
  add('training: a Tripoley drill, its board and cards', await startRun({ kind: 'tripoley', level: '3', mode: 'practice' }));
  add('training: a house-way drill, the card picker', await startRun({ kind: 'house-way', level: '2', mode: 'practice' }));
  const practised = await startRun({ kind: 'collection', level: '3', mode: 'practice' });
  await answerWithZeros(page, practised);
  add('training: a drill answered', practised);
  const test = await startRun({ kind: 'ten-thousand', level: '2', mode: 'test', questions: '1' });
  await answerWithZeros(page, test);
  add('training: a test finished', test);
  add('training: progress', '/training/progress');
  add('training: trainees', '/training/trainees');
  // Another's progress, as their supervisor sees it (the admin's own is above).
  add('training: a trainee', '/training/trainees/dana');
  add('training: pass marks', '/training/pass-marks');
  return pages;
}

/** Answers the drill on the run page `path` with "0" in every field (a
 * well-formed answer, graded wrong). */
async function answerWithZeros(page, path) {
  await page.goto(`${BASE}${path}`);
  const names = await page.locator('#answer-form input:not([type=hidden])').evaluateAll((inputs) => inputs.map((i) => i.name));
  const fields = { drill: await hidden(page, 'drill', '#answer-form') };
  for (const name of names) fields[name] = '0';
  await postFrom(page, path, `${path}/answer`, fields, '#answer-form');
}

/** A form of the page `from` posted to `to` with its csrf token; the
 * redirect's location. */
async function postFrom(page, from, to, fields, scope) {
  await page.goto(`${BASE}${from}`);
  const csrf = await hidden(page, 'csrf', scope);
  const response = await page.request.post(`${BASE}${to}`, { form: { csrf, ...fields }, maxRedirects: 0 });
  if (response.status() !== 303) {
    throw new Error(`POST ${to} ${JSON.stringify(fields)}: ${response.status()} ${await response.text()}`);
  }
  return response.headers().location;
}

async function checkPage(page, { name, path }, width, failures) {
  const where = `${name} (${path}) at ${width} px`;
  const response = await page.goto(`${BASE}${path}`);
  if (!response || response.status() !== 200) {
    failures.push(`${where}: status ${response && response.status()}`);
    return;
  }
  const bytes = (await response.body()).length;
  if (bytes > MAX_HTML) failures.push(`${where}: ${bytes} bytes of HTML, over ${MAX_HTML}`);
  if (bytes > largest.bytes) Object.assign(largest, { bytes, where });
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  if (scrollWidth > innerWidth) {
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className.baseVal ?? el.className}`));
    failures.push(`${where}: scrolls sideways (${scrollWidth} > ${innerWidth}): ${wide.join(', ')}`);
  }
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  for (const v of result.violations.filter((v) => ['serious', 'critical'].includes(v.impact))) {
    const nodes = v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ');
    failures.push(`${where}: axe ${v.impact} ${v.id} (${v.help}): ${nodes}`);
  }
  for (const small of await smallTargets(page, MIN_TARGET)) failures.push(`${where}: ${small}`);
  for (const problem of await moneyProblems(page, width >= 1024)) failures.push(`${where}: ${problem}`);
  if (width >= 1024) for (const word of await brokenWords(page)) failures.push(`${where}: ${word}`);
  for (const control of await shadowingControls(page)) failures.push(`${where}: ${control}`);
  // Signed in: the bar (not on a forced password change, where every
  // section would lead back to it).
  if (path !== '/login' && !name.includes('forced')) {
    const nav = await navigation(page);
    if (!nav.links) failures.push(`${where}: no navigation bar`);
    const inSection = !['/', '/password', '/styleguide'].includes(new URL(path, BASE).pathname);
    if (inSection && nav.current.length !== 1) failures.push(`${where}: the bar marks ${JSON.stringify(nav.current)}, not the page's one section`);
  }
  const file = `${name.replace(/[^a-z0-9]+/gi, '-')}-${width}.png`;
  const shot = await page.screenshot({ path: join(OUT, file), fullPage: true });
  const twin = seen.get(`${width} ${shot.toString('base64')}`);
  if (twin) failures.push(`${where}: looks exactly like "${twin}": one page listed twice`);
  seen.set(`${width} ${shot.toString('base64')}`, name);
}

/** The largest page's HTML: its bytes and where. */
const largest = { bytes: 0, where: '' };

/** Each page's screenshot at a width, to the page's name. */
const seen = new Map();

async function main() {
  mkdirSync(OUT, { recursive: true });
  const browser = await launch();
  const failures = [];
  try {
    // Signed out: the sign-in page.
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
      const page = await context.newPage();
      failFast(page);
      await checkPage(page, { name: 'sign in', path: '/login' }, width, failures);
      await context.close();
    }
    // bypassCSP: axe-core is injected as a script the pages' CSP would refuse.
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, bypassCSP: true });
    const page = await context.newPage();
    failFast(page);
    await signIn(page, 'admin', ONE_TIME);
    if (new URL(page.url()).pathname === '/password') {
      // The first admin must choose a new password: the forced change page.
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await checkPage(page, { name: 'password (forced)', path: '/password' }, width, failures);
      }
      await page.setViewportSize({ width: 1024, height: 800 });
      const form = page.locator('form').filter({ has: page.locator('input[type=password]') }).first();
      const boxes = form.locator('input[type=password]');
      const count = await boxes.count();
      await boxes.nth(0).fill(ONE_TIME);
      for (let i = 1; i < count; i++) await boxes.nth(i).fill(PASSWORD);
      await Promise.all([page.waitForNavigation(), form.locator('button[type=submit], button:not([type])').first().click()]);
    }
    const pages = await makeData(page);
    console.log(`  made the data: ${pages.length} pages to check`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const p of pages) await checkPage(page, p, width, failures);
    }
    console.log(`  checked ${pages.length + 1} pages at ${WIDTHS.join(' and ')} px; the largest, ${largest.bytes} bytes of HTML: ${largest.where}`);
    await context.close();
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.error(`pages: ${failures.length} problem(s):\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log('pages: every page fits, has no serious or critical axe violation, and its targets are 44 px');
}

main().catch((e) => {
  console.error(`pages: ${e.stack || e}`);
  process.exit(1);
});
