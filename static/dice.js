// The dice pad (templates/double_hand_poker/hand/dice_form.html): as the
// dice are tapped, the sum and the ACTION seat they give are shown, and
// that seat is lit on the table drawing, before anything is recorded. The
// seat of each sum comes from the server (data-seats-by-sum, the core's
// rule): nothing here knows the rule. A digit 1–6 typed on a die picks it
// and moves to the next die, so the keyboard needs three keys, as before.
'use strict';

(() => {
  const form = () => document.getElementById('dice-form');

  function picked(f) {
    return [1, 2, 3].map((n) => f.querySelector(`input[name="d${n}"]:checked`)?.value);
  }

  function preview() {
    const f = form();
    if (!f) return;
    const out = f.querySelector('#dice-preview');
    const dice = picked(f);
    document.querySelectorAll('.table-drawing .seat.previewed').forEach((s) => s.classList.remove('previewed'));
    const left = dice.filter((d) => d === undefined).length;
    out.hidden = false;
    if (left > 0) {
      out.textContent = left === 1 ? 'One die to tap.' : `${left} dice to tap.`;
      return;
    }
    const sum = dice.reduce((a, d) => a + Number(d), 0);
    const bySum = new Map(f.dataset.seatsBySum.split(' ').map((p) => p.split(':')));
    const seat = bySum.get(String(sum));
    out.textContent = `${dice.join(' + ')} = ${sum}: the ACTION seat is seat ${seat}.`;
    document.querySelector(`.table-drawing .seat[data-seat="${seat}"]`)?.classList.add('previewed');
  }

  document.addEventListener('change', (event) => {
    if (event.target.closest?.('#dice-form .die-pad')) preview();
  });

  document.addEventListener('keydown', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.closest('#dice-form .die-pad')) return;
    if (!/^[1-6]$/.test(event.key)) return;
    event.preventDefault();
    const die = input.name;
    const key = form().querySelector(`input[name="${die}"][value="${event.key}"]`);
    key.checked = true;
    preview();
    const next = { d1: 'd2', d2: 'd3' }[die];
    const target = next
      ? form().querySelector(`input[name="${next}"]:checked`) || form().querySelector(`input[name="${next}"]`)
      : form().querySelector('button[type="submit"]');
    target.focus();
  });

  // The dice form arrives with a page, or with enhance.js's page swap.
  document.addEventListener('DOMContentLoaded', preview);
  document.addEventListener('pitbook:page', preview);
})();
