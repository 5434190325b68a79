// Reviewing a hand history in a real browser, after e2e.mjs and
// dealer.mjs on the same server (table DHP-1: the seed's hand, #1, where
// Dana banked and Ann, Bo, Cy and Di bet, then the dealer test's hands).
// Signed in as the admin (a reviewer), at a tablet's 1024×768:
//   1. /history: search for a player by part of a name ("an": Dana, Ann),
//      the totals and the hands listed, hand #1's money in numeric cells;
//   2. open hand #1 by its number (/tables/DHP-1/hands/1 → the hand);
//   3. replay it: Next to the end by click, back to the start with Home,
//      then to the end again with → alone (the arrow keys' script);
//   4. a note on the hand, then found by the note search;
//   5. export: the search page's CSV and JSON-lines downloads, their
//      contents checked (a row per wager of the hand, a line per hand).
// Every page is checked for sideways scrolling; a page or console error
// fails the run.
//
// Environment: PITBOOK_URL, PITBOOK_ADMIN_PASSWORD (the admin's password
// after e2e.mjs changed it), PITBOOK_OUT_DIR.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failFast, launch } from './chromium.mjs';

const BASE = process.env.PITBOOK_URL;
const PASSWORD = process.env.PITBOOK_ADMIN_PASSWORD;
const OUT = process.env.PITBOOK_OUT_DIR || 'target/browser';
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE || '')) throw new Error('PITBOOK_URL must be http://127.0.0.1:PORT');

class Mismatch extends Error {}
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, acceptDownloads: true });
context.setDefaultTimeout(15_000);
const page = await context.newPage();
failFast(page);
const problems = [];
page.on('pageerror', (e) => problems.push(`page error at ${page.url()}: ${e.message}`));
page.on('console', (m) => m.type() === 'error' && problems.push(`console error at ${page.url()}: ${m.text()}`));
let current = 'start';

async function step(name, fn) {
  current = name;
  await fn();
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > inner) throw new Mismatch(`${name}: the page scrolls sideways (${scroll} px wide in ${inner})`);
  if (problems.length) throw new Mismatch(problems.join('\n'));
  console.log(`  ok  ${name}`);
}

function expect(ok, what) {
  if (!ok) throw new Mismatch(what);
}

async function text(selector) {
  return (await page.locator(selector).first().innerText()).trim();
}

/** The replay's position: [step, total] from "Step N of M". */
async function position() {
  const m = /Step (\d+) of (\d+)/.exec(await text('#replay-position'));
  expect(m, `no "Step N of M" on ${page.url()}`);
  return [Number(m[1]), Number(m[2])];
}

async function download(linkId) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#${linkId}`).click()]);
  const failure = await file.failure();
  expect(!failure, `${linkId}: the download failed (${failure})`);
  return readFileSync(await file.path(), 'utf8');
}

