// pitbook's progressive enhancement: POST forms (and links marked
// data-in-place) without a page load; the answer's <main> replaces this
// one's and the next field to work is focused. Without it every form works
// by a page load: the server decides everything, this only moves pages.
'use strict';

(() => {
  const main = () => document.querySelector('main');

  // A form's properties through HTMLFormElement's getters (a control named
  // `action` shadows `form.action`); the submitter's formaction/formmethod win.
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
    // The data first (a disabled submitter is left out), with the button pressed.
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
      // A page (a 422 or 409 is the page with its refusal): in place; else load it.
      if (!type.startsWith('text/html') || !show(html, answer.url)) location.assign(answer.url);
    } catch {
      // No network: the ordinary way, with the button submit() leaves out.
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

  // A link marked data-in-place (a seat on the drawing; an SVG link's href
  // is its attribute).
  document.addEventListener('click', async (event) => {
    const link = event.target.closest?.('a[data-in-place]');
    if (!link || event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey) return;
    const url = new URL(link.getAttribute('href'), location.href);
    if (url.origin !== location.origin) return;
    event.preventDefault();
    try {
      const answer = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
      if (!answer.ok || !show(await answer.text(), url.href)) location.assign(url);
    } catch {
      location.assign(url);
    }
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

  // A redirect to #step gets no autofocus from the browser: focused here.
  window.addEventListener('load', () =>
    requestAnimationFrame(() => {
      if (document.activeElement === document.body) focusNext(main());
    }),
  );
  // A phone's Menu shows and hides the sections (without scripts they wrap).
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
