// Debian's headless Chromium driven by playwright-core (no browser download), with the flags that keep it off
// the network on these machines.
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './paths';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
