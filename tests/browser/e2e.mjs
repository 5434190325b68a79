// pitbook's end-to-end test in a real headless browser: Debian's
// chromium driven by playwright-core, with real clicks and typing, against a
// fresh server started by run.sh. The admin signs in with the first start's
// one-time password, changes it, creates table DHP-1 and runs the seed's $200
// example (tests/double_hand_poker/http_play.rs `seed_example_hand`) through the pages; the
// numbers on the final screen are checked.
//
// Environment: PITBOOK_URL (http://127.0.0.1:PORT), PITBOOK_ADMIN_PASSWORD,
// PITBOOK_OUT_DIR (screenshots). Exits non-zero with a message naming the
// step on any mismatch, console error, page error or failed request.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { failFast, launch } from './chromium.mjs';

const BASE = must('PITBOOK_URL');
const ONE_TIME = must('PITBOOK_ADMIN_PASSWORD');
const OUT = process.env.PITBOOK_OUT_DIR || 'target/browser';
const NEW_PASSWORD = 'browser-test-passphrase-42';
const STEP_TIMEOUT = 30_000;

if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE)) {
  throw new Error(`PITBOOK_URL must be http://127.0.0.1:PORT, got ${BASE}`);
}

function must(name) {
  const v = process.env[name];
  if (!v) {
    console.error(`e2e: ${name} is not set (run tests/browser/run.sh)`);
    process.exit(2);
  }
  return v;
}

class Mismatch extends Error {}
let current = 'start';
const problems = []; // console errors, page errors, failed requests

async function step(name, fn) {
  current = name;
  const started = Date.now();
  await fn();
  if (problems.length) {
    throw new Mismatch(`browser reported problems:\n  ${problems.join('\n  ')}`);
  }
  console.log(`  ok  ${name} (${Date.now() - started} ms)`);
}

