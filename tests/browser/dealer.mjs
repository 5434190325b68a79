// The dealer's hand in a real browser, after e2e.mjs on the same
// server (its table DHP-1 has one closed hand: Dana banked, Ann, Bo, Cy and
// Di bet). Four runs:
//   1. by touch at a tablet's 1024×768 (taps, the on-screen keyboard's
//      typing): the home page's Continue back to the hand in progress;
//      last hand's wagers placed again with one tap; a backline by a name
//      typed, another by a name seen at the seat, undone; the dice by their
//      keys (a wrong die fixed while the ACTION seat is previewed); what
//      the bank covers; a result by its segment, one by a tap on the
//      drawing, an empty seat's words; a step confirmed in the pinned
//      panel, the rest confirmed and the hand closed;
//   2. by keyboard alone (Tab, typing, Space, Enter) from the closed hand's
//      "Start the next hand" to the close;
//   3. without the script, a whole hand: a wager added, Back, and the same
//      wager sent again — the page must ask before recording a second one;
//      the dice by their keys; a seat with no wager tapped; each step, Close;
//   4. at a phone's 390×844, by touch: a whole next hand (a result by a
//      tap on the drawing), and the last hand's record.
// Every step of 1 and 2 is checked for horizontal overflow too.
//
// Environment: PITBOOK_URL, PITBOOK_ADMIN_PASSWORD (the admin's password
// after e2e.mjs changed it), PITBOOK_OUT_DIR.

import { join } from 'node:path';
import { failFast, launch } from './chromium.mjs';
import { expectText } from './harness.mjs';

const BASE = process.env.PITBOOK_URL;
const PASSWORD = process.env.PITBOOK_ADMIN_PASSWORD;
const OUT = process.env.PITBOOK_OUT_DIR || 'target/browser';
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE || '')) throw new Error('PITBOOK_URL must be http://127.0.0.1:PORT');

class Mismatch extends Error {}
const browser = await launch();
let page;
let current = 'start';
const problems = [];

async function session(options) {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  failFast(page);
  page.on('pageerror', (e) => problems.push(`page error at ${page.url()}: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error at ${page.url()}: ${m.text()}`));
  await page.goto(`${BASE}/login`);
  await page.locator('#username').fill('admin');
  await page.locator('#password').fill(PASSWORD);
  await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.getByRole('button', { name: 'Sign in' }).click()]);
}

async function step(name, fn) {
  current = name;
  await fn();
  await noSidewaysScroll(name);
  if (problems.length) throw new Mismatch(problems.join('\n'));
  console.log(`  ok  ${name}`);
}

async function noSidewaysScroll(where) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > inner) throw new Mismatch(`${where}: the page scrolls sideways (${scroll} px wide in ${inner})`);
}

async function heading(text) {
  await page.locator('h2#step', { hasText: text }).waitFor();
}

const wagerRows = () => page.locator('#wagers tbody tr');

/** The settlement by touch: each step's Done in the pinned panel, then
 *  Close the hand in the same place. */
async function settleByTouch() {
  await heading('5. Settlement');
  const now = page.locator('#now');
  while (await now.getByRole('button', { name: /^(Paid|Collected|Returned) / }).count()) {
    const before = await now.locator('.now-what').innerText();
    await now.getByRole('button', { name: /^(Paid|Collected|Returned) / }).tap();
    await page.waitForFunction((b) => document.querySelector('#now .now-what')?.innerText !== b, before);
  }
  await now.getByRole('button', { name: 'Close the hand', exact: true }).tap();
  await page.locator('#closed').waitFor();
}

