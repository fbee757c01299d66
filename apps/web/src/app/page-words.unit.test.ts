import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesByWordsEntry, wordsByEntry } from '../../page-words.ts';
import { frameName } from '../lib/words-files.ts';
import { createQueryClient } from './query-client.ts';
import { appRoutes } from './router.tsx';

const srcDir = path.resolve(import.meta.dirname, '..');
const english = await wordsByEntry(srcDir, 'en');
const german = await wordsByEntry(srcDir, 'de');

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

  it('follow what a page loads on demand through another feature’s index.ts', () => {
    // The dashboard opens transfers' Quick Pay dialog with import().
    expect(englishOf(dashboard)).toContain('Quick Pay');
    expect(englishOf(signUp)).not.toContain('Quick Pay');
  });

  it("leave out the frame's, which every page has, and the frame has no page's", () => {
    const frame = englishOf(frameName);
    expect(frame).toContain('Loading page');
    expect(englishOf(dashboard)).not.toContain('Loading page');
    // The shell's and a sign-up component's words come with them, not on every page.
    expect(englishOf(shell)).toContain('{count} waiting');
    expect(frame).not.toContain('{count} waiting');
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