function escapeRegex(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Waits until `locator` has an element whose whole text is `expected`. */
async function expectText(locator, expected, what) {
  const exact = new RegExp(`^\\s*${escapeRegex(expected)}\\s*$`);
  try {
    await locator.filter({ hasText: exact }).first().waitFor({ timeout: STEP_TIMEOUT });
  } catch {
    const actual = await locator.allTextContents().catch(() => []);
    throw new Mismatch(`${what}: expected "${expected}", found ${JSON.stringify(actual.map((t) => t.trim()))}`);
  }
}

/** Waits until `locator` has an element containing `expected`. */
async function expectContains(locator, expected, what) {
  try {
    await locator.filter({ hasText: expected }).first().waitFor({ timeout: STEP_TIMEOUT });
  } catch {
    const actual = await locator.allTextContents().catch(() => []);
    throw new Mismatch(`${what}: expected to contain "${expected}", found ${JSON.stringify(actual.map((t) => t.trim()))}`);
  }
}

async function expectPath(page, regex, what) {
  try {
    await page.waitForURL((url) => regex.test(url.pathname), { timeout: STEP_TIMEOUT });
  } catch {
    throw new Mismatch(`${what}: expected a page at ${regex}, the browser is at ${page.url()}`);
  }
}

/** The hand page's step heading, e.g. "2. Wagers": the page has moved on. */
async function atStep(page, heading) {
  await expectText(page.locator('h2#step'), heading, 'the hand step');
}

const browser = await launch({ timeout: STEP_TIMEOUT });
const context = await browser.newContext({ viewport: { width: 1024, height: 1200 } });
context.setDefaultTimeout(STEP_TIMEOUT);
context.setDefaultNavigationTimeout(STEP_TIMEOUT);
const page = await context.newPage();
failFast(page);

page.on('console', (msg) => {
  if (msg.type() === 'error') problems.push(`console error at ${page.url()}: ${msg.text()}`);
});
page.on('pageerror', (err) => problems.push(`page error at ${page.url()}: ${err.message}`));
page.on('requestfailed', (req) =>
  problems.push(`request failed: ${req.method()} ${req.url()}: ${req.failure()?.errorText}`),
);
page.on('response', (res) => {
  if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.request().method()} ${res.url()}`);
});
// Nothing but the app itself: the pages must need no external network.
await context.route('**/*', (route) => {
  const url = route.request().url();
  if (url.startsWith(`${BASE}/`) || url.startsWith('data:')) return route.continue();
  problems.push(`request outside the app: ${url}`);
  return route.abort();
});

mkdirSync(OUT, { recursive: true });
const started = Date.now();
let handPath = '';

try {
  console.log(`e2e: chromium ${browser.version()} against ${BASE}`);

  await step('sign in as admin with the one-time password', async () => {
    await page.goto(`${BASE}/login`);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(ONE_TIME);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectPath(page, /^\/password$/, 'the first login leads to the password change');
    await expectContains(page.locator('.notice'), 'for one use only', 'the forced-change notice');
  });

  await step('the forced password change', async () => {
    await page.getByLabel('Current password').fill(ONE_TIME);
    await page.getByLabel('New password (12 to 128 characters)').fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expectPath(page, /^\/$/, 'after the password change');
    await expectText(page.locator('#who'), 'Signed in as admin (admin).', 'the home page');
  });

  await step('create table DHP-1 (lucky-chances, 7 seats)', async () => {
    // The home page's card for the section (the bar has its own link).
    await page.locator('#tables-link').click();
    await expectPath(page, /^\/tables$/, 'the tables page');
    const form = page.locator('form#new-table');
    const name = form.getByLabel('Name');
    // The browser's own check of the name (the pattern attribute) refuses a
    // space and accepts the real name.
    await name.fill('DHP 1');
    if (await name.evaluate((el) => el.checkValidity())) {
      throw new Mismatch('the Name field accepts "DHP 1": its pattern is not applied');
    }
    await name.fill('DHP-1');
    if (!(await name.evaluate((el) => el.checkValidity()))) {
      throw new Mismatch(`the Name field refuses "DHP-1": ${await name.evaluate((el) => el.validationMessage)}`);
    }
    await form.getByLabel('Game profile').selectOption('lucky-chances');
    await form.getByLabel('Seats').fill('7');
    await form.getByRole('button', { name: 'Create table' }).click();
    await expectPath(page, /^\/tables\/DHP-1$/, 'the new table');
    await expectText(page.locator('h1'), 'Table DHP-1', 'the table page');
  });

  await step('open the table from the list', async () => {
    await page.getByRole('link', { name: '← Tables' }).click();
    await expectPath(page, /^\/tables$/, 'back to the tables');
    const row = page.locator('#tables tbody tr').filter({ hasText: 'DHP-1' });
    await expectText(row.locator('td').nth(1), 'lucky-chances', 'DHP-1 profile in the list');
    await expectText(row.locator('td').nth(2), '7', 'DHP-1 seats in the list');
    await row.getByRole('link', { name: 'DHP-1' }).click();
    await expectPath(page, /^\/tables\/DHP-1$/, 'the table page');
  });

  await step('start a new hand', async () => {
    await page.getByRole('button', { name: 'Start a new hand' }).click();
    await expectPath(page, /^\/hands\/[^/]+$/, 'the new hand');
    handPath = new URL(page.url()).pathname;
    await atStep(page, '1. Who banks?');
  });

  await step('PD: seat 1, Dana, bank 200, banks two hands', async () => {
    const form = page.locator('#pd-form');
    await form.getByLabel('PD seat').fill('1');
    await form.getByLabel('PD player').fill('Dana');
    // Exact: the option's labels ("Bank two hands", …) contain "Bank" too.
    await form.getByLabel('Bank', { exact: true }).fill('200');
    await form.getByLabel('Bank two hands').check();
    await form.getByRole('button', { name: 'Set the PD' }).click();
    await atStep(page, '2. Wagers');
    await expectText(page.locator('#pd'), 'PD: seat 1, Dana, bank 200.00', 'the PD line');
    await expectText(page.locator('#pd-option'), 'Option: banks two hands.', 'the PD option line');
  });

  const wagers = [
    ['4', 'Ann', '60'],
    ['5', 'Bo', '60'],
    ['6', 'Cy', '100'],
    ['7', 'Di', '40'],
  ];
  await step('wagers: seat 4 Ann 60, 5 Bo 60, 6 Cy 100, 7 Di 40', async () => {
    for (const [i, [seat, bettor, amount]] of wagers.entries()) {
      const form = page.locator('#wager-form');
      await form.getByLabel(/^Seat/).fill(seat);
      await form.getByLabel('Bettor').fill(bettor);
      await form.getByLabel('Amount').fill(amount);
      await form.getByRole('button', { name: 'Add wager' }).click();
      // The page has come back with the new wager in the list.
      const rows = page.locator('#wagers tbody tr');
      await expectText(rows.nth(i).locator('td').nth(1), bettor, `wager ${i + 1} in the list`);
    }
    const rows = await page.locator('#wagers tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent.trim())),
    );
    const expected = wagers.map(([s, b, a]) => [s, b, `${a}.00`]);
    if (JSON.stringify(rows) !== JSON.stringify(expected)) {
      throw new Mismatch(`the wagers list: expected ${JSON.stringify(expected)}, found ${JSON.stringify(rows)}`);
    }
  });

  await step('the dice beside the wagers; dice 1, 1, 2: ACTION seat 4', async () => {
    const form = page.locator('#dice-form');
    for (const [n, v] of [[1, '1'], [2, '1'], [3, '2']]) {
      await form.locator(`#die-${n}`).getByLabel(v, { exact: true }).click();
    }
    await expectText(form.locator('#dice-preview'), '1 + 1 + 2 = 4: the ACTION seat is seat 4.', 'the preview');
    await form.getByRole('button', { name: 'Set the ACTION seat' }).click();
    await atStep(page, '4. Hands');
    const action = page.locator('svg.table-drawing #svg-action');
    await action.waitFor({ state: 'visible' });
    await expectText(action.locator('text'), 'ACTION', 'the ACTION button');
    // The button is drawn at seat 4 (above its circle).
    const buttonX = await action.locator('text').getAttribute('x');
    const seat4X = await page.locator('svg.table-drawing g[data-seat="4"] circle').getAttribute('cx');
    if (buttonX !== seat4X) {
      throw new Mismatch(`the ACTION button is drawn at x=${buttonX}, seat 4 is at x=${seat4X}`);
    }
  });

  await step('results: seat 4 PD, 5 player, 6 PD, 7 player', async () => {
    const form = page.locator('#results-form');
    for (const [seat, who] of [['4', 'PD'], ['5', 'Player'], ['6', 'PD'], ['7', 'Player']]) {
      await form.getByRole('group', { name: `Seat ${seat}` }).getByLabel(who, { exact: true }).check();
    }
    await form.getByRole('button', { name: 'Record the results' }).click();
    await atStep(page, '5. Settlement');
    await expectText(page.locator('#svg-in-action'), 'In action: 200.00', 'the bank in action before settling');
  });

  await step('settlement: the money first; confirm the first step (in action 140.00), then all', async () => {
    const steps = page.locator('#walk li');
    const count = await steps.count();
    if (count !== 4) throw new Mismatch(`the walkthrough: expected 4 steps, found ${count}`);
    // Each step opens with the chips to move, before the result.
    const moves = await page.locator('#walk li .moves').evaluateAll((ps) => ps.map((p) => p.innerText.replace(/\s+/g, ' ').trim()));
    const expected = [
      'COLLECT 60.00 from Ann (seat 4)',
      'PAY 60.00 to Bo (seat 5)',
      'COLLECT 80.00 from Cy (seat 6) RETURN 20.00 (no action)',
      'RETURN 40.00 to Di (seat 7) — no action',
    ];
    if (JSON.stringify(moves) !== JSON.stringify(expected)) {
      throw new Mismatch(`the money moves: expected ${JSON.stringify(expected)}, found ${JSON.stringify(moves)}`);
    }
    const first = await page.locator('#walk li').first().evaluate((li) => li.innerText.trim().split('\n')[0]);
    if (!first.startsWith('COLLECT 60.00')) throw new Mismatch(`the first step's first words: "${first}"`);
    await page.getByRole('button', { name: 'Collected 60.00 from Ann' }).click();
    await expectText(page.locator('#svg-in-action'), 'In action: 140.00', 'the drawing after the first step');
    await page.locator('#walk li.done').first().waitFor();
    if ((await page.locator('#walk li.done').count()) !== 1) {
      throw new Mismatch('the walkthrough: expected exactly one confirmed step');
    }
    await page.getByRole('button', { name: 'Confirm all remaining steps' }).click();
    await page.getByRole('button', { name: 'Close the hand', exact: true }).waitFor();
    const done = await page.locator('#walk li.done').count();
    if (done !== 4) throw new Mismatch(`the walkthrough: expected 4 confirmed steps, found ${done}`);
  });

  await step('close the hand; the final screen', async () => {
    await page.getByRole('button', { name: 'Close the hand', exact: true }).click();
    await expectContains(page.locator('#closed'), 'This hand is closed.', 'the closed notice');
    await expectText(page.locator('#pd-net'), '80.00', "the PD's net");
    await expectText(
      page.locator('#conservation'),
      'money in 460.00 = money out 460.00: balanced',
      'the conservation line',
    );
    const summary = await page.locator('#summary tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
    );
    const nets = Object.fromEntries(summary.map((cells) => [cells[0], cells[3]]));
    // Money as a cashier reads it: two decimals, a real minus (U+2212).
    const expected = { Ann: '\u221260.00', Bo: '60.00', Cy: '\u221280.00', Di: '0.00', 'Dana (PD)': '80.00' };
    for (const [who, net] of Object.entries(expected)) {
      if (nets[who] !== net) {
        throw new Mismatch(`the summary: ${who}'s net should be ${net}, found ${nets[who]} (rows ${JSON.stringify(summary)})`);
      }
    }
    if (summary.length !== Object.keys(expected).length) {
      throw new Mismatch(`the summary: expected ${Object.keys(expected).length} rows, found ${JSON.stringify(summary)}`);
    }
    // Its money columns line up: every amount cell and its header
    // right-aligned, tabular digits, never wrapped.
    const looks = await page.locator('#summary').evaluate((table) =>
      [...table.querySelectorAll('tr')].flatMap((tr) => [...tr.children].slice(1)).map((cell) => {
        const s = getComputedStyle(cell);
        return `${s.textAlign} ${s.fontVariantNumeric} ${s.whiteSpace}`;
      }),
    );
    const odd = looks.filter((l) => l !== 'right tabular-nums nowrap');
    if (looks.length !== 4 * 6 || odd.length) {
      throw new Mismatch(`the summary's money cells: ${looks.length} of them, not aligned: ${JSON.stringify(odd)}`);
    }
    await page.screenshot({ path: join(OUT, 'final.png'), fullPage: true });
  });

  await step('the hand record lists the events', async () => {
    await page.getByRole('link', { name: 'Full record' }).click();
    await expectPath(page, new RegExp(`^${escapeRegex(handPath)}/record$`), 'the hand record');
    await expectText(page.locator('#record-status'), 'closed', 'the record status');
    const events = await page.locator('#record tbody tr td:nth-child(4)').allTextContents();
    const seen = events.map((e) => e.trim());
    // Every step one event, in order (no collection schedule: no collection_taken).
    const expected = [
      'hand_opened',
      'pd_set',
      ...Array(4).fill('wager_placed'),
      'action_set',
      ...Array(4).fill('outcome_recorded'),
      'steps_confirmed', // the first step
      'steps_confirmed', // all the rest
      'hand_closed',
    ];
    if (JSON.stringify(seen) !== JSON.stringify(expected)) {
      throw new Mismatch(`the hand record's events: expected ${JSON.stringify(expected)}, found ${JSON.stringify(seen)}`);
    }
    // Each event first as a sentence: "HH:MM:SS who: what happened".
    const said = await page.locator('#record tbody tr td.sentence').allTextContents();
    const odd = said.map((s) => s.trim()).filter((s) => !/^\d\d:\d\d:\d\d admin: \S/.test(s));
    if (said.length !== expected.length || odd.length) {
      throw new Mismatch(`the hand record's sentences: expected "time admin: …" for each event, found ${JSON.stringify(odd)}`);
    }
  });

  console.log(`e2e: passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshot ${join(OUT, 'final.png')}`);
  await browser.close();
} catch (err) {
  const failure = join(OUT, 'failure.png');
  await page.screenshot({ path: failure, fullPage: true }).catch(() => {});
  const kind = err instanceof Mismatch ? 'mismatch' : 'error';
  console.error(`e2e: FAILED at step "${current}" (${kind}): ${err.message}`);
  if (problems.length) console.error(`  browser problems:\n  ${problems.join('\n  ')}`);
  console.error(`  page: ${page.url()}; screenshot ${failure}`);
  await browser.close().catch(() => {});
  process.exit(1);
}
