import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesByWordsEntry, withWordsOnDemand, wordsByLanguage } from '../../page-words.ts';
import { frameName } from '../lib/words-files.ts';
import { createQueryClient } from './query-client.ts';
import { appRoutes } from './router.tsx';

const srcDir = path.resolve(import.meta.dirname, '..');
const words = await wordsByLanguage(srcDir, ['en', 'de']);
const english = words.get('en') ?? new Map();
const german = words.get('de') ?? new Map();

/** The English of the messages `entry` sends. */
function englishOf(entry: string): string[] {
  const words = english.get(entry);
  if (!words) throw new Error(`no words entry ${entry}`);
  return Object.values(words);
}

const customerList = 'src/features/admin/pages/customer-list-page.tsx';
const customerPage = 'src/features/admin/pages/customer-detail-page.tsx';
const dashboard = 'src/features/wallet/pages/dashboard-page.tsx';
const signUp = 'src/features/auth/pages/signup-page.tsx';
const shell = 'src/app/shell/shell-layout.tsx';

describe("a page's words", () => {
  it('are those of the files it reaches, not every word of its feature', () => {
    expect(englishOf(customerPage)).toContain('Disburse loan');
    expect(englishOf(customerList)).not.toContain('Disburse loan');
  });

  it('leave out those of what the page loads on demand, which come with it', () => {
    // The dashboard's Quick Pay dialog is transfers' index.ts, loaded with import().
    const verificationNote = 'Payments of {threshold} or more ask for a verification code.';
    expect(englishOf(dashboard)).not.toContain(verificationNote);
    expect(englishOf('src/features/transfers/index.ts')).toContain(verificationNote);
    // The staff menu is loaded on demand by the shell, which customers see too.
    expect(englishOf(shell)).not.toContain('{count} waiting');
    expect(englishOf('src/app/shell/staff-nav-items.tsx')).toContain('{count} waiting');
  });

  it("leave out the frame's, which every page has, and the frame has no page's", () => {
    const frame = englishOf(frameName);
    expect(frame).toContain('Loading page');
    expect(englishOf(dashboard)).not.toContain('Loading page');
    expect(frame).not.toContain('{count} waiting');
    // A sign-up component's words come with the page.
    expect(englishOf(signUp)).toContain('Weak');
    expect(frame).not.toContain('Weak');
  });

  it("are in the language asked for, by the same ids as Lingui's", () => {
    const englishWords = english.get(customerPage) ?? {};
    const germanWords = german.get(customerPage) ?? {};
    expect(Object.keys(germanWords).sort()).toEqual(Object.keys(englishWords).sort());
    const disburseId = Object.keys(englishWords).find((id) => englishWords[id] === 'Disburse loan');
    expect(germanWords[disburseId ?? '']).toBe('Kredit auszahlen');
  });
});

describe('the words entries', () => {
  const entries = filesByWordsEntry(srcDir);

  it("are the frame and every one of the router's route modules", () => {
    const routeModules = new Set<string>();
    const visit = (routes: ReturnType<typeof appRoutes>) => {
      for (const route of routes) {
        const handle = route.handle as { pageModule?: string } | undefined;
        if (handle?.pageModule) routeModules.add(handle.pageModule);
        visit(route.children ?? []);
      }
    };
    visit(appRoutes(createQueryClient()));
    for (const module of routeModules) expect(entries.has(module), module).toBe(true);
    expect(entries.has(frameName)).toBe(true);
  });

  it('reach every browser file that writes a message', () => {
    const reached = new Set([...entries.values()].flatMap((files) => [...files]));
    // The server's renderers hold every catalog themselves.
    const serverOnly = new Set(['app-server.tsx', 'landing-server.tsx']);
    const filesWithWords = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\./.test(file) && !serverOnly.has(file))
      .map((file) => path.join(srcDir, file))
      .filter((file) => /from '@lingui\/(react|core)\/macro'/.test(readFileSync(file, 'utf8')));
    expect(filesWithWords.length).toBeGreaterThan(100);
    expect(filesWithWords.filter((file) => !reached.has(file))).toEqual([]);
  });
});

describe('an import on demand', () => {
  const entriesWithWords = new Set(
    [...english].flatMap(([entry, words]) => (Object.keys(words).length > 0 ? [entry] : [])),
  );

  it('of a module with words loads them with it, and keeps every line where it was', () => {
    const balanceCard = path.join(srcDir, 'features/wallet/components/balance-card.tsx');
    const code = readFileSync(balanceCard, 'utf8');
    const wrapped = withWordsOnDemand(srcDir, balanceCard, code, entriesWithWords) ?? '';
    expect(wrapped).toContain(
      `__loadWithWords(import('../../transfers/index.ts'), "src/features/transfers/index.ts")`,
    );
    expect(wrapped).toContain(
      `import { loadWithWords as __loadWithWords } from "${path.join(srcDir, 'lib/i18n.ts')}"`,
    );
    const lines = wrapped.split('\n');
    expect(lines.slice(0, code.split('\n').length).map(unwrapped)).toEqual(code.split('\n'));
  });

  it('of a module without words is left as written', () => {
    const pageData = path.join(srcDir, 'app/page-data.ts');
    const code = readFileSync(pageData, 'utf8');
    expect(withWordsOnDemand(srcDir, pageData, code, entriesWithWords)).toBeUndefined();
  });
});

/** A line as written before withWordsOnDemand wrapped its import(). */
function unwrapped(line: string): string {
  return line.replace(/__loadWithWords\((import\('[^']+'\)), "[^"]+"\)/g, '$1');
}
