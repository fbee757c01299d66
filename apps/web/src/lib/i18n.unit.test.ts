import { wordsVersion } from 'virtual:coffer/page-words';
import { i18n } from '@lingui/core';
import { describe, expect, it, vi } from 'vitest';
import { firstPageWordsUrls, reportMissingWords } from './i18n.ts';
import { wordsFileStem } from './words-files.ts';

const shell = 'src/app/shell/shell-layout.tsx';
const transferPage = 'src/features/transfers/pages/transfer-page.tsx';

describe('firstPageWordsUrls', () => {
  it("names the words modules of the frame, the shell and the page in the language, of this build's words", () => {
    expect(wordsVersion).toMatch(/^[0-9a-f]{10}$/);
    expect(firstPageWordsUrls('de', [shell, transferPage])).toEqual([
      `/assets/words/main.de-${wordsVersion}.js`,
      `/assets/words/app.shell.shell-layout.de-${wordsVersion}.js`,
      `/assets/words/features.transfers.pages.transfer-page.de-${wordsVersion}.js`,
    ]);
  });

  it("leaves out the contracts' words, which wait for the person's first input", () => {
    for (const language of ['en', 'de', 'ar'] as const) {
      const urls = firstPageWordsUrls(language, [shell, transferPage]);
      expect(urls.every((url) => url.includes(`.${language}-`))).toBe(true);
      expect(urls.some((url) => url.includes('contracts'))).toBe(false);
    }
  });
});

describe('wordsFileStem', () => {
  it('names a module by its path from src/, without its extension, and the language', () => {
    expect(wordsFileStem('', 'ar')).toBe('main.ar');
    expect(wordsFileStem('src/features/transfers/index.ts', 'de')).toBe(
      'features.transfers.index.de',
    );
    expect(wordsFileStem('src/app/toast-list.tsx', 'ja')).toBe('app.toast-list.ja');
  });
});

describe('reportMissingWords', () => {
  it("says on the console when a message's words are missing, but not a contract's English", () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Ids in variables: Lingui's extraction reads i18n._('…') with a literal as a message.
    const [loadedId, contractEnglish, missingId] = ['0BJWRl', 'Enter a valid email', '9xQ_-z'];
    try {
      i18n.load('de', { [loadedId]: 'Zu Ihrer Übersicht' });
      i18n.activate('de');
      reportMissingWords();
      expect(i18n._(loadedId)).toBe('Zu Ihrer Übersicht');
      expect(consoleError).not.toHaveBeenCalled();
      // The contracts' messages are their English until their words arrive.
      i18n._(contractEnglish);
      expect(consoleError).not.toHaveBeenCalled();
      // A macro's message whose words did not come shows its id.
      expect(i18n._(missingId)).toBe(missingId);
      expect(consoleError).toHaveBeenCalledWith(
        'The words of message 9xQ_-z (de) were not loaded with its code',
      );
    } finally {
      consoleError.mockRestore();
    }
  });
});
