// Every POST form of the app submitted by a real click, scripts on
// (enhance.js sends it with fetch and swaps <main>): each must land where
// its no-script path lands (the 303's target, or the form's own URL when
// the server answers with a page) and show what it must. Who clicks each
// form of `grep -rn 'method="post"' templates`:
//   e2e.mjs: staff/login (every script too), staff/password; tables
//     #new-table; table #open-hand; hand/pd, wagers #wager-form, dice_form,
//     results, settle #confirm-one and #confirm-all; hand #close-form.
//   dealer.mjs: hand/wagers_again #again-all-form (tapped).
//   history.mjs: hand/note_form.
//   training.mjs: staff/users #add-form; training/home #start-run, run
//     #answer-form and #next-form (tapped).
//   shifts.mjs: shifts/home open a shift; shift dealers and close;
//     hand/settle #confirm-close; table_floor #tppp-mark (Mark).
//   games.mjs: tripoley/games #new-game, steps #step-form; dice_games/*
//     (start, throw, keep, stop, stand).
//   forms.mjs: staff/users role, disable, enable, reset-password;
//     staff/user_tokens revoke; staff/signed_in logout; table #assign
//     (Assign, Remove); hand #next-hand; hand/supervisor #correct-form,
//     #void-form, #void-confirm-form; hand/wagers_again one wager;
//     hand/wagers #lines-form, #duplicate-form; hand_wagers Remove;
//     table_floor #rotation-override, #tppp-mark (Unmark);
//     house_way_chart #load-house-way; shifts/home required and the TPPP
//     register; shifts/report sign; training/pass_marks, progress
//     #practise-next and #sign-off; audit/chain #verify-form;
//     tripoley/game #round-form (check, pay out) and #final-form, steps
//     the Michigan as a result.
// States are set up through the JSON API, by clicks, and `pitbook user
// token` (only the command line issues an API token): run.sh passes
// PITBOOK_BIN, DATABASE_URL and PITBOOK_AUDIT_KEY_FILE. Runs last on the
// e2e server (its admin password); its tables, users, shifts are its own.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { launch } from './chromium.mjs';
import { Flow, Mismatch, TRIPOLEY_DEAL as DEAL, environment, expect, signedIn, text } from './harness.mjs';

const env = environment('forms');
const CLI = ['PITBOOK_BIN', 'DATABASE_URL', 'PITBOOK_AUDIT_KEY_FILE'];
if (CLI.some((name) => !process.env[name])) {
  console.error(`forms: ${CLI.join(', ')} must be set (run tests/browser/run.sh)`);
  process.exit(2);
}
const SLOW = 180_000; // loading a house way in a debug build: ~20 s

let keys = 0;
const key = () => `forms-${process.pid}-${++keys}`;

/**
 * Clicks `button`, waits for the page its form answers (a new <main>) and
 * checks the browser is where the form's no-script path lands: at `where`
 * (a path and query, or a RegExp of one). Returns the path.
 */
async function submit(page, button, where, timeout = 15_000) {
  await page.locator('main').evaluate((m) => { m.dataset.sent = 'yes'; });
  await button.click();
  await page.waitForFunction(() => document.querySelector('main') && !document.querySelector('main[data-sent]'), null, { timeout });
  const { pathname, search } = new URL(page.url());
  const landed = pathname + search;
  expect(where instanceof RegExp ? where.test(landed) : landed === where, `the form landed on ${landed}, not ${where}`);
  return pathname;
}

/** `selector`'s text contains `words`. */
async function shows(page, selector, words) {
  const said = await text(page, selector);
  expect(said.includes(words), `${selector}: expected "${words}", found "${said}"`);
}

/** Fills `form`'s controls by name: selects chosen, checkboxes ticked. */
async function fill(form, fields) {
  for (const [name, value] of Object.entries(fields)) {
    const control = form.locator(`[name="${name}"]`).first();
    const [tag, type] = await control.evaluate((e) => [e.tagName, e.type]);
    if (tag === 'SELECT') await control.selectOption(value);
    else if (type === 'checkbox') await control.setChecked(Boolean(value));
    else await control.fill(value);
  }
}

async function api(page, path, data) {
  const r = await page.request.post(`${env.base}/api/v1${path}`, { data });
  expect(r.ok(), `POST /api/v1${path}: ${r.status()} ${await r.text()}`);
  return r.json();
}

