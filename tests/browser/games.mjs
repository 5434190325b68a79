// Tripoley and the dice games kept at the table, driven as a host does:
// every step clicked, tapped or typed on the real page, with the scripts on
// (as on every tablet), each checked on the page after it and screenshotted
// (a step that changes nothing on screen fails):
//   1. a Tripoley round step by step: antes, the deal (read back, a card
//      dealt twice refused beside its hand), the spare sold, the money
//      cards, the betting action by action (a bet over the limit refused
//      beside the chips), the showdown, the Michigan card by card, the
//      payouts; on every step's page the board drawn is the board after
//      that step (with the balances beside it, the game's total), every
//      label inside its tile, the boards before and after side by side
//      (stacked on a phone);
//   2. the same round with the scripts off: the same balances at the end;
//   3. a 10,000 game to a win, every throw tapped on the face keys (a die
//      left untapped refused beside the keys, the taps kept), the keys
//      also on a phone;
//   4. a poker dice round to its winner, the dice tapped on the face keys
//      and the dice held ticked on the last throw's keys (three dice on a
//      first throw refused beside the dice thrown), also on a phone.
// After every step the browser must still be on the game's page: a form
// the script sent to the wrong address (a control shadowing the form's
// `action`) lands elsewhere.
//
// Runs after e2e.mjs on its server (the admin's password is the one e2e set).

import { launch } from './chromium.mjs';
import { Flow, Mismatch, TRIPOLEY_DEAL as DEAL, TRIPOLEY_SEATING as SEATING, environment, expect, signedIn, text } from './harness.mjs';

const env = environment('games');

/** The browser is on `path` (the form went where it should). */
function onPage(page, path) {
  const at = new URL(page.url()).pathname;
  expect(at === path, `the browser left the game for ${page.url()} (expected ${path})`);
}

/** The number of sentences in "This round so far". */
async function soFar(page) {
  return page.locator('#so-far li').count();
}

/** Waits until the round's sentences number more than `before`. */
async function moreSaid(page, before) {
  await page.waitForFunction((n) => document.querySelectorAll('#so-far li').length > n, before);
}

async function phase(page, label) {
  await page.locator('#step-heading', { hasText: `step by step: ${label}` }).waitFor();
}

async function version(page, form = '#step-form') {
  return page.locator(`${form} input[name="version"]`).inputValue();
}

/** A refusal shown beside the input `id`, marked invalid, typed text kept. */
async function refusedBeside(page, id, words, typed) {
  const error = page.locator(`#${id}-error`);
  await error.waitFor();
  const said = (await error.textContent()).trim();
  expect(said.length > 0 && said.includes(words), `beside ${id}: expected "${words}", found "${said}"`);
  const input = page.locator(`#${id}`);
  expect((await input.getAttribute('aria-invalid')) === 'true', `${id} is not marked invalid`);
  await summaryLinks(page, id, words);
  expect((await input.inputValue()) === typed, `${id} lost what was typed: "${await input.inputValue()}"`);
}

/** The error summary at the top links to `id` with the refusal's words. */
async function summaryLinks(page, id, words) {
  const link = page.locator(`#error-summary a[href="#${id}"]`);
  expect((await link.count()) === 1 && (await link.textContent()).includes(words), `no error summary linking to #${id}`);
}

/**
 * A refusal right after the keys `id` (`#id + #id-error`), the error
 * summary linking to them, the keys keeping what was tapped (`picked`, the
 * values ticked in order) and focused.
 */
async function refusedBesideKeys(page, id, words, picked) {
  const error = page.locator(`#${id} + #${id}-error`);
  await error.waitFor();
  const said = (await error.textContent()).trim();
  expect(said.includes(words), `beside the keys ${id}: expected "${words}", found "${said}"`);
  await summaryLinks(page, id, words);
  const kept = await page.locator(`#${id} input:checked`).evaluateAll((keys) => keys.map((k) => k.value));
  expect(JSON.stringify(kept) === JSON.stringify(picked), `the keys ${id} kept ${kept}, not ${picked}`);
  const focused = await page.evaluate((group) => document.getElementById(group).contains(document.activeElement), id);
  expect(focused, `the keys ${id} are not focused after the refusal`);
}

/** Taps a face on each row of keys `#{rows}-1`, `#{rows}-2`… in turn. */
async function tapDice(page, rows, faces) {
  for (const [i, face] of faces.entries()) {
    await page.locator(`#${rows}-${i + 1}`).getByLabel(face, { exact: true }).tap();
  }
}

