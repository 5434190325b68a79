// A shift in a real browser, on the e2e server:
//   1. the admin creates table DHP-S, assigns themself to it and opens a
//      shift for it;
//   2. takes the box (a dealer change), runs a hand through the guided
//      pages, leaves the box empty (a second change), runs another;
//   3. closes the shift, which signs its report;
//   4. the report: 2 hands, the room's totals (its foot) equal to DHP-S's,
//      the PDs' and players' money, every number lined up, signed, the
//      charts drawn, both dealer changes listed; printed to PDF (and a
//      hand's record too), the totals read back from the PDF's text,
//      the anchors and the signature block at the end, no controls;
//   5. the PD rotation: a california-2026 table CA-S, a TPPP registered on
//      the Shifts page and marked at CA-S, the rotation clock on the table
//      page and on the guided hand's "who banks" step.
// A page or console error, or a page scrolling sideways, fails the run.
//
// Environment: PITBOOK_URL, PITBOOK_ADMIN_PASSWORD, PITBOOK_OUT_DIR.

import { join } from 'node:path';
import { failFast, launch } from './chromium.mjs';
import { printed as printPdf } from './harness.mjs';

const BASE = process.env.PITBOOK_URL;
const PASSWORD = process.env.PITBOOK_ADMIN_PASSWORD;
const OUT = process.env.PITBOOK_OUT_DIR || 'target/browser';
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE || '')) throw new Error('PITBOOK_URL must be http://127.0.0.1:PORT');

class Mismatch extends Error {}
const browser = await launch();
const problems = [];
let page;

async function step(name, fn) {
  await fn();
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > inner) throw new Mismatch(`${name}: the page scrolls sideways (${scroll} px wide in ${inner})`);
  if (problems.length) throw new Mismatch(problems.join('\n'));
  console.log(`  ok  ${name}`);
}

function expect(ok, what) {
  if (!ok) throw new Mismatch(what);
}

/** The page printed to PDF as `name` and its text. */
const printed = (name) => printPdf(page, join(OUT, name));

async function heading(text) {
  await page.getByRole('heading', { name: text }).first().waitFor();
}

/** One hand at DHP-S through the guided pages: Dana banks, Bo bets. */
async function playHand(bank, amount) {
  await page.goto(`${BASE}/tables/DHP-S`);
  await page.getByRole('button', { name: /Start (a new|the next) hand/ }).first().click();
  await heading('1. Who banks?');
  const pd = page.locator('#pd-form');
  await pd.locator('#seat').fill('1');
  await pd.locator('#player').fill('Dana');
  await pd.locator('#bank').fill(String(bank));
  await pd.locator('input[name="option"]').first().check();
  await pd.getByRole('button', { name: 'Set the PD' }).click();
  await heading('2. Wagers');
  await page.locator('#seat').fill('5');
  await page.locator('#bettor').fill('Bo');
  await page.locator('#amount').fill(String(amount));
  await page.locator('#amount').press('Enter');
  await page.locator('#wagers tbody tr').first().waitFor();
  for (const [n, v] of [[1, '1'], [2, '2'], [3, '3']]) {
    await page.locator(`#dice-form #die-${n}`).getByLabel(v, { exact: true }).click();
  }
  await page.getByRole('button', { name: 'Set the ACTION seat' }).click();
  await heading('4. Hands');
  await page.locator('#seat-5 input[value="player"]').check();
  await page.getByRole('button', { name: 'Record the results' }).click();
  await heading('5. Settlement');
  await page.locator('#confirm-close button').click();
  await page.locator('#closed').waitFor();
}

