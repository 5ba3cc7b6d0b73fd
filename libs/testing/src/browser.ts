import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

/**
 * The browser specs drive Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it)
 * with playwright-core, no browser download; CHROMIUM_PATH names another Chromium or Chrome.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Fails, saying how to get one, when there is no Chromium at CHROMIUM (a spec checks before it starts anything). */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: this spec drives a real browser. Install Debian's package (apt-get install -y chromium, ` +
        `after apt-get update if it is not found) or set CHROMIUM_PATH to a Chromium/Chrome executable.`,
    );
  }
}

/** Headless Chromium with CHROMIUM_ARGS and `args` (assertChromium first). */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args] });
}
