import { isStaffRole, type Role } from '@coffer/contracts/auth';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Pages a visitor is never sent back to after signing in: they would bounce straight away. */
const visitorOnlyPaths = ['/signin', '/signup', '/forgot-password', '/reset-password'];

/**
 * The path to return to after signing in, if it is a page of this site. Anything else (an
 * absolute URL, `//evil.example`, `/\evil.example`, a visitor-only page) is ignored, so a
 * crafted link cannot bounce a customer to another site.
 */
export function safeReturnPath(
  candidate: unknown,
  siteOrigin: string = window.location.origin,
): string | null {
  if (typeof candidate !== 'string' || !candidate.startsWith('/')) return null;
  if (candidate.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(candidate, siteOrigin);
  } catch {
    return null;
  }
  // `//evil.example` has another origin; `/.//evil.example` has this one, but the parser
  // removes its dot segment and its path comes out as `//evil.example`, which a link or
  // `location.assign` reads as another host. Neither is a page of this site.
  if (url.origin !== siteOrigin || url.pathname.startsWith('//')) return null;
  const path = url.pathname.toLowerCase();
  if (visitorOnlyPaths.some((page) => path === page || path.startsWith(`${page}/`))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where a signed-out visitor who opened `path` goes: the login page, which sends them back. */
export function signInPathFor(path: string): string {
  const returnTo = safeReturnPath(path);
  return returnTo && returnTo !== '/'
    ? `/signin?returnTo=${encodeURIComponent(returnTo)}`
    : '/signin';
}

/** A link to where a signed-in person starts (PRODUCT.md, Login): staff at the back office. */
export function homeLinkFor(role: Role): { to: string; label: MessageDescriptor } {
  return isStaffRole(role)
    ? { to: '/admin', label: msg`Go to the back office` }
    : { to: '/dashboard', label: msg`Go to your dashboard` };
}

export function homePathFor(role: Role): string {
  return homeLinkFor(role).to;
}

/**
 * Where to go once signed in: the page named by `?returnTo=` or by the router state the
 * guard left (`{ from }`), if it is a page of this site, else the person's home page.
 */
export function pathAfterSignIn(location: { search: string; state: unknown }, role: Role): string {
  const fromQuery = safeReturnPath(new URLSearchParams(location.search).get('returnTo'));
  if (fromQuery) return fromQuery;
  const state = location.state;
  const fromState =
    typeof state === 'object' && state !== null && 'from' in state
      ? safeReturnPath(state.from)
      : null;
  return fromState ?? homePathFor(role);
}