let handPath;
try {
  await page.goto(`${BASE}/login`);
  await page.locator('#username').fill('admin');
  await page.locator('#password').fill(PASSWORD);
  await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.getByRole('button', { name: 'Sign in' }).click()]);

  await step('search the history for a player by part of her name', async () => {
    await page.goto(`${BASE}/history`);
    await page.locator('#player').fill('an');
    await page.locator('#table').fill('DHP-1');
    await Promise.all([page.waitForURL(/player=an/), page.locator('#player').press('Enter')]);
    const hands = Number(await text('#total-hands'));
    expect(hands >= 1, `the search for "an" found ${hands} hands`);
    // "an" is in Dana, the PD of every hand here, and in Ann, a bettor.
    const rows = await page.locator('#hands tbody tr').allInnerTexts();
    expect(rows.length === hands && rows.every((r) => /Dana|Ann/.test(r)), `the hands listed: ${JSON.stringify(rows)}`);
    expect((await page.locator('#hands a', { hasText: 'DHP-1 #1' }).count()) === 1, 'hand DHP-1 #1 is not among the hands found');
    // Hand #1's money as a cashier reads it (bank 200, wagered 60 + 60 +
    // 100 + 40, no collection, the PD up 80), each amount in a numeric
    // cell: right-aligned, tabular digits, never wrapped.
    const money = await page.locator('#hands tbody tr', { has: page.locator('a', { hasText: 'DHP-1 #1' }) }).evaluate((tr) =>
      [...tr.querySelectorAll('td.num')].map((td) => {
        const s = getComputedStyle(td);
        return `${td.textContent.trim()} ${s.textAlign} ${s.fontVariantNumeric} ${s.whiteSpace}`;
      }),
    );
    const aligned = (amount) => `${amount} right tabular-nums nowrap`;
    const want = ['200.00', '260.00', '0.00', '80.00'].map(aligned);
    expect(JSON.stringify(money) === JSON.stringify(want), `hand #1's money: ${JSON.stringify(money)}, not ${JSON.stringify(want)}`);
  });

  await step('open hand #1 by its number', async () => {
    await page.goto(`${BASE}/tables/DHP-1/hands/1`);
    await page.waitForURL(/\/hands\/[0-9a-f-]+$/);
    handPath = new URL(page.url()).pathname;
    expect((await text('h1')).includes('#1'), `the hand's title does not say #1: ${await text('h1')}`);
  });

  await step('replay it to the end with Next', async () => {
    await page.locator('#replay-link').click();
    await page.waitForURL(/replay\?step=1$/);
    let [at, total] = await position();
    expect(at === 1 && total > 5, `the replay opens at step ${at} of ${total}`);
    const sentence = await text('#replay-sentence');
    expect(/^\d\d:\d\d:\d\d \S+: \S/.test(sentence), `the first step's sentence is not "time who: what": ${sentence}`);
    while (at < total) {
      await Promise.all([page.waitForURL(new RegExp(`step=${at + 1}$`)), page.locator('#replay-next').click()]);
      [at] = await position();
    }
    expect((await page.locator('#replay-next').count()) === 0, 'Next is still a link at the last step');
    expect(/closed/i.test(await text('#replay-phase')), `the last step's phase is not closed: ${await text('#replay-phase')}`);
    await page.screenshot({ path: join(OUT, 'replay-last.png'), fullPage: true });
  });

  await step('back to the start with Home, then to the end with → alone', async () => {
    const [, total] = await position();
    await Promise.all([page.waitForURL(/step=1$/), page.keyboard.press('Home')]);
    for (let n = 2; n <= total; n++) {
      await Promise.all([page.waitForURL(new RegExp(`step=${n}$`)), page.keyboard.press('ArrowRight')]);
    }
    const [at] = await position();
    expect(at === total, `→ stopped at step ${at} of ${total}`);
  });

  const note = 'Player disputed seat 4; checked against surveillance, settlement stands';
  await step('a note on the hand, found by the note search', async () => {
    await page.goto(`${BASE}${handPath}`);
    await page.locator('#note-text').fill(note);
    // enhance.js sends the form and shows the page it answers in place.
    await page.getByRole('button', { name: 'Add the note' }).click();
    await page.locator('#notes', { hasText: 'surveillance' }).waitFor();
    await page.goto(`${BASE}/history`);
    await page.locator('#note').fill('SURVEILLANCE');
    await Promise.all([page.waitForURL(/note=SURVEILLANCE/), page.locator('#note').press('Enter')]);
    expect((await text('#total-hands')) === '1', `the note search found ${await text('#total-hands')} hands, not 1`);
    expect((await page.locator('#hands a', { hasText: 'DHP-1 #1' }).count()) === 1, 'the note search did not find DHP-1 #1');
  });

  await step('export the hands found as CSV and as JSON lines', async () => {
    const csv = (await download('export-csv')).trim().split('\n');
    expect(/hand/i.test(csv[0]) && /bettor/i.test(csv[0]), `the CSV's header: ${csv[0]}`);
    const rows = csv.slice(1).filter((r) => r.includes('DHP-1'));
    expect(rows.length === 4, `the CSV has ${rows.length} rows for the hand, not its 4 wagers`);
    expect(rows.some((r) => r.includes('Ann') && r.includes('60')), 'no CSV row for Ann 60');
    const lines = (await download('export-jsonl')).trim().split('\n');
    expect(lines.length === 1, `the JSON lines export holds ${lines.length} hands, not 1`);
    const hand = JSON.parse(lines[0]);
    expect(JSON.stringify(hand).includes('surveillance'), 'the exported hand does not carry its note');
  });
  console.log('history: passed');
} catch (e) {
  await page.screenshot({ path: join(OUT, 'history-failure.png'), fullPage: true }).catch(() => {});
  console.error(`history: FAILED at "${current}" on ${page.url()}\n${e instanceof Mismatch ? e.message : e.stack}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