/** Ticks the last throw's keys showing `faces` (a face twice: two keys). */
async function holdDice(page, faces) {
  for (const face of faces) {
    const key = page.locator('#held').getByLabel(face, { exact: true }).and(page.locator('input:not(:checked)'));
    await key.first().tap();
  }
}

/** On a phone (390 px) the keys fit, each at least 44 px; then 1024 again. */
async function keysOnAPhone(flow, what) {
  await flow.step(`${what} on a phone`, async (page) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const small = await page.locator('#throw-form .die-key span').evaluateAll((keys) =>
      keys.map((k) => k.getBoundingClientRect()).filter((r) => r.width < 43.5 || r.height < 43.5).length);
    expect(small === 0, `${small} keys are under 44 px on a phone`);
  });
  await flow.page.setViewportSize({ width: 1024, height: 768 });
}

/**
 * The board drawn after the step and the balances beside it, read from the
 * page: the same fold, so players + board is the game's total (`#rules`'s
 * data-total); each section's count written is its data-chips; every label
 * inside its tile; the boards before and after side by side at 1024 px,
 * each well under 350 px tall. The board's chips by section key.
 */
async function boardAndBalances(page) {
  const seen = await page.evaluate(() => {
    const sections = [...document.querySelectorAll('#board-after g.section')];
    const fits = (g) => {
      const [tile, label] = [g.querySelector('rect').getBBox(), g.querySelector('text.label').getBBox()];
      return label.x >= tile.x && label.x + label.width <= tile.x + tile.width;
    };
    const box = (id) => document.getElementById(id)?.getBoundingClientRect();
    return {
      keys: sections.map((g) => g.id.replace('board-after-', '')),
      board: sections.map((g) => Number(g.dataset.chips)),
      written: sections.map((g) => Number(g.querySelector('text.count').textContent)),
      balances: [...document.querySelectorAll('#balances td.chips')].map((td) => Number(td.textContent)),
      total: Number(document.querySelector('#rules').dataset.total),
      overflowing: [...document.querySelectorAll('svg.tripoley-board g.section')].filter((g) => !fits(g)).map((g) => g.id),
      boxes: ['board-before', 'board-after'].map(box).filter(Boolean).map((r) => ({ top: r.top, bottom: r.bottom, height: r.height })),
    };
  });
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  expect(seen.board.length === 9, `the board after has ${seen.board.length} sections`);
  expect(JSON.stringify(seen.board) === JSON.stringify(seen.written), `the counts written ${seen.written} are not the chips ${seen.board}`);
  expect(
    sum(seen.board) + sum(seen.balances) === seen.total,
    `the balances ${seen.balances} and the board ${seen.board} do not make the game's ${seen.total} chips`,
  );
  expect(!seen.overflowing.length, `labels overflow their tiles: ${seen.overflowing.join(', ')}`);
  for (const b of seen.boxes) expect(b.height < 350, `a board is ${Math.round(b.height)} px tall`);
  if (seen.boxes.length === 2 && page.viewportSize().width >= 1024) {
    expect(Math.abs(seen.boxes[0].top - seen.boxes[1].top) < 1, 'the boards before and after are not side by side');
  }
  return Object.fromEntries(seen.keys.map((k, i) => [k, seen.board[i]]));
}

/** On a phone (390 px) the boards stack, before above after, each compact. */
async function boardsOnAPhone(flow) {
  await flow.step('the boards on a phone: stacked', async (page) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const [before, after] = await Promise.all(['#board-before', '#board-after'].map((id) => page.locator(id).boundingBox()));
    expect(after.y >= before.y + before.height, 'the boards do not stack on a phone');
    expect(before.width <= 390 && after.height < 350, `a board on a phone is ${after.width}×${after.height} px`);
    await boardAndBalances(page);
  });
  await flow.page.setViewportSize({ width: 1024, height: 768 });
}

/** Starts a classic Tripoley game from the list page's form; its path. */
async function startTripoley(flow) {
  let path = '';
  await flow.step('start a game', async (page) => {
    await page.goto(`${env.base}/tripoley`);
    const form = page.locator('#new-game');
    await form.getByLabel('Players in seating order').fill(SEATING.join(', '));
    await form.getByLabel('Chips each').fill('40');
    await form.getByLabel('Value of one chip').fill('0.25');
    await form.getByLabel('Bet limit').fill('10');
    await form.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL((u) => /^\/tripoley\/[^/]+$/.test(u.pathname));
    path = new URL(page.url()).pathname;
    await phase(page, 'the ante');
    expect((await text(page, '#rules')).includes('Players + board: 160 chips'), 'the rules line');
    await boardAndBalances(page);
  });
  return path;
}