try {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  page = await context.newPage();
  failFast(page);
  page.on('pageerror', (e) => problems.push(`page error at ${page.url()}: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !/status of 4\d\d/.test(m.text()) && problems.push(`console error at ${page.url()}: ${m.text()}`));
  console.log(`shifts: chromium ${browser.version()} against ${BASE}`);
  await page.goto(`${BASE}/login`);
  await page.locator('#username').fill('admin');
  await page.locator('#password').fill(PASSWORD);
  await Promise.all([page.waitForURL((u) => u.pathname !== '/login'), page.getByRole('button', { name: 'Sign in' }).click()]);

  await step('a table of its own, DHP-S', async () => {
    await page.goto(`${BASE}/tables`);
    const form = page.locator('form#new-table');
    await form.getByLabel('Name').fill('DHP-S');
    await form.getByLabel('Game profile').selectOption('lucky-chances');
    await form.getByLabel('Seats').fill('7');
    await form.getByRole('button', { name: 'Create table' }).click();
    await page.waitForURL((u) => u.pathname === '/tables/DHP-S');
  });
  await step('the admin is assigned to DHP-S (the Assign button pressed, sent by the script)', async () => {
    await page.goto(`${BASE}/tables/DHP-S`);
    const dealers = (await page.locator('#dealers').innerText()).trim();
    if (!/\badmin\b/.test(dealers)) {
      await page.locator('#assign #username').fill('admin');
      await page.locator('#assign').getByRole('button', { name: 'Assign' }).click();
      await page.waitForFunction(() => /\badmin\b/.test(document.querySelector('#dealers')?.textContent || ''));
    }
  });
  let shiftUrl;
  await step('a shift opened for DHP-S', async () => {
    await page.goto(`${BASE}/shifts`);
    await page.locator('#table').selectOption('DHP-S');
    await page.getByRole('button', { name: 'Open the shift' }).click();
    await page.waitForURL((u) => /^\/shifts\/[0-9a-f-]{36}$/.test(u.pathname));
    shiftUrl = page.url();
  });
  await step('the admin takes the box', async () => {
    await page.locator('#change-dealer').fill('admin');
    await page.getByRole('button', { name: 'Record the change' }).click();
    await page.waitForFunction(() => /admin/.test(document.querySelector('#box-DHP-S')?.textContent || ''));
  });
  await step('a hand', async () => playHand(200, 60));
  await step('the box left empty: a second dealer change', async () => {
    await page.goto(shiftUrl);
    await page.locator('#change-dealer').fill('');
    await page.getByRole('button', { name: 'Record the change' }).click();
    await page.waitForFunction(() => /nobody/.test(document.querySelector('#box-DHP-S')?.textContent || ''));
    expect((await page.locator('#dealer-changes li').count()) === 2, 'two dealer changes listed');
  });
  await step('another hand', async () => playHand(300, 80));
  await step('the shift closed and its report signed', async () => {
    await page.goto(shiftUrl);
    await page.getByRole('button', { name: 'Close and sign' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/report'));
    await page.locator('#standing').waitFor();
    const standing = await page.locator('#standing').innerText();
    expect(/Signed by admin/.test(standing), `the report is signed: ${standing}`);
  });
  await step("the report's hands and drop", async () => {
    const cells = async (row) => page.locator(`#totals-${row} td`).allInnerTexts();
    const room = await cells('room');
    const table = await cells('table-DHP-S');
    // Hands, closed, voided, corrected, open; wagered, drop, drop an hour,
    // the PDs' result: Bo won both hands (60, then 80) from Dana, at a
    // table with no collection. Money as a cashier reads it, a real minus.
    const want = ['2', '2', '0', '0', '0', '140.00', '0.00', '0.00', '\u2212140.00'];
    expect(JSON.stringify(room) === JSON.stringify(want), `the room's totals: ${JSON.stringify(room)}, not ${JSON.stringify(want)}`);
    expect(JSON.stringify(table) === JSON.stringify(room), `DHP-S's totals ${JSON.stringify(table)} are the room's`);
    expect((await page.locator('#totals tfoot tr.total#totals-room').count()) === 1, "the room's totals set apart, in the table's foot");
    // Every number in the report's tables lines up: right-aligned, tabular
    // digits, never wrapped; the headers of their columns right-aligned too.
    const looks = await page.locator('main table:not(.report-chart)').evaluateAll((tables) =>
      tables.flatMap((t) => [...t.querySelectorAll('tr')].flatMap((tr) => [...tr.children]))
        .filter((cell) => /^(\u2212)?[\d,]+(\.\d\d)?$/.test(cell.textContent.trim()))
        .map((cell) => {
          const s = getComputedStyle(cell);
          return `${cell.textContent.trim()} ${s.textAlign} ${s.fontVariantNumeric} ${s.whiteSpace}`;
        }),
    );
    const odd = looks.filter((l) => !l.endsWith(' right tabular-nums nowrap'));
    expect(looks.length >= 2 * 9 + 3 + 3 && odd.length === 0, `the report's numbers (${looks.length}) not lined up: ${JSON.stringify(odd)}`);
    const rows = async (id) => page.locator(`#${id} tbody tr`).evaluateAll((trs) => trs.map((tr) => tr.innerText.split('\t').map((c) => c.trim())));
    const pds = await rows('pds');
    expect(JSON.stringify(pds) === JSON.stringify([['Dana', '2', '500.00', '\u2212140.00']]), `the PDs: ${JSON.stringify(pds)}`);
    const players = await rows('players');
    expect(JSON.stringify(players) === JSON.stringify([['Bo', '2', '140.00', '140.00']]), `the players: ${JSON.stringify(players)}`);
    expect((await page.locator('svg.report-chart').count()) === 4, 'four charts');
    expect((await page.locator('#report-DHP-S li').count()) >= 2, 'the dealer changes in the table section');
    await page.screenshot({ path: join(OUT, 'shift-report.png'), fullPage: true });
  });
  await step('the report prints as a document: totals read back from the PDF, anchors and signatures at the end', async () => {
    const text = await printed('shift-report.pdf');
    // The room's foot as printed: its name, then hands … the PDs' result.
    expect(/Room\s+2\s+2\s+0\s+0\s+0\s+140\.00\s+0\.00\s+0\.00\s+\u2212140\.00/.test(text), `the room's totals in the PDF:\n${text}`);
    const digest = (await page.locator('#digest').innerText()).trim();
    expect(text.replace(/\s+/g, '').includes(digest), "the report's digest in the PDF");
    const end = text.slice(text.lastIndexOf('The audit chain'));
    expect(/Supervisor:[\s\S]*Auditor:/.test(end), `the signature block after the anchors:\n${end}`);
    expect(!/Sign out|Download:|← The shift/.test(text), 'no navigation or controls in print');
  });
  await step("a hand's record prints as a document: its money read back from the PDF", async () => {
    await page.goto(`${BASE}/tables/DHP-S`);
    const hand = await page.locator('#hands tbody tr a[href^="/hands/"]').first().getAttribute('href');
    await page.goto(`${BASE}${hand}/record`);
    const net = (await page.locator('#pd-net').innerText()).trim();
    const text = await printed('hand-record.pdf');
    expect(/Record of hand DHP-S #\d+/.test(text), `the title in the PDF:\n${text}`);
    expect(new RegExp(`Dana \\(PD\\)[^\\n]*${net}`).test(text), `the PD's net ${net} in the PDF:\n${text}`);
    expect(/The audit chain: this hand's last record is record \d+/.test(text), 'the chain anchor');
    expect(/Supervisor:[\s\S]*Auditor:/.test(text) && !/Sign out|Replay the hand/.test(text), 'signatures, no controls');
  });
  await step('a california-2026 table, CA-S', async () => {
    await page.goto(`${BASE}/tables`);
    const form = page.locator('form#new-table');
    await form.getByLabel('Name').fill('CA-S');
    await form.getByLabel('Game profile').selectOption('california-2026');
    await form.getByLabel('Seats').fill('7');
    await form.getByRole('button', { name: 'Create table' }).click();
    await page.waitForURL((u) => u.pathname === '/tables/CA-S');
    const clock = await page.locator('#rotation-clock').innerText();
    expect(/no game running/.test(clock), `the clock waits for the first hand: ${clock}`);
  });
  await step('a TPPP registered (typed, Enter) and marked at CA-S', async () => {
    await page.goto(`${BASE}/shifts`);
    const form = page.locator('#tppp-register');
    await form.getByLabel(/^Name/).fill('Tess');
    await form.getByLabel('Company').fill('Acme Gaming');
    await form.getByLabel('Badge number').fill('TP-7');
    await form.getByLabel('Badge number').press('Enter');
    await page.locator('#tppp-list').getByText('TP-7').waitFor();
    await page.goto(`${BASE}/tables/CA-S`);
    await page.locator('#tppp-name').selectOption('Tess');
    await page.getByRole('button', { name: 'Mark at this table' }).click();
    await page.waitForFunction(() => /Tess/.test(document.querySelector('#tppps-here')?.textContent || ''));
  });
  await step("the clock on the guided hand's who-banks step", async () => {
    await page.getByRole('button', { name: /Start (a new|the next) hand/ }).first().click();
    await heading('1. Who banks?');
    const clock = await page.locator('#rotation-clock').innerText();
    expect(/Rotation clock: \d+ min left/.test(clock), `the clock runs: ${clock}`);
    expect(/2 more players who are not TPPPs/.test(clock), `who must bank: ${clock}`);
    await page.screenshot({ path: join(OUT, 'rotation-clock.png'), fullPage: true });
  });
  console.log('shifts: passed');
} catch (e) {
  if (page) await page.screenshot({ path: join(OUT, 'failure.png'), fullPage: true }).catch(() => {});
  console.error(`shifts: FAILED: ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
