import { todayUtc } from '@coffer/contracts/statements';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { openTestDatabase } from '../../test/database.ts';
import { usd } from '../../test/factories.ts';
import { signedUpClient } from '../../test/http.ts';
import { pdfPageTexts } from '../../test/pdf-text.ts';
import { writeTestSiteFile } from '../../test/site-file.ts';
import { startSmtpSink } from '../../test/smtp-sink.ts';
import type { Database } from '../db/client.ts';
import type { AccountId } from '../ledger/ledger.ts';
import { translateText } from './i18n.ts';
import { sandboxMarkingMessage as sandboxMarking } from './sandbox-marking.ts';

type Installation = {
  app: FastifyInstance;
  db: Database;
  sink: Awaited<ReturnType<typeof startSmtpSink>>;
};

// An operator's site file with every field filled in: nothing in it may remove the marking.
const siteFile = writeTestSiteFile({
  institutionName: 'Harbour Test Credit Union',
  tagline: 'Real banking, for real.',
  contactEmail: 'hello@harbour.example',
  whoWeAre: 'A member-owned credit union.',
});

/** Its own database and SMTP sink: two mail dispatchers must not share one outbox. */
async function startInstallation(isSandbox: boolean): Promise<Installation> {
  const db = await openTestDatabase();
  const sink = await startSmtpSink();
  const app = await buildTestApp(db, {
    COFFER_SANDBOX: isSandbox ? '1' : '0',
    COFFER_SITE_FILE: siteFile.path,
    SMTP_URL: sink.url,
  });
  await app.ready();
  return { app, db, sink };
}

async function stopInstallation(installation: Installation | undefined): Promise<void> {
  await installation?.app.close();
  await installation?.sink.stop();
  await installation?.db.close();
}

const sandbox = {} as { current: Installation };
const production = {} as { current: Installation };

// Two fresh databases to migrate take longer than one.
const startUpTimeoutMs = 120_000;

beforeAll(async () => {
  sandbox.current = await startInstallation(true);
  production.current = await startInstallation(false);
}, startUpTimeoutMs);
afterAll(async () => {
  await stopInstallation(sandbox.current);
  await stopInstallation(production.current);
  siteFile.remove();
});

/** A customer who signed up in German and chose no language: written to in German. */
function germanCustomer(app: FastifyInstance) {
  return signedUpClient(app, {}, { 'accept-language': 'de-DE,de;q=0.9' });
}

/** A customer with enough entries this month for a statement of several PDF pages. */
async function customerWithLongStatement(
  { app }: Installation,
  signUp: (app: FastifyInstance) => ReturnType<typeof signedUpClient> = signedUpClient,
) {
  const customer = await signUp(app);
  const found = await app.db.query<{ id: AccountId }>(
    "SELECT id FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
    [customer.user.id],
  );
  const walletId = found.rows[0]?.id;
  if (!walletId) throw new Error('sign-up opens a wallet');
  const lineCount = 120;
  const settlement = await app.ledger.systemAccount('settlement', usd);
  await app.ledger.post({
    kind: 'deposit',
    memo: 'Interest',
    lines: [
      ...Array.from({ length: lineCount }, () => ({ accountId: walletId, amountMinor: 10n })),
      { accountId: settlement, amountMinor: -10n * BigInt(lineCount) },
    ],
  });
  await app.ledger.assertInvariants();
  return customer;
}

const month = todayUtc().slice(0, 7);

