import { describe, expect, it } from 'vitest';
import { createBrowserHistory, createPath, type HistoryWindow, resolveTo } from './history.ts';

/**
 * The session history as a browser keeps it: a list of entries with their address and
 * state, a current one, and popstate after Back and Forward.
 */
function browserWindow(startPath: string) {
  const entries: { path: string; state: unknown }[] = [{ path: startPath, state: null }];
  let current = 0;
  const onPop: (() => void)[] = [];
  const url = () => new URL(entries[current]?.path ?? '/', 'http://coffer.test');
  const win: HistoryWindow = {
    location: {
      get pathname() {
        return url().pathname;
      },
      get search() {
        return url().search;
      },
      get hash() {
        return url().hash;
      },
    },
    history: {
      get state() {
        return entries[current]?.state;
      },
      pushState(state, _title, path) {
        entries.splice(current + 1, entries.length, { path: String(path), state });
        current += 1;
      },
      replaceState(state, _title, path) {
        entries[current] = { path: String(path ?? entries[current]?.path), state };
      },
    },
    addEventListener: ((type: string, listener: () => void) => {
      if (type === 'popstate') onPop.push(listener);
    }) as HistoryWindow['addEventListener'],
  };
  const go = (delta: number) => {
    current += delta;
    for (const listener of onPop) listener();
  };
  return { win, go, entryCount: () => entries.length };
}

describe('the browser history', () => {
  it('keys every entry, the first one too, and keeps the key after Back and Forward', () => {
    const browser = browserWindow('/dashboard');
    const history = createBrowserHistory(browser.win);
    const first = history.location();
    expect(first).toMatchObject({ pathname: '/dashboard', search: '', hash: '', state: null });
    expect(first.key).not.toBe('');

    history.push({ pathname: '/transfer', search: '?tab=withdraw', hash: '' }, { from: 'x' });
    const second = history.location();
    expect(second).toMatchObject({ pathname: '/transfer', search: '?tab=withdraw' });
    expect(second.state).toEqual({ from: 'x' });
    expect(second.key).not.toBe(first.key);

    let pops = 0;
    history.listen(() => {
      pops += 1;
    });
    browser.go(-1);
    expect(history.location()).toEqual(first);
    browser.go(1);
    expect(history.location()).toEqual(second);
    expect(pops).toBe(2);
  });

  it('replaces the current entry without adding one, under a new key', () => {
    const browser = browserWindow('/signin');
    const history = createBrowserHistory(browser.win);
    const before = history.location();
    history.replace({ pathname: '/dashboard', search: '', hash: '' }, null);
    expect(browser.entryCount()).toBe(1);
    expect(history.location().pathname).toBe('/dashboard');
    expect(history.location().key).not.toBe(before.key);
  });
});

describe('addresses', () => {
  const from = { pathname: '/admin/users/42', search: '?tab=cards', hash: '' };

  it('resolve absolute, search-only and relative addresses as a link in the page would', () => {
    expect(resolveTo('/transfer?tab=withdraw#top', from)).toEqual({
      pathname: '/transfer',
      search: '?tab=withdraw',
      hash: '#top',
    });
    expect(resolveTo('?tab=notes', from)).toEqual({
      pathname: '/admin/users/42',
      search: '?tab=notes',
      hash: '',
    });
    expect(resolveTo('43', from).pathname).toBe('/admin/users/43');
    expect(resolveTo({ search: '' }, from)).toEqual({
      pathname: '/admin/users/42',
      search: '',
      hash: '',
    });
    expect(resolveTo({ pathname: '/signup' }, from).search).toBe('');
  });

  it('write back without empty parts', () => {
    expect(createPath({ pathname: '/a', search: '?', hash: '#' })).toBe('/a');
    expect(createPath({ pathname: '/a', search: 'x=1', hash: 'b' })).toBe('/a?x=1#b');
  });
});