/** Sends `events` to the hand `id` through the API, at its version now. */
async function command(page, id, ...events) {
  const { version } = await (await page.request.get(`${env.base}/api/v1/hands/${id}`)).json();
  await api(page, `/hands/${id}/commands`, { idempotency_key: key(), expected_version: version, events });
}

/** A hand at `table` through the API, closed: Dana banks, Ann, Bo, Cy bet. */
async function closedHand(page, table) {
  const id = (await api(page, '/hands', { idempotency_key: key(), events: [{ type: 'hand_opened', table }] })).hand_id;
  const bets = [[4, 'Ann', '60', 'pd'], [5, 'Bo', '60', 'player'], [6, 'Cy', '100', 'pd']];
  await command(page, id, { type: 'pd_set', seat: 1, player: 'Dana', bank: '200' },
    ...bets.map(([seat, bettor, amount]) => ({ type: 'wager_placed', id: `w${seat}`, seat, bettor, amount })),
    { type: 'action_set', seat: 4 },
    ...bets.map(([seat, , , outcome]) => ({ type: 'outcome_recorded', seat, outcome })),
    { type: 'steps_confirmed', wagers: ['w4', 'w5', 'w6'] }, { type: 'hand_closed' });
  return `/hands/${id}`;
}

/** The accounts page's forms, on frm-dealer's row. */
async function users(flow) {
  const page = flow.page;
  const row = () => page.locator('#user-frm-dealer');
  await flow.step('two accounts added (set-up by the add form)', async () => {
    for (const [name, role] of [['frm-dealer', 'dealer'], ['frm-trainee', 'trainee']]) {
      await page.goto(`${env.base}/users`);
      await page.locator('#add-username').fill(name);
      await page.locator('#add-role').selectOption(role);
      await submit(page, page.getByRole('button', { name: 'Add with a one-time password' }), '/users');
      await shows(page, '#notice', `Added "${name}" (${role})`);
    }
  });
  await flow.step('role: frm-dealer made a supervisor', async () => {
    await row().locator('select[name="staff_role"]').selectOption('supervisor');
    await submit(page, row().getByRole('button', { name: 'Change role' }), '/users/frm-dealer/role');
    await shows(page, '#notice', '"frm-dealer" is now supervisor (was dealer).');
    expect((await row().locator('td').nth(1).innerText()) === 'supervisor', 'the row still shows the old role');
  });
  const toggles = [
    ['disable', 'Disable', 'Disabled "frm-dealer"', 'disabled'],
    ['enable', 'Enable', 'Enabled "frm-dealer".', 'password change due'],
  ];
  for (const [path, button, notice, state] of toggles) {
    await flow.step(`${path}: frm-dealer ${state}`, async () => {
      await submit(page, row().getByRole('button', { name: button, exact: true }), `/users/frm-dealer/${path}`);
      await shows(page, '#notice', notice);
      expect((await row().locator('td').nth(2).innerText()) === state, `the row's state is not ${state}`);
    });
  }
  await flow.step('reset-password: a new one-time password shown', async () => {
    await submit(page, row().getByRole('button', { name: 'Reset password' }), '/users/frm-dealer/reset-password');
    await shows(page, '#notice', 'New one-time password for "frm-dealer"');
    expect(/^[0-9a-f]{24}$/.test(await text(page, '#one-time-password')), 'no one-time password shown');
  });
}

/** An API token of admin's from the command line, revoked on its page. */
async function tokens(flow) {
  const me = async (token) => (await fetch(`${env.base}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).status;
  await flow.step("revoke: an API token of admin's revoked", async (page) => {
    const args = ['user', 'token', 'admin', '--label', 'forms test'];
    const token = execFileSync(process.env.PITBOOK_BIN, args, { encoding: 'utf8', stdio: 'pipe' }).trim();
    const live = await me(token);
    expect(live === 200, `the new token does not sign in: ${live}`);
    await page.goto(`${env.base}/users/admin/tokens`);
    const tokenRow = page.locator('tr', { hasText: 'forms test' });
    const id = (await tokenRow.getAttribute('id')).slice('token-'.length);
    await submit(page, tokenRow.getByRole('button', { name: 'Revoke' }), '/users/admin/tokens/revoke');
    await shows(page, '#notice', `Revoked API token ${id} (label "forms test").`);
    await shows(page, `#token-${id}`, 'revoked');
    expect((await me(token)) === 401, 'the revoked token still signs in');
  });
}

