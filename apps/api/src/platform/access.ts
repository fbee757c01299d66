import { isStaffRole, type Role } from '@coffer/contracts/auth';
import type { ErrorCode } from '@coffer/contracts/errors';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';
import { AppError } from './app-error.ts';
import { assert } from './assert.ts';
import { sha256Hex } from './crypto.ts';
import { refuseUnsignedOrStale, verifyIssuerSignature } from './issuer-signature.ts';
import { customerLimitOf } from './rate-limits.ts';
import {
  findActiveSession,
  type SessionContext,
  type SessionRow,
  sessionCookieName,
  sessionFromRow,
} from './sessions.ts';

/**
 * Who may call a route; every API route declares one in `config.access`.
 * public: anyone · user: any signed-in person · customer: signed-in customers only ·
 * staff: support and admin · admin: admin only · issuer: the card issuing processor, by
 * an HMAC signature over the body (platform/issuer-signature.ts), never by a session.
 */
export type Access = 'public' | 'user' | 'customer' | 'staff' | 'admin' | 'issuer';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The route answers everyone the same and never reads `request.session` (static files,
     * HTML shells that ask the API for their data): its requests skip the session look-up.
     */
    ignoresSession?: boolean;
    /** The route answers with a Server-Sent Events stream that stays open. */
    isEventStream?: boolean;
    /**
     * A signed-in route that answers someone who must change their password first (who is
     * signed in, the change itself); every other one refuses them (`password_change_required`).
     */
    isOpenBeforePasswordChange?: boolean;
    /**
     * A signed-in route that answers a customer who has not accepted the current terms (who
     * is signed in, the acceptance itself); every other one refuses them
     * (`terms_acceptance_required`).
     */
    isOpenBeforeTermsAcceptance?: boolean;
    /**
     * A `customer` route whose handler reads the session in its own statement, with the
     * route's limit spent there too (Quick Pay in one round trip, ADR 057): when this API
     * process remembers the cookie's customer and wallet (`SessionGuess`), the hook reads
     * nothing and leaves `request.sessionGuess`; the handler's statement checks the session
     * and the route's access (`accessGateSql`) and hands its row to `acceptSessionRow`.
     * Any answer given before that is preceded by the ordinary look-up (`settleSession`), so
     * a visitor or a revoked session is told 401 first, as on every other route.
     */
    isSessionReadByHandler?: boolean;
  }
  interface FastifyInstance {
    /** The customers and main wallets of recent sessions, by token hash (`SessionGuesses`). */
    sessionGuesses: SessionGuesses;
  }
  interface FastifyRequest {
    /** The signed-in session, or null for a visitor. */
    session: SessionContext | null;
    /**
     * Set while the session of an `isSessionReadByHandler` route is not read yet: whose
     * it probably is. Nothing may be done for the request on that word alone.
     */
    sessionGuess: SessionGuess | null;
  }
}

/** Whose a session token probably is: its customer and main wallet, as last read. */
export type SessionGuess = {
  tokenHash: string;
  userId: string;
  wallet: { id: string; currency: string };
};

const sessionGuessesMax = 10_000;

/**
 * The customer and main wallet of the sessions this process has read lately, so that a
 * route that reads its session in its own statement can build its work before: a
 * customer's main wallet and its currency never change. Only a guess: the statement reads
 * the session again and acts only if it is live and still says the same. Bounded: the
 * least recently used is forgotten first, and a forgotten one costs one ordinary look-up.
 */
export class SessionGuesses {
  readonly #byTokenHash = new LRUCache<string, SessionGuess>({ max: sessionGuessesMax });

  get(tokenHash: string): SessionGuess | undefined {
    return this.#byTokenHash.get(tokenHash);
  }

  remember(tokenHash: string, session: SessionContext | null): void {
    if (session?.role !== 'customer' || !session.wallet) {
      this.#byTokenHash.delete(tokenHash);
      return;
    }
    this.#byTokenHash.set(tokenHash, { tokenHash, userId: session.userId, wallet: session.wallet });
  }
}

export type RegisteredRoute = {
  readonly method: string;
  readonly url: string;
  readonly access: Access | undefined;
  /** The route's whole `config`, for the tests that find routes by what they declare. */
  readonly config: FastifyContextConfig | undefined;
  /** The route's zod schemas (params, querystring, body, response), for the fuzzer. */
  readonly schema: FastifySchema | undefined;
  /** The route's handler, for the check that every staff route checks its caller. */
  readonly handler: RouteOptions['handler'];
};

/** The handlers `staffRoutesOf` made: the server refuses a staff route with any other. */
const staffHandlers = new WeakSet<object>();

function isStaffAccess(access: Access | undefined): boolean {
  return access === 'staff' || access === 'admin';
}

