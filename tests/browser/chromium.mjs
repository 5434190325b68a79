// How every browser test starts Debian's chromium: headless; as root, so
// without the sandbox; with no GPU and no /dev/shm to run short of; and
// with nothing reaching for the network, which this machine's closed
// network refuses many connections at a time (the machine notes).
import { chromium } from 'playwright-core';

const ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export function launch(options = {}) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, ...options });
}

/**
 * Fails at once, naming the page, when chromium's renderer crashes or a
 * page's script throws, rather than after a wait's 30 s timeout.
 */
export function failFast(page) {
  page.on('crash', () => {
    console.error(`chromium: the renderer crashed at ${page.url()}`);
    process.exit(1);
  });
  page.on('pageerror', (error) => console.error(`chromium: a script threw at ${page.url()}: ${error}`));
}