/** Keyboard only: Tab until `selector` has the focus (at most 60 presses). */
async function tabTo(selector) {
  for (let i = 0; i < 60; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Mismatch(`Tab never reached ${selector}`);
}

try {
  console.log(`dealer: chromium ${browser.version()} against ${BASE}`);

  // 1. By touch, at a tablet's size.
  await session({ viewport: { width: 1024, height: 768 }, hasTouch: true });
  await step('touch: open the table, start a hand', async () => {
    await page.goto(`${BASE}/tables/DHP-1`);
    await page.getByRole('button', { name: 'Start a new hand' }).tap();
    await heading('1. Who banks?');
  });
  await step('touch: the PD (Dana banks 200, two hands)', async () => {
    const form = page.locator('#pd-form');
    await form.locator('#seat').fill('1');
    await form.locator('#player').fill('Dana');
    await form.locator('#bank').tap();
    await page.keyboard.type('200');
    await form.getByLabel('Bank two hands').tap();
    await form.getByRole('button', { name: 'Set the PD' }).tap();
    await heading('2. Wagers');
  });
  await step('touch: home shows the hand in progress; Continue goes back to it', async () => {
    await page.goto(`${BASE}/`);
    const row = await page.locator('#start-DHP-1').innerText();
    if (!/OPEN/i.test(row) || !row.includes('taking wagers')) throw new Mismatch(`the home row: ${row}`);
    await page.locator('#continue-DHP-1').tap();
    await heading('2. Wagers');
  });
  await step("touch: last hand's four wagers placed again with one tap", async () => {
    await page.locator('#again-all').tap();
    await wagerRows().nth(3).waitFor();
    const n = await wagerRows().count();
    if (n !== 4) throw new Mismatch(`expected the 4 wagers again, found ${n}`);
  });
  await step('touch: a backline by a tap on seat 5, the name typed, 10 on the keypad', async () => {
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 5"]').tap();
    const form = page.locator('#wager-form');
    // Shown in place: the sheet of seat 5 (no page load).
    await expectText(form.locator('#bettors-seen legend'), 'Seen at seat 5, then this table', "seat 5's sheet");
    if ((await form.locator('#seat').inputValue()) !== '5') throw new Mismatch('the tapped seat is not the wager\'s');
    // The name is the only typing; the amount is tapped on the keypad,
    // which keeps the on-screen keyboard away.
    await form.locator('#bettor').fill('Eve');
    const pad = form.getByRole('group', { name: 'Keypad' });
    if ((await form.locator('#amount').getAttribute('inputmode')) !== 'none') throw new Mismatch('the amount still calls the keyboard');
    for (const k of ['1', '0']) await pad.getByRole('button', { name: k, exact: true }).tap();
    if ((await form.locator('#amount').inputValue()) !== '10') throw new Mismatch('the keypad did not type 10');
    await form.locator('#backline').tap();
    await page.screenshot({ path: join(OUT, 'dealer-keypad.png') });
    await form.getByRole('button', { name: 'Add wager' }).tap();
    await wagerRows().nth(4).waitFor();
  });
  await step("touch: Ann's backline on seat 6 by her name seen at the table, then undone by one tap", async () => {
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 6"]').tap();
    const form = page.locator('#wager-form');
    const seen = form.locator('#bettors-seen');
    await expectText(seen.locator('legend'), 'Seen at seat 6, then this table', "the seat's sheet");
    await seen.getByLabel('Ann', { exact: true }).tap();
    await form.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: '5 in one tap', exact: true }).tap();
    await form.locator('#backline').tap();
    await form.getByRole('button', { name: 'Add wager' }).tap();
    await wagerRows().nth(5).waitFor();
    if (!(await wagerRows().nth(5).innerText()).includes('Ann')) throw new Mismatch('the seen name was not the bettor');
    const undo = page.locator('#undo');
    await expectText(undo, 'Undo the last wager: seat 6, Ann 5.00', 'the undo names the last wager');
    await undo.tap();
    await expectText(undo, 'Undo the last wager: seat 5, Eve 10.00', 'the wager before is the last again');
    if ((await wagerRows().count()) !== 5) throw new Mismatch('the undo did not remove the wager');
  });
  await step('touch: the dice by their keys; a wrong die fixed before it is recorded', async () => {
    const form = page.locator('#dice-form');
    const die = (n, v) => form.locator(`#die-${n}`).getByLabel(v, { exact: true });
    const preview = form.locator('#dice-preview');
    const version = await form.locator('input[name="version"]').inputValue();
    await die(1, '1').tap();
    await die(2, '1').tap();
    await expectText(preview, 'One die to tap.', 'the preview after two dice');
    await die(3, '3').tap();
    await expectText(preview, '1 + 1 + 3 = 5: the ACTION seat is seat 5.', 'the preview');
    await page.locator('.table-drawing .seat.previewed[data-seat="5"]').waitFor();
    // The third die was 2: tapped again, the seat follows; nothing recorded.
    await die(3, '2').tap();
    await expectText(preview, '1 + 1 + 2 = 4: the ACTION seat is seat 4.', 'the preview, fixed');
    await page.locator('.table-drawing .seat.previewed[data-seat="4"]').waitFor();
    if ((await page.locator('.table-drawing .seat.previewed').count()) !== 1) throw new Mismatch('more than one seat lit');
    if ((await form.locator('input[name="version"]').inputValue()) !== version) throw new Mismatch('a tap recorded something');
    await page.screenshot({ path: join(OUT, 'dealer-dice-preview.png') });
    await form.getByRole('button', { name: 'Set the ACTION seat' }).tap();
    await heading('4. Hands');
  });
  await step('touch: after the dice, what the bank covers in ACTION order', async () => {
    const covers = page.locator('#covers li');
    if ((await covers.count()) !== 5) throw new Mismatch(`${await covers.count()} wagers in the cover list`);
    await expectText(covers.first(), 'seat 4 Ann 60.00: covered', 'the first wager in ACTION order');
  });
  await step('touch: a winner by its segment, another by a tap on the drawing; a seat with no wager says why', async () => {
    const form = page.locator('#results-form');
    const version = await form.locator('input[name="version"]').inputValue();
    await form.locator('#seat-5').getByLabel('Player', { exact: true }).tap();
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 7"]').tap();
    await expectText(page.locator('#seat-said'), 'Seat 7: Player', 'the tap says what it chose');
    if (!(await form.locator('#seat-7 input[value="player"]').isChecked())) throw new Mismatch('the tap did not choose Player');
    await page.locator('.table-drawing .seat.r-player[data-seat="7"]').waitFor();
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 2"]').tap();
    await expectText(page.locator('#seat-said'), 'Seat 2 has no wager: nothing to decide there.', 'an empty seat');
    if ((await form.locator('input[name="version"]').inputValue()) !== version) throw new Mismatch('a tap recorded something');
    await page.screenshot({ path: join(OUT, 'dealer-results.png') });
    await form.getByRole('button', { name: 'All the rest: PD wins' }).tap();
    // Seats 4 and 6 were left: the settlement needs every result, so
    // reaching it means the rest took theirs (the HTTP test reads them).
    await heading('5. Settlement');
  });
  await step('touch: one step confirmed in the pinned panel, its chip off the felt; the rest and the close at once', async () => {
    const now = page.locator('#now');
    // Pinned to the bottom of the screen with the list scrolled to its top.
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = await now.boundingBox();
    const height = page.viewportSize().height;
    if (Math.abs(box.y + box.height - height) > 2) throw new Mismatch(`the panel spans ${box.y}..${box.y + box.height} of ${height}`);
    await expectText(now.locator('.now-what'), 'Step 1 of 5 · seat 4, Ann', 'the step to do now');
    await page.screenshot({ path: join(OUT, 'dealer-settle-now.png') });
    const chips = page.locator('svg.table-drawing .chip');
    if ((await chips.count()) !== 4) throw new Mismatch(`${await chips.count()} chips on the felt before the first step`);
    // The button says what the dealer did: the step's money move.
    await now.getByRole('button', { name: /^(Paid|Collected|Returned) / }).tap();
    await page.locator('#walk li.done').first().waitFor();
    await expectText(now.locator('.now-what'), 'Step 2 of 5 · seat 5, Bo', 'the next step, in the same place');
    if ((await chips.count()) !== 3) throw new Mismatch(`${await chips.count()} chips on the felt after the first step`);
    await page.getByRole('button', { name: 'Confirm all and close the hand' }).tap();
    await page.locator('#closed').waitFor();
    await page.screenshot({ path: join(OUT, 'dealer-touch.png'), fullPage: true });
  });

  // 2. By keyboard alone, from the closed hand.
  await step('keyboard: the closed hand starts the next (focus is on it)', async () => {
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    if (!/Start the next hand/.test(focused)) throw new Mismatch(`the focus is on "${focused.trim()}"`);
    await page.keyboard.press('Enter');
    await heading('1. Who banks?');
  });
  await step('keyboard: the PD', async () => {
    await tabTo('#pd-form #seat');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1');
    await tabTo('#pd-form #player');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Dana');
    await tabTo('#pd-form #bank');
    await page.keyboard.type('150');
    // Dana banked two hands already: the option is asked again. Tab lands
    // on the group's first choice, Space takes it.
    await tabTo('#pd-form input[name="option"]');
    await page.keyboard.press('Space');
    if (!(await page.locator('#pd-form input[value="bank_two"]').isChecked())) {
      throw new Mismatch('Space did not choose "bank two hands"');
    }
    await page.keyboard.press('Enter');
    await heading('2. Wagers');
  });
  await step('keyboard: a wager typed (the seat has the focus), Enter to add', async () => {
    await page.keyboard.type('5');
    await tabTo('#bettor');
    await page.keyboard.type('Bo');
    await tabTo('#amount');
    await page.keyboard.type('60');
    await page.keyboard.press('Enter');
    await wagerRows().first().waitFor();
  });
  await step('keyboard: Tab to the dice beside the wagers, three keys, Enter', async () => {
    await tabTo('#dice-form input[name="d1"]');
    // A digit picks the die and moves on; after the third, the button.
    await page.keyboard.type('123');
    await expectText(page.locator('#dice-preview'), '1 + 2 + 3 = 6: the ACTION seat is seat 6.', 'the preview');
    await page.keyboard.press('Enter');
    await heading('4. Hands');
  });
  await step('keyboard: the result by Space, Enter to record', async () => {
    await tabTo('#seat-5 input[value="player"]');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await heading('5. Settlement');
  });
  await step('keyboard: confirm and close', async () => {
    await tabTo('#confirm-close button');
    await page.keyboard.press('Enter');
    await page.locator('#closed').waitFor();
  });

  // 3. Without the script (every form a page load, as on a browser with
  // scripts off): a wager, the browser's Back, the same wager sent again.
  await session({ viewport: { width: 1024, height: 768 }, hasTouch: true, javaScriptEnabled: false });
  await step('no script: a new hand, seat 1 tapped on the drawing, Dana banks 100', async () => {
    await page.goto(`${BASE}/tables/DHP-1`);
    await page.getByRole('button', { name: 'Start a new hand' }).tap();
    await heading('1. Who banks?');
    // Seat 1 tapped on the drawing: one page load, the form's seat is 1.
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 1"]').tap();
    const form = page.locator('#pd-form');
    if ((await form.locator('#seat').inputValue()) !== '1') throw new Mismatch('the tapped seat is not the PD seat');
    await form.locator('#player').fill('Dana');
    await form.locator('#bank').fill('100');
    await form.getByLabel('Bank two hands').tap();
    await form.getByRole('button', { name: 'Set the PD' }).tap();
    await heading('2. Wagers');
  });
  await step('no script: a wager, Back, the same wager again asks first', async () => {
    const add = async () => {
      const form = page.locator('#wager-form');
      await form.locator('#seat').fill('4');
      await form.locator('#bettor').fill('Gus');
      await form.locator('#amount').fill('10');
      await form.locator('#backline').check();
      await form.getByRole('button', { name: 'Add wager' }).tap();
    };
    const own = page.locator('#wager-form');
    await own.locator('#seat').fill('4');
    await own.locator('#bettor').fill('Ann');
    await own.locator('#amount').fill('60');
    await own.getByRole('button', { name: 'Add wager' }).tap();
    await wagerRows().first().waitFor();
    await add();
    await wagerRows().nth(1).waitFor();
    await page.goBack();
    await page.locator('#wager-form').waitFor();
    await add();
    await page.locator('#duplicate-question').waitFor();
    const question = await page.locator('#duplicate-question').innerText();
    if (!/Gus/.test(question) || !/second/.test(question)) throw new Mismatch(`the question: ${question}`);
    if ((await wagerRows().count()) !== 2) throw new Mismatch('a second wager was recorded before the answer');
    await page.locator('#keep-one').tap();
    await page.locator('#wager-form').waitFor();
    if ((await wagerRows().count()) !== 2) throw new Mismatch('keeping one recorded a second');
  });
  await step('no script: the dice by their keys, a wrong one fixed, then recorded', async () => {
    const form = page.locator('#dice-form');
    for (const [n, v] of [[1, '6'], [2, '6'], [3, '5'], [1, '5']]) {
      await form.locator(`#die-${n}`).getByLabel(v, { exact: true }).tap();
    }
    await form.getByRole('button', { name: 'Set the ACTION seat' }).tap();
    await heading('4. Hands');
    // 5 + 6 + 5 = 16 from the PD on seat 1: position 2, seat 2 (the
    // drawing says so in words too).
    const words = await page.locator('#drawing').textContent();
    if (!words.includes('ACTION: seat 2.')) throw new Mismatch(`the drawing in words: ${words}`);
  });
  await step('no script: a seat with no wager tapped on the results step says why', async () => {
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 3"]').tap();
    await expectText(page.locator('#seat-said'), 'Seat 3 has no wager: nothing to decide there.', 'the page after the tap');
  });
  await step('no script: the result, each step confirmed, the hand closed', async () => {
    await page.locator('#results-form #seat-4').getByLabel('Player', { exact: true }).tap();
    await page.getByRole('button', { name: 'Record the results' }).tap();
    await settleByTouch();
  });

  // 4. At a phone's width.
  await session({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await step('phone: the next hand by touch alone: the PD, last hand\'s wagers, the dice, a result on the drawing, each step', async () => {
    await page.goto(`${BASE}/tables/DHP-1`);
    await page.locator('#hands tbody tr').first().locator('a').first().tap();
    await page.getByRole('button', { name: /Start the next hand/ }).tap();
    await heading('1. Who banks?');
    const pd = page.locator('#pd-form');
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 1"]').tap();
    if ((await pd.locator('#player').inputValue()) !== 'Dana') {
      await pd.locator('#player').tap();
      await pd.locator('#player').fill('Dana');
    }
    await pd.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: '100 in one tap', exact: true }).tap();
    if (!(await pd.getByLabel('Bank two hands').isChecked())) await pd.getByLabel('Bank two hands').tap();
    await pd.getByRole('button', { name: 'Set the PD' }).tap();
    await heading('2. Wagers');
    await page.locator('#again-all').tap();
    await wagerRows().nth(1).waitFor();
    const dice = page.locator('#dice-form');
    for (const [n, v] of [[1, '1'], [2, '1'], [3, '2']]) await dice.locator(`#die-${n}`).getByLabel(v, { exact: true }).tap();
    await dice.getByRole('button', { name: 'Set the ACTION seat' }).tap();
    await heading('4. Hands');
    await page.locator('svg.table-drawing a.seat-link[aria-label="Seat 4"]').tap();
    await expectText(page.locator('#seat-said'), 'Seat 4: Player', 'the tap on a phone');
    await page.screenshot({ path: join(OUT, 'dealer-phone-results.png') });
    await page.getByRole('button', { name: 'All the rest: push' }).tap();
    await settleByTouch();
    await page.screenshot({ path: join(OUT, 'dealer-phone-closed.png') });
  });
  await step('phone: the last hand and its record', async () => {
    await page.goto(`${BASE}/tables/DHP-1`);
    const href = await page.locator('#hands tbody tr').nth(1).locator('a').first().getAttribute('href');
    await page.goto(`${BASE}${href}`);
    await page.locator('#closed').waitFor();
    await page.goto(`${BASE}${href}/record`);
    await page.screenshot({ path: join(OUT, 'dealer-phone-record.png'), fullPage: true });
  });
  console.log('dealer: passed');
  await browser.close();
} catch (err) {
  const failure = join(OUT, 'dealer-failure.png');
  await page?.screenshot({ path: failure, fullPage: true }).catch(() => {});
  console.error(`dealer: FAILED at "${current}": ${err.message}\n  page: ${page?.url()}; screenshot ${failure}`);
  await browser.close().catch(() => {});
  process.exit(1);
}