function namesOf(routes: RegisteredRoute[]): string {
  return routes.map((route) => `${route.method} ${route.url}`).join(', ');
}

/**
 * Declares every route registered in this plugin context public and session-free: for
 * third-party plugins (static files) whose routes take no `config` of ours.
 */
export function declarePublicFiles(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    route.config = { ...route.config, access: 'public', ignoresSession: true };
  });
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether someone of `role` must have two-factor on to use their routes: staff, where
 * COFFER_STAFF_TWO_FACTOR requires it. The access check and the session's answer (which
 * sends the web app's staff to set it up) both ask this.
 */
export function isTwoFactorRequiredFor(
  role: Role,
  config: Pick<Config, 'isStaffTwoFactorRequired'>,
): boolean {
  return config.isStaffTwoFactorRequired && isStaffRole(role);
}

function refusalFor(
  access: Access,
  session: SessionContext | null,
  config: Pick<Config, 'isStaffTwoFactorRequired'>,
): ErrorCode | null {
  if (access === 'public') return null;
  // Signed machine routes have no person behind them: no session ever reaches them.
  if (access === 'issuer') return 'forbidden';
  if (!session) return 'unauthenticated';
  if (access === 'user') return null;
  if (access === 'customer') return session.role === 'customer' ? null : 'forbidden';
  if (!isStaffRole(session.role)) return 'not_found';
  if (access === 'admin' && session.role !== 'admin') return 'forbidden';
  // Only 'user' routes stay open to them (session, profile, two-factor set-up, sign-out):
  // enough to set it up, and the same session is let in as soon as it is on.
  if (isTwoFactorRequiredFor(session.role, config) && !session.hasTotp) {
    return 'staff_two_factor_required';
  }
  return null;
}

/**
 * Whether a customer has yet to accept the terms published now (`currentVersion`; null:
 * none are). Staff are not customers of the institution: the terms are not theirs to accept.
 */
export function mustAcceptTerms(
  person: { role: Role; acceptedTermsVersion: string | null },
  currentVersion: string | null,
): boolean {
  return (
    person.role === 'customer' &&
    currentVersion !== null &&
    person.acceptedTermsVersion !== currentVersion
  );
}

/**
 * The role's refusal; for someone whose password was set by someone else (npm run
 * create-admin), every signed-in route but the few that let them change it; for a customer
 * who has not accepted the current terms, every signed-in route but the session and the
 * acceptance. A route their role may not know of stays a 404.
 */
function refusalOf(
  request: FastifyRequest,
  access: Access,
  config: Pick<Config, 'isStaffTwoFactorRequired'>,
): ErrorCode | null {
  const refusal = refusalFor(access, request.session, config);
  if (refusal === 'not_found' || access === 'public' || !request.session) return refusal;
  const routeConfig = request.routeOptions.config;
  if (request.session.mustChangePassword && !routeConfig.isOpenBeforePasswordChange) {
    return 'password_change_required';
  }
  if (
    mustAcceptTerms(request.session, request.server.terms?.version ?? null) &&
    !routeConfig.isOpenBeforeTermsAcceptance
  ) {
    return 'terms_acceptance_required';
  }
  return refusal;
}

/**
 * The request's own origin, for the CSRF check: the configured public URL, or the scheme
 * and host the request came to. Behind a trusted proxy (COFFER_TRUST_PROXY) those are the
 * ones the browser used, from X-Forwarded-Proto and X-Forwarded-Host; nobody else can set them.
 */
function isSameOrigin(request: FastifyRequest, origin: string, publicUrl: string): boolean {
  return origin === publicUrl || origin === `${request.protocol}://${request.host}`;
}

/** The access the matched route declared; a request that matched no route has none. */
function declaredAccess(request: FastifyRequest): Access | undefined {
  return request.is404 ? undefined : request.routeOptions.config.access;
}

/**
 * Records every route with its access declaration (the server refuses to start with a
 * route that has none: fail closed); resolves the session cookie; refuses cross-site unsafe requests; and
 * enforces the declaration of the route the router matched. The URL's text decides
 * nothing: the router decodes percent-escapes and accepts absolute-form targets, so
 * `/%61pi/v1/admin/users` and `http://host/api/v1/admin/users` are the same route as
 * `/api/v1/admin/users` and get the same answer. Customers asking for staff routes get
 * 404, as if they did not exist.
 */
