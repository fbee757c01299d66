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