/** A whole Tripoley round by clicks on `path`; the balances at its end. */
async function tripoleyRound(flow, path) {
  const page = flow.page;
  // Every step's page: the board after it, with the balances beside it.
  const step = (name, fn) => flow.step(name, async () => {
    await fn();
    await boardAndBalances(page);
  });
  await step('collect the antes', async () => {
    const before = await soFar(page);
    await page.getByRole('button', { name: 'Collect the antes' }).click();
    await phase(page, 'the deal');
    onPage(page, path);
    expect((await soFar(page)) > before, 'the antes are not in "this round so far"');
    const board = await boardAndBalances(page);
    expect(Object.values(board).every((c) => c === 4), `the antes: 4 on each section, found ${JSON.stringify(board)}`);
  });
  const hand = (seat) => page.locator(`#step_hand_${seat}`);
  await step('type the deal with a card twice: refused beside the hand', async () => {
    const before = await version(page);
    for (const [seat, name] of SEATING.entries()) await hand(seat).fill(DEAL[name]);
    await page.locator('#step_hand_spare').fill(DEAL.spare);
    // Bo's 8d typed as Ann's Ah: the Ah is dealt twice.
    const twice = DEAL.Bo.replace('8d', 'Ah');
    await hand(2).fill(twice);
    await page.getByRole('button', { name: 'Record the deal' }).click();
    await refusedBeside(page, 'step_hand_2', 'Ah is dealt twice', twice);
    onPage(page, path);
    expect((await version(page)) === before, 'a refused deal changed the version: something was recorded');
    expect((await hand(1).inputValue()) === DEAL.Ann, "Ann's typed hand was lost");
    await phase(page, 'the deal');
  });
  await step('read the hands back (records nothing)', async () => {
    await hand(2).fill(DEAL.Bo);
    await page.getByRole('button', { name: 'Read the hands back' }).click();
    await page.locator('#step-readings').waitFor();
    expect((await text(page, '#step-readings')).includes('Four of a kind'), 'the read-back names the four kings');
    await phase(page, 'the deal');
  });
  await step('record the deal', async () => {
    await page.getByRole('button', { name: 'Record the deal' }).click();
    await phase(page, 'the spare hand');
    onPage(page, path);
  });
  await step('the spare sold to Cy for 2', async () => {
    await page.getByLabel('Sold at auction to').selectOption('Cy');
    await page.getByLabel('Price (chips, paid to the dealer)').fill('2');
    await page.getByRole('button', { name: 'Record the spare hand' }).click();
    await phase(page, 'the money cards');
    expect((await text(page, '#money-cards')).includes('Ann holds the Ah'), 'the money cards list');
  });
  await step('pay the money cards', async () => {
    await page.getByRole('button', { name: 'Pay the money cards' }).click();
    await phase(page, 'the betting');
    expect((await text(page, '#to-act')).startsWith('Ann to act'), 'Ann acts first');
    // Cy bought the spare (the Kh) and put down the Jh: the Jack and
    // King-Queen carry over, with the Kitty and the Pot.
    const board = await boardAndBalances(page);
    const carried = { ace: 0, king: 0, queen: 0, jack: 4, ten: 0, king_queen: 4, eight_nine_ten: 0, kitty: 4, pot: 4 };
    expect(Object.entries(carried).every(([k, c]) => board[k] === c), `the board when the betting begins: ${JSON.stringify(board)}`);
  });
  await step('a bet of 11 over the limit of 10: refused beside the chips', async () => {
    const before = await version(page);
    await page.locator('#step_chips').fill('11');
    await page.getByRole('button', { name: 'Bet', exact: true }).click();
    await refusedBeside(page, 'step_chips', 'more than the bet limit of 10', '11');
    expect((await version(page)) === before, 'a refused bet changed the version');
    expect((await text(page, '#to-act')).startsWith('Ann to act'), 'still Ann to act');
  });
  let pot = 4;
  const bets = [
    ['Ann bets 10', async () => { await page.locator('#step_chips').fill('10'); await page.getByRole('button', { name: 'Bet', exact: true }).click(); }, 'Bo'],
    ['Bo calls', () => page.getByRole('button', { name: /^Call 10/ }).click(), 'Cy'],
    ['Cy calls', () => page.getByRole('button', { name: /^Call 10/ }).click(), 'Dee'],
  ];
  for (const [name, act, next] of bets) {
    await step(name, async () => {
      await act();
      await page.locator('#to-act', { hasText: `${next} to act` }).waitFor();
      onPage(page, path);
      pot += 10;
      expect((await boardAndBalances(page)).pot === pot, `the Pot after ${name}: ${pot} expected`);
    });
  }
  await step('Dee folds', async () => {
    await page.getByRole('button', { name: 'Fold' }).click();
    await phase(page, 'the showdown');
  });
  await step('the showdown: Ann shows two pair', async () => {
    await page.getByLabel('Ann shows').fill('As Ad 8s 8c Ts');
    await page.getByRole('button', { name: 'Record the showdown' }).click();
    await phase(page, 'the Michigan');
    await page.locator('#michigan-turn').waitFor();
  });
  let cards = 0;
  while (await page.locator('#michigan-turn').count()) {
    const who = await text(page, '#michigan-turn strong');
    const card = page.locator('#step-form button[name="card"]').first();
    const value = await card.getAttribute('value');
    await step(`Michigan: ${who} plays the ${value}`, async () => {
      const before = await soFar(page);
      await card.click();
      // The next card's screen, or the round paid out.
      await page.waitForFunction(
        (n) => !document.querySelector('#michigan-turn') || document.querySelectorAll('#so-far li').length > n,
        before,
      );
      onPage(page, path);
      // The last card pays the round out: read aloud, round 2 next.
      if (!(await page.locator('#michigan-turn').count())) {
        await page.locator('#last-steps li').first().waitFor();
        expect((await text(page, '#round-entry')).startsWith('Round 2: Ann deals'), 'round 2 is next, Ann deals');
        expect((await text(page, '#history tbody tr td:nth-child(2)')) === 'Dee', 'the rounds list: round 1 dealt by Dee');
      }
    });
    cards += 1;
    expect(cards <= 52, 'the Michigan never ends');
  }
  expect(cards > 0, 'no Michigan card was played');
  const chips = await page.locator('#balances td.chips').allTextContents();
  console.log(`      ${cards} Michigan cards; chips after the round ${chips.join(', ')}`);
  return chips;
}