export function registerAccessControl(app: FastifyInstance, routes: RegisteredRoute[]): void {
  app.decorateRequest('session', null);
  app.decorateRequest('sessionGuess', null);
  app.decorate('sessionGuesses', new SessionGuesses());
  app.decorateRequest('rawBody', null);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      // Read when asked: a plugin's own onRoute hook (registerPublicFiles) runs after this
      // one and may still declare the route's access.
      routes.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access;
        },
        get config() {
          return route.config;
        },
        get schema() {
          return route.schema;
        },
        handler: route.handler,
      });
    }
  });
  // Fail closed: a server with a route that declares no access does not start, nor one
  // with a staff route whose handler does not check its caller itself.
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((route) => route.access === undefined);
    if (undeclared.length > 0) {
      throw new Error(
        `routes without an access declaration (config.access): ${namesOf(undeclared)}`,
      );
    }
    const unchecked = routes.filter(
      (route) => isStaffAccess(route.access) && !staffHandlers.has(route.handler),
    );
    // accessGateSql knows the customer's rules alone.
    const gated = routes.filter(
      (route) => route.config?.isSessionReadByHandler && route.access !== 'customer',
    );
    if (gated.length > 0) {
      throw new Error(`isSessionReadByHandler on a route not for customers: ${namesOf(gated)}`);
    }
    if (unchecked.length > 0) {
      throw new Error(`staff routes not registered through staffRoutesOf: ${namesOf(unchecked)}`);
    }
  });
  // Before the body is even parsed: a visitor learns nothing about a route's input.
  app.addHook('onRequest', async (request) => {
    const origin = request.headers.origin;
    // SameSite=Lax already keeps the cookie off cross-site POSTs; this is the second lock.
    if (
      unsafeMethods.has(request.method) &&
      origin &&
      !isSameOrigin(request, origin, app.config.publicUrl)
    ) {
      throw new AppError('forbidden', { message: 'Cross-site requests are not allowed.' });
    }
    // The not-found handler runs hooks too: it has no route, and answers nothing private.
    if (request.is404) return;
    const access = declaredAccess(request);
    // Registration refuses such routes; should one slip through, it is closed, not open.
    if (access === undefined) throw new AppError('forbidden');
    if (access === 'issuer') {
      // The body is checked against its signature once read (preValidation, below).
      refuseUnsignedOrStale(request);
      return;
    }
    const token = request.routeOptions.config.ignoresSession
      ? undefined
      : request.cookies[sessionCookieName(app.config)];
    if (token && request.routeOptions.config.isSessionReadByHandler) {
      request.sessionGuess = app.sessionGuesses.get(sha256Hex(token)) ?? null;
      if (request.sessionGuess) return;
    }
    await readSession(request, token);
  });
  // Before the route's schema sees the body: a signed route's input is trusted only once
  // its signature holds, so a bad signature is a 401 and never a validation answer.
  app.addHook('preValidation', async (request) => {
    if (declaredAccess(request) === 'issuer') {
      verifyIssuerSignature(request, app.config.issuingSecret);
    }
  });
}

/**
 * The request's session by the ordinary look-up (which spends the route's limit), then the
 * route's access: the refusal, or rate_limited when no request was left.
 */
async function readSession(request: FastifyRequest, token: string | undefined): Promise<void> {
  let isOverLimit = false;
  if (token) {
    const found = await findActiveSession(request.server.db, token, customerLimitOf(request));
    request.server.sessionGuesses.remember(sha256Hex(token), found.session);
    request.session = found.session;
    isOverLimit = found.isOverLimit;
  }
  refuseOrAdmit(request, isOverLimit);
}

function refuseOrAdmit(request: FastifyRequest, isOverLimit: boolean): void {
  const access = declaredAccess(request);
  if (access === undefined) throw new AppError('forbidden');
  const refusal = refusalOf(request, access, request.server.config);
  if (refusal) throw new AppError(refusal);
  if (isOverLimit) throw new AppError('rate_limited');
}

/**
 * Reads the session of an `isSessionReadByHandler` request the ordinary way, if its
 * statement has not: before anything is done or answered for it but that statement. Throws
 * the route's refusal as the hook would have.
 */
export async function settleSession(request: FastifyRequest): Promise<void> {
  if (!request.sessionGuess) return;
  request.sessionGuess = null;
  await readSession(request, request.cookies[sessionCookieName(request.server.config)]);
}

/**
 * The session row an `isSessionReadByHandler` route's own statement read (none: the
 * cookie's session is not live) and whether it spent one of the route's requests: the
 * same refusals as the hook's, from the same code.
 */
export async function acceptSessionRow(
  request: FastifyRequest,
  row: SessionRow | undefined,
  isSpent: boolean,
): Promise<void> {
  const guess = request.sessionGuess;
  request.sessionGuess = null;
  request.session = row ? await sessionFromRow(request.server.db, row) : null;
  if (guess) request.server.sessionGuesses.remember(guess.tokenHash, request.session);
  refuseOrAdmit(request, row !== undefined && !isSpent);
}