/** Pass marks, a trainee signed off, the next practice from one's progress. */
async function training(flow) {
  const page = flow.page;
  await flow.step("practise-next: a practice run of the admin's weakest kind", async () => {
    await page.goto(`${env.base}/training/progress`);
    const button = page.locator('#practise-next button');
    const [, kind, level] = /^Practise (.+) at level (\d+)/.exec(await button.innerText());
    await submit(page, button, /^\/training\/runs\/[0-9a-f-]+$/);
    await shows(page, 'h1', 'Practice: ');
    expect((await page.title()).includes(kind), `not a run of ${kind}: ${await page.title()}`);
    expect((await text(page, '#run-facts dd')) === level, `not at level ${level}`);
    await page.locator('#drill h2').waitFor();
  });
  await flow.step('pass-marks: every mark in one form, action-seat 90% of 20, every skill optional', async () => {
    await page.goto(`${env.base}/training/pass-marks`);
    const form = page.locator('#pass-marks');
    const kinds = await page.locator('tr[id^="mark-"]').evaluateAll((rows) => rows.map((r) => r.id.slice(5)));
    const fields = { 'action-seat.window': '20', 'action-seat.accuracy_pct': '90' };
    for (const kind of kinds) fields[`${kind}.required`] = false;
    await fill(form, fields);
    await submit(page, page.locator('#save-marks'), '/training/pass-marks');
    expect((await page.locator('#action-seat-window').inputValue()) === '20', 'the window saved');
    expect((await page.locator('#action-seat-accuracy_pct').inputValue()) === '90', 'the accuracy saved');
    const ticked = await page.locator('#pass-marks input[type=checkbox]:checked').count();
    expect(ticked === 0, `${ticked} skills still required`);
  });
  await flow.step('sign-off: frm-trainee signed off and promoted', async () => {
    await page.goto(`${env.base}/training/trainees/frm-trainee`);
    await page.locator('#sign-off input[name="promote"]').check();
    await submit(page, page.locator('#sign-off-button'), '/training/trainees/frm-trainee');
    await shows(page, '#signed-off', 'Signed off by admin');
    await shows(page, '#signed-off', 'promoted to dealer');
  });
}

async function chain(flow) {
  await flow.step('verify-form: the chain verified by admin', async (page) => {
    await page.goto(`${env.base}/chain`);
    await submit(page, page.getByRole('button', { name: 'Verify the chain now' }), '/chain', SLOW);
    await shows(page, '#last-verify', 'run by admin');
  });
}

/** Hands outside a shift required, then not; a TPPP registered. */
async function shifts(flow) {
  const page = flow.page;
  const box = () => page.locator('#shifts-required input[name="required"]');
  for (const required of [true, false]) {
    await flow.step(`required: an open shift ${required ? '' : 'no longer '}required`, async () => {
      await page.goto(`${env.base}/shifts`);
      await box().setChecked(required);
      await submit(page, page.locator('#shifts-required').getByRole('button', { name: 'Save' }), '/shifts');
      expect((await box().isChecked()) === required, `the box is ${required ? 'not ' : ''}ticked after saving`);
    });
  }
  await flow.step('tppps: Rita registered', async () => {
    await fill(page.locator('#tppp-register form'), { tppp: 'Rita Forms', company: 'Forms Gaming', badge: 'TP-FORMS' });
    await submit(page, page.locator('#tppp-register').getByRole('button', { name: 'Register' }), '/shifts');
    await shows(page, '#tppp-list', 'TP-FORMS');
  });
}