async function tenThousand(flow) {
  const page = flow.page;
  let path = '';
  const turn = (who) => page.locator('#turn', { hasText: `${who}'s turn` }).waitFor();
  const enter = () => page.getByRole('button', { name: 'Enter the throw' }).click();
  await flow.step('start a 10,000 game to 1,000', async () => {
    await page.goto(`${env.base}/dice`);
    const form = page.locator('#new-game');
    await form.getByLabel('Game').selectOption('ten-thousand');
    await form.getByLabel('Players in order').fill('Anastasia, Benedikt');
    await form.getByLabel('Target (default 10,000)').fill('1000');
    await form.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL((u) => /^\/dice\/[^/]+$/.test(u.pathname));
    path = new URL(page.url()).pathname;
    await turn('Anastasia');
    const rows = await page.locator('#dice-thrown fieldset.die-pad').count();
    expect(rows === 6, `${rows} rows of keys for 6 dice to throw`);
  });
  await flow.step('five dice tapped, the sixth left: refused beside the keys', async () => {
    await tapDice(page, 'die', ['1', '1', '1', '2', '3']);
    await enter();
    await refusedBesideKeys(page, 'dice-thrown', '6 dice are left', ['1', '1', '1', '2', '3']);
    onPage(page, path);
  });
  await keysOnAPhone(flow, 'the throw keys');
  await flow.step('Anastasia taps 1 1 1 2 3 4', async () => {
    await tapDice(page, 'die', ['1', '1', '1', '2', '3', '4']);
    await enter();
    await page.locator('#keeps').waitFor();
    onPage(page, path);
  });
  await flow.step('she keeps 1 1 1 for 1,000', async () => {
    await page.getByRole('button', { name: /^Keep 1 1 1 = 1000$/ }).click();
    await page.getByRole('button', { name: /^Stop and record/ }).waitFor();
    onPage(page, path);
    const rows = await page.locator('#dice-thrown fieldset.die-pad').count();
    expect(rows === 3, `${rows} rows of keys for the 3 dice left`);
  });
  await flow.step('she stops and records 1,000', async () => {
    await page.getByRole('button', { name: /^Stop and record/ }).click();
    await turn('Benedikt');
    const totals = await page.locator('#totals tbody tr').allTextContents();
    expect(totals.some((t) => /Anastasia\s*1,?000/.test(t)), `the totals: ${totals}`);
  });
  await flow.step('Benedikt taps 2 3 4 6 6 2: bust, and the game is over', async () => {
    await tapDice(page, 'die', ['2', '3', '4', '6', '6', '2']);
    await enter();
    await page.locator('#winner').waitFor();
    onPage(page, path);
    expect((await text(page, '#winner')).includes('Anastasia'), `the winner: ${await text(page, '#winner')}`);
  });
}

