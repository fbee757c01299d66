import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pathAfterSignIn, safeReturnPath } from './return-to.ts';

const origin = 'https://bank.example';

describe('safeReturnPath', () => {
  it('keeps a page of this site with its query and fragment', () => {
    expect(safeReturnPath('/profile', origin)).toBe('/profile');
    expect(safeReturnPath('/transfer?to=abc#review', origin)).toBe('/transfer?to=abc#review');
  });

  it('refuses addresses that lead to another site', () => {
    for (const candidate of [
      'https://evil.example/profile',
      '//evil.example/profile',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'profile',
      '',
    ]) {
      expect(safeReturnPath(candidate, origin), candidate).toBeNull();
    }
  });

  it('refuses paths that only become another site once the URL parser has normalized them', () => {
    // `/.//evil.example` passes the text checks, and the parser makes it `//evil.example`:
    // the path it returns must not be one that a link or `location.assign` reads as a host.
    for (const candidate of [
      '/.//evil.example/profile',
      '/%2e//evil.example',
      '/x/..//evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
    ]) {
      const path = safeReturnPath(candidate, origin);
      expect(path === null || !path.startsWith('//'), `${candidate} gave ${path}`).toBe(true);
    }
  });

  it('refuses values that are not strings', () => {
    expect(safeReturnPath(undefined, origin)).toBeNull();
    expect(safeReturnPath({ pathname: '/profile' }, origin)).toBeNull();
  });

  it('refuses the sign-in pages themselves, which would bounce straight back', () => {
    expect(safeReturnPath('/signin', origin)).toBeNull();
    expect(safeReturnPath('/SignUp?x=1', origin)).toBeNull();
    expect(safeReturnPath('/reset-password?token=abc', origin)).toBeNull();
  });
});

describe('pathAfterSignIn', () => {
  const noState = { search: '', state: null };
  // It checks the return path against the page's own origin.
  beforeEach(() => vi.stubGlobal('window', { location: { origin } }));
  afterEach(() => vi.unstubAllGlobals());

  it('starts staff at the back office and customers at the dashboard', () => {
    expect(pathAfterSignIn(noState, 'admin')).toBe('/admin');
    expect(pathAfterSignIn(noState, 'support')).toBe('/admin');
    expect(pathAfterSignIn(noState, 'customer')).toBe('/dashboard');
  });

  it('prefers the page the person came from', () => {
    expect(pathAfterSignIn({ search: '?returnTo=%2Fprofile', state: null }, 'admin')).toBe(
      '/profile',
    );
  });
});