/** Table FRM-1, its hand A (in a shift closed since) and the next, B. */
async function hands(flow) {
  const page = flow.page;
  await api(page, '/tables', { name: 'FRM-1', profile: 'lucky-chances', seats: 7 });
  const shift = (await api(page, '/shifts', { table: 'FRM-1' })).shift.id;
  const handA = await closedHand(page, 'FRM-1');
  await api(page, `/shifts/${shift}/close`, {});
  for (const [op, words] of [['Assign', 'frm-dealer'], ['Remove', 'none assigned']]) {
    await flow.step(`assign: ${op} frm-dealer at FRM-1`, async () => {
      await page.goto(`${env.base}/tables/FRM-1`);
      await page.locator('#assign').getByLabel('User name').fill('frm-dealer');
      await submit(page, page.locator('#assign').getByRole('button', { name: op, exact: true }), '/tables/FRM-1');
      await shows(page, '#dealers', words);
    });
  }
  await correctAndSign(flow, handA, `/shifts/${shift}/report`);
  const handB = await nextHand(flow, handA);
  await wagerForms(flow, handB);
  await voidForms(flow, handB);
}

/** Hand A corrected; its shift's report, superseded, signed again. */
async function correctAndSign(flow, hand, report) {
  const page = flow.page;
  await flow.step('correct-form: seat 5 corrected to the PD', async () => {
    await page.goto(`${env.base}${hand}`);
    await page.getByText('Supervisor: void or correct this hand').click();
    await fill(page.locator('#correct-form'), { seat: '5', outcome: 'pd', reason: 'Forms test: seat 5 misread' });
    await submit(page, page.getByRole('button', { name: 'Correct the result' }), hand);
    await shows(page, '#changes', 'Forms test: seat 5 misread');
    await shows(page, '#hand-status', 'Corrected');
  });
  await flow.step("sign: the shift's superseded report signed again", async () => {
    await page.goto(`${env.base}${report}`);
    await shows(page, '#standing', 'Superseded');
    await submit(page, page.getByRole('button', { name: 'Sign the report as it stands now' }), report);
    await shows(page, '#standing', 'Signed by admin');
  });
}

/** The next hand started from the closed hand `hand`'s page; its path. */
async function nextHand(flow, hand) {
  let next = '';
  await flow.step('next-hand: the next hand at FRM-1 from the closed one', async (page) => {
    await page.goto(`${env.base}${hand}`);
    next = await submit(page, page.getByRole('button', { name: 'Start the next hand at FRM-1' }), /^\/hands\/[0-9a-f-]+$/);
    expect(next !== hand, 'the closed hand again, not a new one');
    await shows(page, 'h2#step', '1. Who banks?');
  });
  return next;
}

/** Hand B's wagers: one of last hand's again, lines, a second backline, one removed. */
async function wagerForms(flow, hand) {
  const page = flow.page;
  await command(page, hand.split('/').pop(), { type: 'pd_set', seat: 1, player: 'Dana', bank: '500' });
  const bettors = async () => (await page.locator('#wagers tbody tr td:nth-child(2)').allInnerTexts()).sort().join(',');
  const wagers = async (expected) => expect((await bettors()) === expected, `the wagers: ${await bettors()}, not ${expected}`);
  await flow.step("again: Ann's wager of last hand placed again", async () => {
    await page.goto(`${env.base}${hand}`);
    await submit(page, page.locator('#again').getByRole('button', { name: 'Seat 4: Ann, 60.00' }), hand);
    await wagers('Ann');
  });
  await flow.step('lines-form: Bo, and Gus on the backline', async () => {
    await page.locator('#wager_lines').fill('5 Bo 60\n4 Gus 10 b');
    await submit(page, page.getByRole('button', { name: 'Add these wagers' }), `${hand}?focus=dice`);
    await wagers('Ann,Bo,Gus');
    await shows(page, '#wagers tbody tr:has-text("Gus")', 'backline');
  });
  await flow.step('duplicate-form: asked, a second backline wager for Gus', async () => {
    await fill(page.locator('#wager-form'), { seat: '4', bettor: 'Gus', amount: '10', backline: true });
    await submit(page, page.locator('#wager-form').getByRole('button', { name: 'Add wager' }), hand);
    await shows(page, '#duplicate-question', 'Seat 4, Gus already has a 10.00 backline wager');
    await submit(page, page.locator('#add-second'), hand);
    await wagers('Ann,Bo,Gus,Gus');
  });
  await flow.step("remove: Bo's wager removed", async () => {
    await submit(page, page.getByRole('button', { name: "Remove seat 5, Bo's 60.00 wager" }), hand);
    await wagers('Ann,Gus,Gus');
  });
}

