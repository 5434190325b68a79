// pitbook's progressive enhancement (issue 16): a page's POST forms are sent
// without a page load. The answer's <main> replaces this page's, the address
// follows the redirect, and the next field to work is focused and kept in
// view — so a dealer entering wager after wager never loses the form or
// scrolls back to it. Without this script every form works the same with a
// full page load: the server decides everything, this only moves pages.
'use strict';

(() => {
  const main = () => document.querySelector('main');

  /** The field to work next: one marked invalid, else one the page autofocuses. */
  function focusNext(root) {
    const target =
      root.querySelector('[aria-invalid="true"]') ||
      root.querySelector('[autofocus]') ||
      (location.hash && document.getElementById(location.hash.slice(1))) ||
      // A redirect's #fragment never reaches a fetch: the hand page's step.
      root.querySelector('#step');
    if (!target) return;
    target.scrollIntoView({ block: 'center' });
    if (target.matches('input, select, textarea, button')) {
      target.focus({ preventScroll: true });
    } else {
      const first = target.querySelector('input:not([type=hidden]), select, textarea, button');
      (first || target).focus?.({ preventScroll: true });
    }
  }

  function show(html, url) {
    const next = new DOMParser().parseFromString(html, 'text/html');
    const body = next.querySelector('main');
    if (!body) return false;
    main().replaceWith(body);
    document.title = next.title;
    const header = next.querySelector('body > header');
    if (header) document.querySelector('body > header')?.replaceWith(header);
    if (url && url !== location.href) history.pushState({ pitbook: true }, '', url);
    document.dispatchEvent(new CustomEvent('pitbook:page'));
    focusNext(body);
    return true;
  }

  async function send(form, submitter) {
    // The form's data first: a disabled submitter is left out of it, and a
    // form with two buttons (Assign, Remove) needs the one pressed.
    const body = new URLSearchParams(new FormData(form, submitter));
    const buttons = form.querySelectorAll('button');
    buttons.forEach((b) => (b.disabled = true));
    try {
      const answer = await fetch(form.action, {
        method: 'POST',
        body,
        credentials: 'same-origin',
        headers: { Accept: 'text/html' },
      });
      const type = answer.headers.get('content-type') || '';
      const html = await answer.text();
      // The page's own answer (a 422 or 409 is the page again, with the
      // refusal beside its field): shown in place. Anything else: load it.
      if (!type.startsWith('text/html') || !show(html, answer.url)) location.assign(answer.url);
    } catch {
      // The network failed: send the form the ordinary way.
      form.submit();
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method !== 'post' || form.dataset.plain !== undefined) return;
    if (new URL(form.action, location.href).origin !== location.origin) return;
    event.preventDefault();
    send(form, event.submitter);
  });

  // A one-character input (a die) moves on to the next field when filled.
  document.addEventListener('input', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.maxLength !== 1 || input.value.length !== 1) return;
    const fields = [...input.form.elements].filter((e) => e.matches('input:not([type=hidden]), button'));
    fields[fields.indexOf(input) + 1]?.focus();
  });

  // Back and forward: the page as it is now, from the server.
  window.addEventListener('popstate', () => location.reload());

  // A page reached by a redirect to #step gets no autofocus from the
  // browser (the fragment wins, and clears the focus once applied): the
  // field to work next is focused here.
  window.addEventListener('load', () =>
    requestAnimationFrame(() => {
      if (document.activeElement === document.body) focusNext(main());
    }),
  );
})();
