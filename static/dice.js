// The hand's taps. The dice pad: the sum and the ACTION seat shown and that
// seat lit as the dice are tapped, from the server's data-seats-by-sum (no
// rule here); a digit on a die picks it and moves on. The results step: a
// tap on a seat of the drawing turns its result (Player, PD, Push) and
// colours it; a seat with none to choose says why (#seat-said's words).
// Without this script a tap is a link to the seat's row.
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

  const results = () => document.getElementById('results-form');

  function mark() {
    results()?.querySelectorAll('.segmented').forEach((set) => {
      const seat = set.closest('fieldset').id.slice('seat-'.length);
      const g = document.querySelector(`.table-drawing .seat[data-seat="${seat}"]`);
      g?.classList.remove('r-player', 'r-pd', 'r-push');
      const on = set.querySelector('input:checked');
      if (on) g?.classList.add(`r-${on.value}`);
    });
  }

  document.addEventListener('click', (event) => {
    const link = event.target.closest?.('.table-drawing a.seat-link');
    const f = results();
    if (!link || !f) return;
    event.preventDefault();
    const seat = link.dataset.tapSeat;
    const said = document.getElementById('seat-said');
    const keys = [...f.querySelectorAll(`#seat-${seat} .segmented input`)];
    if (!keys.length) {
      const why = f.querySelector(`#seat-${seat}`) ? said.dataset.pdSeat : said.dataset.noWager;
      said.textContent = `Seat ${seat} ${why}`;
      return;
    }
    const next = keys[(keys.findIndex((k) => k.checked) + 1) % keys.length];
    next.checked = true;
    said.textContent = `Seat ${seat}: ${next.parentElement.textContent.trim()}`;
    mark();
    // Before enhance.js, which would fetch the link's page.
  }, true);
  document.addEventListener('change', (event) => {
    if (event.target.closest?.('#results-form .segmented')) mark();
  });

  // The forms arrive with a page, or with enhance.js's page swap.
  const ready = () => {
    preview();
    mark();
  };
  document.addEventListener('DOMContentLoaded', ready);
  document.addEventListener('pitbook:page', ready);
})();
