import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../src/db/client.ts';
import { insertUser } from '../src/features/auth/queries.ts';
import { newId } from '../src/platform/ids.ts';
import { hashPassword } from '../src/platform/passwords.ts';

let addressCounter = 0;

/**
 * One browser's worth of state over `app.inject`: the session cookie it was given and
 * its own client address (so per-address rate limits of one test do not leak into another).
 */
export class TestClient {
  cookie: string | undefined;
  readonly remoteAddress =
    `10.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}.1`;

  constructor(private readonly app: FastifyInstance) {}

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.remoteAddress,
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      ...(payload ? { payload } : {}),
    });
    const setCookie = response.cookies.find((cookie) => cookie.name.endsWith('coffer_session'));
    if (setCookie)
      this.cookie = setCookie.value === '' ? undefined : `${setCookie.name}=${setCookie.value}`;
    return response;
  }

  get = (url: string) => this.request('GET', url);
  /** GET as a browser navigating to a page asks for it. */
  getPage = (url: string) => this.request('GET', url, undefined, { accept: browserPageAccept });
  post = (url: string, payload?: object, headers?: Record<string, string>) =>
    this.request('POST', url, payload, headers);
}

/** The Accept header Chromium sends when it navigates to a page. */
export const browserPageAccept =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

export const strongPassword = 'Plum-Harbor-Lantern-42';

let userCounter = 0;

export function newSignup(
  overrides: Partial<Record<'username' | 'email' | 'phone' | 'password' | 'country', string>> = {},
) {
  userCounter += 1;
  return {
    username: `Tester ${userCounter}`,
    email: `tester${userCounter}.${Date.now()}@example.com`,
    phone: '+14155552671',
    password: strongPassword,
    country: 'US',
    ...overrides,
  };
}

/**
 * Signs up a fresh customer and returns the signed-in client; `headers` are the browser's
 * (its Accept-Language, a language cookie).
 */
export async function signedUpClient(
  app: FastifyInstance,
  overrides: Parameters<typeof newSignup>[0] = {},
  headers: Record<string, string> = {},
) {
  const client = new TestClient(app);
  // Where the app has terms (sandbox mode's sample), the customer accepts them as they sign up.
  const body = {
    ...newSignup(overrides),
    ...(app.terms ? { acceptedTermsVersion: app.terms.version } : {}),
  };
  const response = await client.post('/api/v1/auth/signup', body, headers);
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.body}`);
  const user = response.json().user as { id: string; email: string; language: string | null };
  return { client, body, user };
}

/** The newest queued email to an address, and the first link in it. */
export async function lastEmailTo(
  db: Database,
  to: string,
): Promise<{ subject: string; text: string; link: string | null }> {
  const found = await db.query<{ subject: string; text_body: string }>(
    'SELECT subject, text_body FROM outbox_emails WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1',
    [to],
  );
  const row = found.rows[0];
  if (!row) throw new Error(`no email to ${to}`);
  return {
    subject: row.subject,
    text: row.text_body,
    link: /https?:\/\/\S+/.exec(row.text_body)?.[0] ?? null,
  };
}

export function tokenOf(link: string | null): string {
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** A staff member (created directly: there is no sign-up for staff) and their signed-in client. */
export async function staffClient(app: FastifyInstance, role: 'support' | 'admin') {
  userCounter += 1;
  const email = `${role}${userCounter}.${Date.now()}@coffer.test`;
  const id = newId();
  await insertUser(app.db, {
    id,
    username: `${role === 'admin' ? 'Admin' : 'Support'} ${userCounter}`,
    email,
    phone: null,
    country: 'US',
    role,
    passwordHash: await staffPasswordHash(),
    isEmailVerified: true,
  });
  const client = new TestClient(app);
  const login = await client.post('/api/v1/auth/login', { email, password: strongPassword });
  if (login.statusCode !== 200) throw new Error(`staff login failed: ${login.body}`);
  return { client, user: { id, email } };
}

let cachedStaffHash: Promise<string> | undefined;
const staffPasswordHash = () => {
  cachedStaffHash ??= hashPassword(strongPassword);
  return cachedStaffHash;
};

/**
 * Step-up codes stored and step-up emails queued for a customer: a payment refused before
 * its code (SECURITY.md, "Checks before codes") adds neither.
 */
export async function stepUpTraces(
  db: Database,
  customer: { id: string; email: string },
): Promise<{ codes: number; emails: number }> {
  const found = await db.query<{ codes: number; emails: number }>(
    `SELECT (SELECT count(*)::int FROM step_up_codes WHERE user_id = $1) AS codes,
            (SELECT count(*)::int FROM outbox_emails
              WHERE to_address = $2 AND subject LIKE '%verification code%') AS emails`,
    [customer.id, customer.email],
  );
  return found.rows[0] ?? { codes: -1, emails: -1 };
}

let idempotencyKeyCount = 0;

/** A fresh Idempotency-Key, unique within the test run: each call is a new action. */
export function newIdempotencyKey(): string {
  idempotencyKeyCount += 1;
  return `test-${idempotencyKeyCount}-${Date.now()}`;
}

/** The staff a four-eyes test needs: an admin, a second admin to approve, and support. */
export async function fourEyesStaff(app: FastifyInstance) {
  return {
    admin: (await staffClient(app, 'admin')).client,
    secondAdmin: (await staffClient(app, 'admin')).client,
    support: (await staffClient(app, 'support')).client,
  };
}
