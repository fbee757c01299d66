// The browser's session history as the router uses it: each entry carries a key (where its
// scroll position is remembered) and the state a navigation gave it.

export type Path = { pathname: string; search: string; hash: string };

export type Location = Path & {
  /** What the navigation that opened this entry passed along (`navigate(to, { state })`). */
  state: unknown;
  /** Names this history entry, the same after Back and Forward. */
  key: string;
};

/** An address: `/signin?x=1`, `?tab=withdraw`, or its parts (missing ones stay as they are). */
export type To = string | Partial<Path>;

/** What a history entry holds in `history.state`. */
type EntryState = { usr: unknown; key: string };

/** The parts of `window` the history uses. */
export type HistoryWindow = Pick<Window, 'addEventListener'> & {
  location: Pick<Window['location'], 'pathname' | 'search' | 'hash'>;
  history: Pick<Window['history'], 'state' | 'pushState' | 'replaceState'>;
};

export type BrowserHistory = {
  location: () => Location;
  push: (path: Path, state: unknown) => void;
  replace: (path: Path, state: unknown) => void;
  /** Called on Back and Forward, once the address has changed. */
  listen: (onPop: () => void) => void;
};

export function createPath({ pathname, search, hash }: Path): string {
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  const fragment = hash && hash !== '#' ? (hash.startsWith('#') ? hash : `#${hash}`) : '';
  return `${pathname}${query}${fragment}`;
}

/** `to` seen from `from`: relative addresses resolve as links in the page would. */
export function resolveTo(to: To, from: Path): Path {
  if (typeof to !== 'string') {
    return {
      pathname: to.pathname ?? from.pathname,
      search: to.search ?? (to.pathname === undefined ? from.search : ''),
      hash: to.hash ?? '',
    };
  }
  const url = new URL(to, `http://coffer.invalid${from.pathname}${from.search}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

export function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function isEntryState(value: unknown): value is EntryState {
  return typeof value === 'object' && value !== null && 'key' in value && 'usr' in value;
}

export function createBrowserHistory(win: HistoryWindow = window): BrowserHistory {
  // The first entry gets a key too, so Back to it finds its scroll position.
  if (!isEntryState(win.history.state)) {
    win.history.replaceState({ usr: null, key: newKey() } satisfies EntryState, '');
  }
  const entry = (state: unknown): EntryState => ({ usr: state ?? null, key: newKey() });
  return {
    location: () => {
      const { pathname, search, hash } = win.location;
      const { usr, key } = isEntryState(win.history.state)
        ? win.history.state
        : { usr: null, key: 'default' };
      return { pathname, search, hash, state: usr, key };
    },
    push: (path, state) => win.history.pushState(entry(state), '', createPath(path)),
    replace: (path, state) => win.history.replaceState(entry(state), '', createPath(path)),
    listen: (onPop) => win.addEventListener('popstate', onPop),
  };
}
