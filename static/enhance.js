// pitbook's progressive enhancement: a page's POST forms are sent
// without a page load. The answer's <main> replaces this page's, the address
// follows the redirect, and the next field to work is focused and kept in
// view — so a dealer entering wager after wager never loses the form or
// scrolls back to it. Without this script every form works the same with a
// full page load: the server decides everything, this only moves pages.
'use strict';

(() => {
  const main = () => document.querySelector('main');

  // A form's own properties, read through HTMLFormElement's getters: a
  // control named after one (`<input name="action">`) shadows `form.action`
  // and would be read instead. The submitter's formaction / formmethod win,
  // as in the browser's own submission.
  const formGetter = (name) => Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, name).get;
  const formAction = formGetter('action');
  const formMethod = formGetter('method');
  const formElements = formGetter('elements');
  const target = (form, submitter) =>
    submitter?.hasAttribute('formaction') ? submitter.formAction : formAction.call(form);
  const method = (form, submitter) =>
    submitter?.hasAttribute('formmethod') ? submitter.formMethod : formMethod.call(form);

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

  async function send(form, submitter, url) {
    // The form's data first: a disabled submitter is left out of it, and a
    // form with two buttons (Assign, Remove) needs the one pressed.
    const body = new URLSearchParams(new FormData(form, submitter));
    const buttons = form.querySelectorAll('button');
    buttons.forEach((b) => (b.disabled = true));
    try {
      const answer = await fetch(url, {
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
      // The network failed: send the form the ordinary way, with the
      // pressed button's name and value, which submit() leaves out.
      if (submitter?.name) {
        const pressed = Object.assign(document.createElement('input'), { type: 'hidden' });
        pressed.name = submitter.name;
        pressed.value = submitter.value;
        form.append(pressed);
      }
      HTMLFormElement.prototype.submit.call(form);
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (!(form instanceof HTMLFormElement) || form.hasAttribute('data-plain')) return;
    if (method(form, submitter) !== 'post') return;
    const url = target(form, submitter);
    if (new URL(url, location.href).origin !== location.origin) return;
    event.preventDefault();
    send(form, submitter, url);
  });

  // A one-character input (a die) moves on to the next field when filled.
  document.addEventListener('input', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.maxLength !== 1 || input.value.length !== 1) return;
    const fields = [...formElements.call(input.form)].filter((e) => e.matches('input:not([type=hidden]), button'));
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
  // The sections on a phone: the Menu button shows and hides them (the CSS
  // folds them only once this has run; without scripts they wrap).
  const toggle = document.getElementById('menu-toggle');
  const sections = document.getElementById('sections-nav');
  if (toggle && sections) {
    toggle.hidden = false;
    sections.classList.add('collapsible');
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      sections.classList.toggle('open', open);
    });
  }
})();
