// Launches Debian's Chromium through playwright-core. Nothing here downloads a browser:
// CI installs the `chromium` package and the tests fail loudly if it is missing.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; the test command passes the same path as CHROMIUM_PATH. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifactsDir = path.resolve(import.meta.dirname, '../artifacts');

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts Chromium. Playwright gives every launch a fresh temporary --user-data-dir and
 * deletes it on close, so no profile state leaks between runs.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing: install it with apt-get install -y chromium`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
  });
}

export async function newContext(
  browser: Browser,
  options: { baseUrl: string; viewport: keyof typeof viewports },
): Promise<BrowserContext> {
  const isPhone = options.viewport === 'phone';
  return browser.newContext({
    baseURL: options.baseUrl,
    viewport: viewports[options.viewport],
    deviceScaleFactor: isPhone ? 2 : 1,
    isMobile: isPhone,
    hasTouch: isPhone,
    locale: 'en-US',
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
}

export type ConsoleProblems = {
  /** Console errors and warnings, and uncaught page errors, in the order they happened. */
  readonly messages: string[];
};

/** Records everything the page complains about, so a test can assert there was nothing. */
export function watchConsole(page: Page): ConsoleProblems {
  const messages: string[] = [];
  page.on('console', (message) => {
    const type = message.type();
    if (type === 'error' || type === 'warning') {
      const location = message.location();
      messages.push(`console.${type}: ${message.text()} (${location.url}:${location.lineNumber})`);
    }
  });
  page.on('pageerror', (error) => messages.push(`page error: ${error.stack ?? error.message}`));
  return { messages };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const filePath = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: filePath, fullPage: true });
  return filePath;
}