/**
 * The route's access as a SQL condition on the session row `alias` (sessions.ts's columns),
 * for a statement that reads its own session (`isSessionReadByHandler`, customer routes
 * only; `config` is the route's): true exactly when `refusalOf` would let that session in. `termsVersion` is the
 * parameter that carries the current terms' version (`currentTermsVersion`). The answer is
 * still `refusalOf`'s, after the statement; this keeps the statement from acting before.
 */
export function accessGateSql(
  config: Pick<
    FastifyContextConfig,
    'access' | 'isOpenBeforePasswordChange' | 'isOpenBeforeTermsAcceptance'
  >,
  alias: string,
  termsVersion: string,
): string {
  assert(config.access === 'customer', 'accessGateSql knows the customer rules alone');
  return [
    `${alias}.role = 'customer'`,
    config.isOpenBeforePasswordChange ? null : `NOT ${alias}.must_change_password`,
    config.isOpenBeforeTermsAcceptance
      ? null
      : `(${termsVersion}::text IS NULL OR ${alias}.terms_version = ${termsVersion}::text)`,
  ]
    .filter((condition) => condition !== null)
    .join(' AND ');
}

/** The terms version a customer must have accepted, or null: `accessGateSql`'s parameter. */
export function currentTermsVersion(request: FastifyRequest): string | null {
  return request.server.terms?.version ?? null;
}

/**
 * The signed-in session of a route declared user/customer/staff/admin. It checks the
 * matched route's declaration again, so a handler never acts for a caller the hook
 * should have refused, whatever happens to the hook.
 */
export function sessionOf(request: FastifyRequest): SessionContext {
  const access = declaredAccess(request);
  if (access === undefined) throw new AppError('forbidden');
  const refusal = refusalOf(request, access, request.server.config);
  if (refusal) throw new AppError(refusal);
  if (!request.session) throw new AppError('unauthenticated');
  return request.session;
}

/**
 * The session of a staff route's caller. `staffRoutesOf` asks it before every staff
 * handler, so that even a route declared wrongly never shows staff data to a customer or
 * a visitor.
 */
export function staffSessionOf(request: FastifyRequest): SessionContext {
  const session = sessionOf(request);
  if (!isStaffRole(session.role)) throw new AppError('not_found');
  return session;
}

/** The instance a feature's routes plugin (FastifyPluginAsyncZod) is given. */
type RoutesInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
/** A route of a feature's routes plugin, as `app.route` takes it. */
type RouteOf<
  Generic extends RouteGenericInterface,
  Config,
  Schema extends FastifySchema,
> = RouteOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  Generic,
  Config,
  Schema,
  ZodTypeProvider
>;
type RouteHandlerOf<
  Generic extends RouteGenericInterface,
  Config,
  Schema extends FastifySchema,
> = RouteOf<Generic, Config, Schema>['handler'];

/** A staff route's handler: Fastify's, and the caller's staff session after the reply. */
type StaffHandlerOf<Generic extends RouteGenericInterface, Config, Schema extends FastifySchema> = (
  request: Parameters<RouteHandlerOf<Generic, Config, Schema>>[0],
  reply: Parameters<RouteHandlerOf<Generic, Config, Schema>>[1],
  staff: SessionContext,
) => ReturnType<RouteHandlerOf<Generic, Config, Schema>>;

/**
 * How a plugin registers its staff routes: `staffRoutesOf(app).get(url, options, handler)`
 * takes what `app.get` takes, and runs the handler only once `staffSessionOf` has found a
 * staff caller, whom it is given. So even a route declared wrongly never shows staff data
 * to a customer or a visitor, and the server refuses to start with a route declared
 * `staff` or `admin` that was registered any other way.
 */
export function staffRoutesOf(app: RoutesInstance) {
  const routeFor =
    (method: 'GET' | 'POST' | 'PUT' | 'DELETE') =>
    <
      Generic extends RouteGenericInterface = RouteGenericInterface,
      Config = ContextConfigDefault,
      const Schema extends FastifySchema = FastifySchema,
    >(
      url: string,
      options: Omit<RouteOf<Generic, Config, Schema>, 'method' | 'url' | 'handler'>,
      handler: StaffHandlerOf<Generic, Config, Schema>,
    ): void => {
      const staffHandler: RouteHandlerOf<Generic, Config, Schema> = (request, reply) =>
        handler(request, reply, staffSessionOf(request));
      staffHandlers.add(staffHandler);
      app.route<Generic, Config, Schema>({ ...options, method, url, handler: staffHandler });
    };
  return {
    get: routeFor('GET'),
    post: routeFor('POST'),
    put: routeFor('PUT'),
    delete: routeFor('DELETE'),
  };
}

/** Who did a staff action, from where, and why: what the audit log records. */
export type StaffAction = { staff: SessionContext; ipAddress: string; reason: string };

export function staffActionOf(request: FastifyRequest, reason: string): StaffAction {
  return { staff: staffSessionOf(request), ipAddress: request.ip, reason };
}
