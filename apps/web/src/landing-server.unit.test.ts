import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SiteAnswer } from '@coffer/contracts/site';
import { describe, expect, it } from 'vitest';
import { type LandingPageData, renderLandingPage } from './landing-server.tsx';
import { customerMe } from './test-fixtures.ts';

const template =
  '<html><head><title><!--landing-title--></title></head><body><!--landing-page--></body></html>';
const sandbox = { status: 'ok', database: 'pglite', isSandbox: true } as const;
const production = { ...sandbox, isSandbox: false } as const;
const fullSite: SiteAnswer = {
  institutionName: 'Harbour <Test> & Co',
  languages: ['en', 'de', 'ja', 'ar'],
  tagline: 'A tagline from the site file.',
  whoWeAre: 'We are a test institution.',
  foundingYear: 1987,
  contactEmail: 'hello@harbour.example',
  quickLinks: [{ label: 'Fee schedule', url: '/about' }],
};
const customer = customerMe;

/** The page, without the empty comments React puts between adjacent pieces of text. */
function render(data: Partial<LandingPageData>): string {
  const html = renderLandingPage(
    template,
    { site: fullSite, health: sandbox, me: null, ...data },
    'en',
  );
  return html.replaceAll('<!-- -->', '');
}

describe('renderLandingPage', () => {
  it('fills in the configured institution, escaped, and the configured sections', () => {
    const html = render({});
    expect(html).toContain('<title>Harbour &lt;Test&gt; &amp; Co</title>');
    expect(html).toContain('Banking you can check, from Harbour &lt;Test&gt; &amp; Co');
    expect(html).not.toContain('<Test>');
    expect(html).toContain('A tagline from the site file.');
    expect(html).toContain('Founded in 1987');
    expect(html).toContain('href="mailto:hello@harbour.example"');
    expect(html).toContain('aria-label="Sandbox"');
  });

  it('leaves out what is not configured, and the sandbox label in production', () => {
    const html = render({
      site: { institutionName: 'Plain Test Bank', languages: ['en'] },
      health: production,
    });
    expect(html).toContain('Banking you can check, from Plain Test Bank');
    expect(html).not.toContain('Who we are');
    expect(html).not.toContain('mailto:');
    expect(html).not.toContain('aria-label="Sandbox"');
  });

  it('says who runs the site only when the operator named their institution', () => {
    expect(render({})).toContain('Harbour &lt;Test&gt; &amp; Co runs on Coffer, open-source');
    const unnamed = render({ site: { institutionName: 'Coffer', languages: ['en'] } });
    expect(unnamed).not.toMatch(/runs on Coffer/i);
    expect(unnamed).toContain('Coffer is open-source banking software');
  });

  it('offers a visitor sign-up and login, and a signed-in user their dashboard', () => {
    const visitor = render({});
    expect(visitor).toMatch(/href="\/signup"[^>]*>.*Create Account/);
    expect(visitor).toMatch(/href="\/signin"[^>]*>.*Login/);
    expect(visitor).not.toContain('Go to your dashboard');
    const signedIn = render({ me: customer });
    expect(signedIn).toMatch(/href="\/dashboard"[^>]*>.*Go to your dashboard/);
    expect(signedIn).not.toContain('Create Account');
    expect(signedIn).not.toContain(customer.email);
  });

  it('renders every step of the tour and the phone menu, for the page script to switch', () => {
    const html = render({});
    for (const step of ['sign-up', 'secure', 'add-money', 'send']) {
      expect(html).toContain(`id="tour-panel-${step}"`);
    }
    expect(html).toMatch(/<div[^>]*aria-labelledby="[^"]+"[^>]*role="menu"/);
  });

  // The page has no React in the browser: its styles are only what landing-client.ts
  // imports, so a component added to the landing page must add its stylesheet there.
  it('has the Mantine stylesheet of every component it renders', () => {
    const clientSource = readFileSync(path.join(import.meta.dirname, 'landing-client.ts'), 'utf8');
    const imported = new Set(
      [...clientSource.matchAll(/@mantine\/core\/styles\/(\w+)\.css/g)].map((match) => match[1]),
    );
    const html = render({}) + render({ me: customer });
    const rendered = new Set([...html.matchAll(/mantine-([A-Z]\w+)-/g)].map((match) => match[1]));
    // A menu's dropdown is a popover: Menu's own styles build on Popover's.
    if (rendered.has('Menu')) rendered.add('Popover');
    expect([...rendered].filter((component) => !imported.has(component))).toEqual([]);
  });
});