/** Hand B voided: asked first, then confirmed. */
async function voidForms(flow, hand) {
  const page = flow.page;
  await flow.step('void-form: asked to confirm', async () => {
    await page.getByText('Supervisor: void this hand').click();
    await page.locator('#v-reason').fill('Forms test: dealt without a shuffle');
    await submit(page, page.getByRole('button', { name: 'Void the hand' }), hand);
    await shows(page, '#void-question', 'Void this hand?');
    await shows(page, '#void-reason', 'dealt without a shuffle');
  });
  await flow.step('void-confirm-form: the hand voided', async () => {
    await submit(page, page.locator('#void-confirmed'), hand);
    await shows(page, '#voided', 'This hand was voided');
    await shows(page, '#hand-status', 'Voided');
  });
}

/** California table FRM-CA: the clock overridden, Rita unmarked. */
async function floor(flow) {
  const page = flow.page;
  await api(page, '/tables', { name: 'FRM-CA', profile: 'california-2026', seats: 7 });
  await api(page, '/tables/FRM-CA/tppps', { name: 'Rita Forms', marked: true });
  const reason = 'Forms test: nobody else will bank';
  await flow.step('rotation-override: the clock overridden with a reason', async () => {
    await page.goto(`${env.base}/tables/FRM-CA`);
    await page.locator('#rotation-override input[name="reason"]').fill(reason);
    await submit(page, page.getByRole('button', { name: 'Override and let the game go on' }), '/tables/FRM-CA');
    expect(!(await page.locator('#rotation-override .error').count()), 'the override was refused');
    expect((await page.locator('#rotation-override input[name="reason"]').inputValue()) === '', 'the reason is still typed');
    const report = await page.request.get(`${env.base}/api/v1/reports/shift?table=FRM-CA&from=2020-01-01&to=2099-12-31`);
    expect(JSON.stringify(await report.json()).includes(reason), "the override is not in FRM-CA's report");
  });
  await flow.step('tppp-mark (Unmark): Rita unmarked at FRM-CA', async () => {
    await shows(page, '#tppps-here', 'Rita Forms');
    await page.locator('#tppp-name').selectOption('Rita Forms');
    await submit(page, page.getByRole('button', { name: 'Unmark' }), '/tables/FRM-CA');
    await shows(page, '#tppps-here', 'None marked');
  });
}

async function houseWay(flow) {
  await flow.step('load-house-way: a room way loaded, its chart shown', async (page) => {
    const foxwoods = readFileSync('src/domain/double_hand_poker/house_way/ways/foxwoods.txt', 'utf8');
    const file = foxwoods.replace('name foxwoods', 'name forms-way').replace(/^title .*$/m, 'title The forms test way');
    await page.goto(`${env.base}/tools/house-ways`);
    await page.locator('#load-house-way textarea').fill(file);
    await submit(page, page.getByRole('button', { name: 'Load house way' }), /^\/tools\/house-ways\/forms-way/, SLOW);
    await shows(page, 'h1', 'The forms test way');
    await shows(page, 'main', 'loaded by admin');
  });
}

/** The deal's fields: seats 0–3 (Dee, Ann, Bo, Cy) and the spare given the cards of `from`'s. */
const dealt = (from) => Object.fromEntries(['hand_0', 'hand_1', 'hand_2', 'hand_3', 'hand_spare'].map((f, i) => [f, DEAL[from[i]]]));
// Round 1 (tests/tripoley/http_tripoley_games.rs): Cy buys the spare for 2,
// Dee folds after 2, the others put in 10; Ann out, Bo 3, Cy 6, Dee 2 left.
const ROUND_ONE = {
  ...dealt(['Dee', 'Ann', 'Bo', 'Cy', 'spare']), buyer: 'Cy', price: '2',
  contrib_0: '2', contrib_1: '10', contrib_2: '10', contrib_3: '10', fold_0: true,
  shown_1: 'As Ad 8s 8c Ts', shown_2: '6h 7c 8d 9d Td', shown_3: 'Kh Kd 4c 5d 2s',
  out: 'Ann', left_0: '2', left_2: '3', left_3: '6',
};

