import { isStaffRole } from '@coffer/contracts/auth';
import type { ErrorCode } from '@coffer/contracts/errors';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from './app-error.ts';
import { findActiveSession, type SessionContext, sessionCookieName } from './sessions.ts';

/**
 * Who may call a route; every API route declares one in `config.access`.
 * public: anyone · user: any signed-in person · customer: signed-in customers only ·
 * staff: support and admin · admin: admin only.
 */
export type Access = 'public' | 'user' | 'customer' | 'staff' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    /** The signed-in session, or null for a visitor. */
    session: SessionContext | null;
  }
}

export type RegisteredRoute = { method: string; url: string; access: Access | undefined };

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function isAllowed(access: Access, session: SessionContext | null): ErrorCode | null {
  if (access === 'public') return null;
  if (!session) return 'unauthenticated';
  if (access === 'user') return null;
  if (access === 'customer') return session.role === 'customer' ? null : 'forbidden';
  if (access === 'staff') return isStaffRole(session.role) ? null : 'not_found';
  return session.role === 'admin' ? null : isStaffRole(session.role) ? 'forbidden' : 'not_found';
}

/**
 * The request's own origin, for the CSRF check: the configured public URL, or the scheme
 * and host the request came to. Behind a trusted proxy (COFFER_TRUST_PROXY) those are the
 * ones the browser used, from X-Forwarded-Proto and X-Forwarded-Host; nobody else can set them.
 */
function isSameOrigin(request: FastifyRequest, origin: string, publicUrl: string): boolean {
  return origin === publicUrl || origin === `${request.protocol}://${request.host}`;
}

/**
 * Records every route with its access declaration (a test fails when one has none),
 * resolves the session cookie, refuses cross-site unsafe requests, and enforces the
 * declaration. Customers asking for staff routes get 404, as if they did not exist.
 */
export function registerAccessControl(app: FastifyInstance, routes: RegisteredRoute[]): void {
  app.decorateRequest('session', null);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, access: route.config?.access });
    }
  });
  // Before the body is even parsed: a visitor learns nothing about a route's input.
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const origin = request.headers.origin;
    // SameSite=Lax already keeps the cookie off cross-site POSTs; this is the second lock.
    if (
      unsafeMethods.has(request.method) &&
      origin &&
      !isSameOrigin(request, origin, app.config.publicUrl)
    ) {
      throw new AppError('forbidden', { message: 'Cross-site requests are not allowed.' });
    }
    const token = request.cookies[sessionCookieName(app.config)];
    if (token) request.session = await findActiveSession(app.db, token);
    // The not-found handler runs hooks too; it has no route to declare anything.
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (access === undefined)
      throw new Error(`route ${request.routeOptions.url} declares no access`);
    const refusal = isAllowed(access, request.session);
    if (refusal) throw new AppError(refusal);
  });
}

/** The signed-in session of a route declared user/customer/staff/admin. */
export function sessionOf(request: FastifyRequest): SessionContext {
  if (!request.session) throw new AppError('unauthenticated');
  return request.session;
}

/** Who did a staff action, from where, and why: what the audit log records. */
export type StaffAction = { staff: SessionContext; ipAddress: string; reason: string };

export function staffActionOf(request: FastifyRequest, reason: string): StaffAction {
  return { staff: sessionOf(request), ipAddress: request.ip, reason };
}