async function pokerDice(flow) {
  const page = flow.page;
  let path = '';
  const enter = () => page.getByRole('button', { name: 'Enter the throw' }).click();
  await flow.step('start a poker dice round', async () => {
    await page.goto(`${env.base}/dice`);
    const form = page.locator('#new-game');
    await form.getByLabel('Game').selectOption('poker-dice');
    await form.getByLabel('Players in order').fill('Anastasia, Benedikt');
    await form.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL((u) => /^\/dice\/[^/]+$/.test(u.pathname));
    path = new URL(page.url()).pathname;
    await page.locator('#turn', { hasText: 'Anastasia throws (0 taken)' }).waitFor();
    const faces = await text(page, '#faces');
    expect(faces.includes('8 red = R (roja), 7 black = N (negra)'), `the faces in words: ${faces}`);
  });
  await flow.step('three dice on a first throw: refused beside the dice', async () => {
    await tapDice(page, 'roll', ['A', 'A', 'K']);
    await enter();
    await refusedBesideKeys(page, 'rolled', 'make 3 dice, not 5', ['A', 'A', 'K']);
    onPage(page, path);
  });
  await flow.step('Anastasia taps A A K Q J', async () => {
    await tapDice(page, 'roll', ['A', 'A', 'K', 'Q', 'J']);
    await enter();
    await page.locator('#turn', { hasText: 'Anastasia throws (1 taken)' }).waitFor();
    onPage(page, path);
    const held = await page.locator('#held .die-key').allTextContents();
    expect(held.join(' ') === 'A A K Q J', `the last throw's keys: ${held}`);
  });
  await flow.step('she ticks A A to hold', async () => {
    await holdDice(page, ['A', 'A']);
    const ticked = await page.locator('#held input:checked').evaluateAll((keys) => keys.map((k) => k.value));
    expect(ticked.join(' ') === 'A A', `held: ${ticked}`);
  });
  await keysOnAPhone(flow, 'the hold and throw keys');
  await flow.step('she throws the other three: A K K, aces full', async () => {
    await tapDice(page, 'roll', ['A', 'K', 'K']);
    await enter();
    await page.locator('#turn', { hasText: 'Anastasia throws (2 taken)' }).waitFor();
    onPage(page, path);
    expect((await text(page, '#hands')).includes('Full de ases y reyes'), 'her full house in the hands');
  });
  await flow.step('Anastasia stands', async () => {
    await page.getByRole('button', { name: 'Anastasia stands' }).click();
    await page.locator('#turn', { hasText: 'Benedikt throws (0 taken)' }).waitFor();
    expect((await text(page, '#hands')).includes('Full de ases y reyes'), 'her full house in the hands');
  });
  await flow.step('Benedikt taps Q Q Q J, 7 black', async () => {
    await tapDice(page, 'roll', ['Q', 'Q', 'Q', 'J', '7 black']);
    await enter();
    await page.locator('#turn', { hasText: 'Benedikt throws (1 taken)' }).waitFor();
    expect((await text(page, '#hands')).includes('Q Q Q J N'), `his throw: ${await text(page, '#hands')}`);
  });
  await flow.step('Benedikt stands: Anastasia wins', async () => {
    await page.getByRole('button', { name: 'Benedikt stands' }).click();
    await page.locator('#winner').waitFor();
    onPage(page, path);
    expect((await text(page, '#winner')).includes('Anastasia'), `the winner: ${await text(page, '#winner')}`);
  });
}

const browser = await launch();
try {
  const tablet = { viewport: { width: 1024, height: 768 }, hasTouch: true };
  const on = await signedIn(browser, env, tablet);
  const withScripts = new Flow(env, 'games', 'tripoley', on);
  const chipsOn = await tripoleyRound(withScripts, await startTripoley(withScripts));
  await boardsOnAPhone(withScripts);
  await tenThousand(new Flow(env, 'games', '10000', on));
  await pokerDice(new Flow(env, 'games', 'poker-dice', on));
  await on.context.close();

  const off = await signedIn(browser, env, { ...tablet, javaScriptEnabled: false });
  const noScripts = new Flow(env, 'games', 'tripoley-no-script', off);
  const chipsOff = await tripoleyRound(noScripts, await startTripoley(noScripts));
  expect(
    JSON.stringify(chipsOn) === JSON.stringify(chipsOff),
    `the same round ends differently with and without scripts: ${chipsOn} against ${chipsOff}`,
  );
  await off.context.close();
  console.log('games: passed');
} catch (e) {
  console.error(`games: FAILED: ${e instanceof Mismatch ? e.message : e.stack}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