/** Tripoley's whole-round form on a new game: checked, then paid out; the game's path. */
async function tripoleyRound(flow) {
  const page = flow.page;
  let game = '';
  await flow.step('a Tripoley game started (set-up by its start form)', async () => {
    await page.goto(`${env.base}/tripoley`);
    await fill(page.locator('#new-game'), { players: 'Dee, Ann, Bo, Cy', chips: '40', chip_value: '0.25', bet_limit: '10' });
    game = await submit(page, page.getByRole('button', { name: 'Start the game' }), /^\/tripoley\/[^/]+$/);
    await shows(page, '#round-entry', 'Round 1: Dee deals');
  });
  const round = page.locator('#round-form');
  await flow.step('round-form: the deal and the payouts checked, nothing recorded', async () => {
    await page.getByText('Or enter the whole round as its results').click();
    await fill(round, ROUND_ONE);
    await submit(page, round.getByRole('button', { name: 'Check the deal and the payouts' }), game);
    await shows(page, '#preview', 'Cy buys');
    await shows(page, '#readings', 'Four of a kind');
    await shows(page, '#round-entry', 'Round 1: Dee deals');
  });
  await flow.step('round-form: the round paid out and recorded', async () => {
    await submit(page, round.getByRole('button', { name: 'Pay out and record the round' }), game);
    await shows(page, '#round-entry', 'Round 2: Ann deals');
    await shows(page, '#history tbody tr:nth-child(1)', 'Dee');
  });
  return game;
}

/** Round 2 of `game` to the Michigan, entered as its result; the game's end. */
async function tripoleyEnd(flow, game) {
  const page = flow.page;
  await flow.step('round 2 step by step to the Michigan (set-up by the step form)', async () => {
    const step = (name) => submit(page, page.locator('#step-form').getByRole('button', { name, exact: true }), game);
    await step('Collect the antes');
    await fill(page.locator('#step-form'), dealt(['spare', 'Bo', 'Cy', 'Dee', 'Ann']));
    for (const name of ['Record the deal', 'Record the spare hand', 'Pay the money cards']) await step(name);
    while (await page.locator('#to-act').count()) await step('Check');
    await step('Record the showdown');
    await page.locator('#michigan-result').waitFor();
  });
  await flow.step('the Michigan entered as its result: round 2 paid out', async () => {
    await page.getByText('Or enter the Michigan as its result').click();
    const form = page.locator('#michigan-result form');
    await fill(form, { out: 'Bo', left_0: '4', left_1: '2', left_3: '1' });
    await submit(page, form.getByRole('button', { name: 'Record the result and pay out' }), game);
    await shows(page, '#round-entry', 'Round 3: Bo deals');
    await shows(page, '#history tbody tr:nth-child(2)', 'Ann');
  });
  await flow.step('final-form: the last hand played, the game over', async () => {
    const hands = { final_0: '2c 3c 4c 5c 7d', final_1: 'Ah Kh Qh Jh Th', final_2: '2d 3d 4d 5d 7s', final_3: '2h 3h 4h 5h 7c' };
    await fill(page.locator('#final-form'), hands);
    await submit(page, page.getByRole('button', { name: 'Play the last hand and end the game' }), game);
    await shows(page, '#finished', 'the game is over');
    await shows(page, '#last-hand-steps', 'Ann wins the Pot');
  });
}

async function logout(flow) {
  await flow.step('logout: signed out, back at the sign-in page', async (page) => {
    await submit(page, page.locator('header').getByRole('button', { name: 'Sign out' }), '/login');
    await shows(page, 'h1', 'Sign in');
    expect(!(await page.locator('header .who').count()), 'the header still shows who is signed in');
    const home = await page.request.get(`${env.base}/`);
    expect(new URL(home.url()).pathname === '/login', `the session still opens ${home.url()}`);
  });
}

const browser = await launch();
const started = Date.now();
try {
  const session = await signedIn(browser, env, { viewport: { width: 1024, height: 768 } });
  const tripoley = async (flow) => tripoleyEnd(flow, await tripoleyRound(flow));
  const flows = { users, tokens, training, chain, shifts, hands, floor, 'house-way': houseWay, tripoley, logout };
  for (const [name, run] of Object.entries(flows)) await run(new Flow(env, 'forms', name, session));
  await session.context.close();
  console.log(`forms: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(`forms: FAILED: ${e instanceof Mismatch ? e.message : e.stack}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