describe('in sandbox mode', () => {
  it('marks the subject and the body of every email, as the SMTP server receives it', async () => {
    const { app, sink } = sandbox.current;
    const { body } = await signedUpClient(app);
    const mail = await sink.waitForMail({ to: body.email, subject: /Confirm your email/ });
    expect(mail.subject).toBe(
      `[${sandboxMarking}] Confirm your email address for Harbour Test Credit Union`,
    );
    expect(mail.text.split('\n')[0]).toBe(sandboxMarking);
    expect(mail.text).toContain('/verify-email?token=');

    const devMailbox = (await app.inject({ method: 'GET', url: '/api/v1/dev/mail' })).json();
    const shown = devMailbox.messages.find((message: { to: string }) => message.to === body.email);
    // The dev mailbox shows what was sent (the parser ends a text body with a line break).
    expect(shown).toMatchObject({ subject: mail.subject, text: mail.text.trimEnd() });
  });

  it('starts a CSV statement with the marking', async () => {
    const { client } = await customerWithLongStatement(sandbox.current);
    const csv = await client.get(`/api/v1/statements?month=${month}&format=csv`);
    expect(csv.statusCode).toBe(200);
    const [firstLine, secondLine] = csv.body.split('\r\n');
    // After the byte-order mark that tells spreadsheets the file is UTF-8.
    expect(firstLine).toBe(`\uFEFF${sandboxMarking}`);
    expect(secondLine).toBe('Date (UTC),Type,Description,Amount,Currency,Balance');
  });

  it('marks every page of a PDF statement', async () => {
    const { client } = await customerWithLongStatement(sandbox.current);
    const pdf = await client.get(`/api/v1/statements?month=${month}&format=pdf`);
    expect(pdf.statusCode).toBe(200);
    const pages = await pdfPageTexts(pdf.rawPayload);
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => {
      expect(page, `page ${index + 1}`).toContain(sandboxMarking);
    });
  });
});

describe('in sandbox mode, in the reader’s language', () => {
  const germanMarking = translateText('de', sandboxMarking);

  it('has a German marking in the catalog', () => {
    expect(germanMarking).not.toBe(sandboxMarking);
    expect(germanMarking).toMatch(/SANDBOX/);
  });

  it('marks a German’s email in German, as sent and in the dev mailbox', async () => {
    const { app, sink } = sandbox.current;
    const { body } = await germanCustomer(app);
    const mail = await sink.waitForMail({ to: body.email, subject: /E-Mail/ });
    expect(mail.subject.startsWith(`[${germanMarking}] `)).toBe(true);
    const [first, second] = mail.text.split('\n');
    expect(first).toBe(germanMarking);
    expect(second).toBe(
      translateText(
        'de',
        'This email comes from a test installation of Coffer. No real money or account is involved.',
      ),
    );
    expect(mail.text).not.toContain(sandboxMarking);
    const devMailbox = (await app.inject({ method: 'GET', url: '/api/v1/dev/mail' })).json();
    const shown = devMailbox.messages.find((message: { to: string }) => message.to === body.email);
    expect(shown).toMatchObject({ subject: mail.subject, text: mail.text.trimEnd() });
  });

  it('marks a German’s CSV and every page of their PDF statement in German', async () => {
    const { client } = await customerWithLongStatement(sandbox.current, germanCustomer);
    const csv = await client.get(`/api/v1/statements?month=${month}&format=csv`);
    expect(csv.body.split('\r\n')[0]).toBe(`\uFEFF${germanMarking}`);
    const pdf = await client.get(`/api/v1/statements?month=${month}&format=pdf`);
    const pages = await pdfPageTexts(pdf.rawPayload);
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => {
      expect(page, `page ${index + 1}`).toContain(germanMarking);
      expect(page, `page ${index + 1}`).not.toContain(sandboxMarking);
    });
  });
});

describe('outside sandbox mode', () => {
  it('sends emails, CSV and PDF statements without any marking', async () => {
    const { app, sink } = production.current;
    const { client, body } = await customerWithLongStatement(production.current);
    const mail = await sink.waitForMail({ to: body.email, subject: /Confirm your email/ });
    expect(mail.subject).toBe('Confirm your email address for Harbour Test Credit Union');
    expect(mail.text).not.toMatch(/sandbox/i);

    const csv = (await client.get(`/api/v1/statements?month=${month}&format=csv`)).body;
    expect(csv.split('\r\n')[0]).toBe('\uFEFFDate (UTC),Type,Description,Amount,Currency,Balance');
    expect(csv).not.toMatch(/sandbox/i);

    const pdf = (await client.get(`/api/v1/statements?month=${month}&format=pdf`)).rawPayload;
    const pages = await pdfPageTexts(pdf);
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) expect(page).not.toMatch(/sandbox/i);
    // Nor in the document's properties (its title), which are not compressed.
    expect(pdf.toString('latin1')).not.toMatch(/sandbox/i);
    // The dev mailbox exists only in sandbox mode.
    expect((await app.inject({ method: 'GET', url: '/api/v1/dev/mail' })).statusCode).toBe(404);
  });
});
