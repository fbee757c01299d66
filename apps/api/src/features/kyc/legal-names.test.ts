// Legal names (issue #31 item 7) and starting again after a rejection (item 10): what the
// verification form asks for, where an approved legal name shows, and what a rejected
// submission gives back to start the next one from.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { todayUtc } from '@coffer/contracts/statements';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { requestCard } from '../../../test/cards.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { staffClient } from '../../../test/http.ts';
import { pngBytes, submissionFields, uploadDocument } from '../../../test/kyc.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;
let support: Awaited<ReturnType<typeof staffClient>>;
let admin: Awaited<ReturnType<typeof staffClient>>;

beforeAll(async () => {
  db = await openTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-legal-names-test-'));
  app = await buildTestApp(db, { COFFER_DATA_DIR: dataDir });
  await app.ready();
  support = await staffClient(app, 'support');
  admin = await staffClient(app, 'admin');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

/** Uploads a document and submits it with `changes` to the usual fields; the response. */
async function submit(customer: TestCustomer, changes: Record<string, unknown> = {}) {
  const upload = await uploadDocument(customer.client, pngBytes());
  expect(upload.statusCode, upload.body).toBe(201);
  return customer.client.post('/api/v1/kyc/submissions', {
    ...submissionFields(upload.json().id),
    ...changes,
  });
}

async function submittedId(customer: TestCustomer, changes: Record<string, unknown> = {}) {
  const response = await submit(customer, changes);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

/** What staff and the customer's own papers call the customer. */
async function namesShown(customer: TestCustomer) {
  const month = todayUtc().slice(0, 7);
  const statement = await customer.client.get(`/api/v1/statements?month=${month}`);
  const pdf = await customer.client.get(`/api/v1/statements?month=${month}&format=pdf`);
  const list = await support.client.get(
    `/api/v1/admin/users?search=${encodeURIComponent(customer.body.email)}`,
  );
  const detail = await support.client.get(`/api/v1/admin/users/${customer.user.id}`);
  return {
    statement: statement.json().accountHolder as string,
    pdf: await pdfText(pdf.rawPayload),
    list: list.json().items[0].legalName as string | null,
    detail: detail.json().legalName as string | null,
  };
}

/** Whether staff searching for `term` see the customer in the list. */
async function foundByStaffSearch(term: string, customer: TestCustomer): Promise<boolean> {
  const list = await support.client.get(`/api/v1/admin/users?search=${encodeURIComponent(term)}`);
  expect(list.statusCode, list.body).toBe(200);
  return list.json().items.some((item: { id: string }) => item.id === customer.user.id);
}

describe('the legal name on the verification form', () => {
  it('refuses a missing or overlong name, markup, digits and direction overrides, storing nothing', async () => {
    const customer = await createCustomer(app);
    for (const [legalName, message] of [
      ['', 'Enter your legal name as it is on your ID'],
      ['   ', 'Enter your legal name as it is on your ID'],
      ['A'.repeat(101), 'Use at most 100 characters'],
      ['<img src=x onerror=alert(1)>', 'Use letters, spaces, hyphens, apostrophes and dots only'],
      ['<b>Greta</b>', 'Use letters, spaces, hyphens, apostrophes and dots only'],
      ['Greta \u202Ereklaw', 'Remove the invisible control character (U+202E)'],
      ['Greta \u2066Walker\u2069', 'Remove the invisible control character (U+2066)'],
      ['R2-D2', 'Use letters, spaces, hyphens, apostrophes and dots only'],
      ['-Greta', 'Use letters, spaces, hyphens, apostrophes and dots only'],
    ] as const) {
      const response = await submit(customer, { legalName });
      expect(response.statusCode, legalName).toBe(400);
      expect(response.json().error.fields).toMatchObject({ legalName: message });
    }
    const missing = await submit(customer, { legalName: undefined });
    expect(missing.json().error.fields).toMatchObject({
      legalName: 'Enter your legal name as it is on your ID',
    });
    const stored = await db.query('SELECT 1 FROM kyc_submissions WHERE user_id = $1', [
      customer.user.id,
    ]);
    expect(stored.rows).toHaveLength(0);
  });

  it('takes a name in Arabic script, trimmed, and shows it to staff as typed', async () => {
    const customer = await createCustomer(app);
    await submittedId(customer, { legalName: '  فاطمة الزهراء  ' });
    const queue = (await support.client.get('/api/v1/admin/queues/kyc')).json().items;
    const mine = queue.find((item: { user: { id: string } }) => item.user.id === customer.user.id);
    expect(mine.legalName).toBe('فاطمة الزهراء');
  });
});

describe('where the verified legal name shows', () => {
  it('shows the username until a verification is approved, then the legal name everywhere', async () => {
    const customer = await createCustomer(app, { balance: '500.00' });
    const { username } = customer.body;
    const before = await namesShown(customer);
    expect(before).toMatchObject({ statement: username, list: null, detail: null });
    expect(before.pdf).toContain(`Account holder: ${username}`);

    const submissionId = await submittedId(customer, { legalName: "Greta O'Brien-Walker" });
    // A name typed but not yet checked by staff is nobody's legal name yet.
    expect((await namesShown(customer)).statement).toBe(username);
    expect(await foundByStaffSearch("o'brien-walk", customer)).toBe(false);
    const approved = await support.client.post(`/api/v1/admin/kyc/${submissionId}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().legalName).toBe("Greta O'Brien-Walker");

    const after = await namesShown(customer);
    expect(after).toMatchObject({
      statement: "Greta O'Brien-Walker",
      list: "Greta O'Brien-Walker",
      detail: "Greta O'Brien-Walker",
    });
    expect(after.pdf).toContain("Account holder: Greta O'Brien-Walker");
    // Staff find her by part of it, in any case, as by her username.
    expect(await foundByStaffSearch("o'brien-WALK", customer)).toBe(true);
    const card = await requestCard(customer);
    expect(card.statusCode, card.body).toBe(201);
    expect(card.json().holderName).toBe("GRETA O'BRIEN-WALKER");
    const audit = await db.query<{ after: { legalName?: string } }>(
      "SELECT after FROM audit_events WHERE subject_user_id = $1 AND action = 'kyc_approved'",
      [customer.user.id],
    );
    expect(audit.rows[0]?.after.legalName).toBe("Greta O'Brien-Walker");
  });

  it('leaves the legal name alone when a verification is rejected', async () => {
    const customer = await createCustomer(app);
    const first = await submittedId(customer, { legalName: 'Greta Walker' });
    await support.client.post(`/api/v1/admin/kyc/${first}/approve`, {});
    const second = await submittedId(customer, { legalName: 'Somebody Else' });
    await admin.client.post(`/api/v1/admin/kyc/${second}/reject`, {
      reason: 'Not the same person',
    });
    expect((await namesShown(customer)).detail).toBe('Greta Walker');
  });

  it('prints a name holding markup as the same text in the PDF and the statement', async () => {
    // The form refuses markup; a name stored before that rule, or by hand, is still text.
    const customer = await createCustomer(app);
    const hostile = '<b>Greta</b> & "Walker" <script>alert(1)</script>';
    await db.query('UPDATE users SET legal_name = $2 WHERE id = $1', [customer.user.id, hostile]);
    const shown = await namesShown(customer);
    expect(shown.statement).toBe(hostile);
    expect(shown.pdf).toContain(`Account holder: ${hostile}`);
  });
});

describe('starting again after a rejection', () => {
  it('gives back every field the customer typed once rejected, and nothing while pending', async () => {
    const customer = await createCustomer(app);
    const typed = {
      legalName: 'Yuki Tanaka',
      idType: 'national_id',
      idNumber: 'JP-998877',
      address: '1-2-3 Shibuya\nTokyo 150-0002',
      dateOfBirth: '1992-07-30',
    };
    const submissionId = await submittedId(customer, typed);
    expect((await customer.client.get('/api/v1/kyc')).json().rejectedDetails).toBeNull();
    await support.client.post(`/api/v1/admin/kyc/${submissionId}/reject`, {
      reason: 'The address does not match the document',
    });
    const overview = (await customer.client.get('/api/v1/kyc')).json();
    expect(overview.rejectedDetails).toEqual(typed);
    // The document is uploaded again: the rejected one's is not offered for reuse.
    expect(JSON.stringify(overview)).not.toContain('documentId');

    await submittedId(customer, { ...typed, address: '1-2-3 Shibuya, Tokyo 150-0002' });
    expect((await customer.client.get('/api/v1/kyc')).json().rejectedDetails).toBeNull();
  });

  it('gives back a submission from before legal names with the name left to fill in', async () => {
    const customer = await createCustomer(app);
    const submissionId = await submittedId(customer);
    await db.query('UPDATE kyc_submissions SET legal_name = NULL WHERE id = $1', [submissionId]);
    await support.client.post(`/api/v1/admin/kyc/${submissionId}/reject`, { reason: 'Blurred' });
    const overview = (await customer.client.get('/api/v1/kyc')).json();
    expect(overview.rejectedDetails).toMatchObject({ legalName: null, idNumber: 'P1234567' });
  });
});
