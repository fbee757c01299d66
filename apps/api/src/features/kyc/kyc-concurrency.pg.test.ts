// Decisions and submissions racing each other on a real PostgreSQL server.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { signedUpClient, staffClient } from '../../../test/http.ts';
import { pngBytes, submissionFields, submitted, uploadDocument } from '../../../test/kyc.ts';
import type { Database } from '../../db/client.ts';
import { sweepKycDocuments } from './cleanup.ts';
import { insertSubmission, lockUnattachedDocument } from './queries.ts';
import { kycDocumentsDirectory, localDocumentStorage } from './storage.ts';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-kyc-race-'));
  app = await buildTestApp(db, { COFFER_DATA_DIR: dataDir });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('KYC under concurrency', () => {
  it('lets exactly one of several staff decisions win; the others are told', async () => {
    const reviewers = await Promise.all([
      staffClient(app, 'support'),
      staffClient(app, 'support'),
      staffClient(app, 'admin'),
      staffClient(app, 'admin'),
    ]);
    for (let round = 0; round < 5; round += 1) {
      const customer = await signedUpClient(app);
      const submissionId = await submitted(customer.client);
      const answers = await Promise.all(
        reviewers.map((reviewer, index) =>
          index % 2 === 0
            ? reviewer.client.post(`/api/v1/admin/kyc/${submissionId}/approve`, {})
            : reviewer.client.post(`/api/v1/admin/kyc/${submissionId}/reject`, {
                reason: 'Unreadable',
              }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      const winner = answers.find((answer) => answer.statusCode === 200)?.json();
      const audit = await db.query<{ action: string }>(
        "SELECT action FROM audit_events WHERE subject_user_id = $1 AND action IN ('kyc_approved', 'kyc_rejected')",
        [customer.user.id],
      );
      expect(audit.rows).toEqual([{ action: `kyc_${winner.status}` }]);
      const emails = await db.query(
        "SELECT 1 FROM outbox_emails WHERE to_address = $1 AND subject LIKE '%identity%'",
        [customer.body.email],
      );
      expect(emails.rows).toHaveLength(1);
      const level = await db.query<{ level: number }>('SELECT level FROM users WHERE id = $1', [
        customer.user.id,
      ]);
      expect(level.rows[0]?.level).toBe(winner.status === 'approved' ? 2 : 1);
    }
  });

  it('keeps one pending submission when a customer submits several at once', async () => {
    const customer = await signedUpClient(app);
    const documentIds: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      documentIds.push((await uploadDocument(customer.client, pngBytes())).json().id);
    }
    const answers = await Promise.all(
      documentIds.map((documentId) =>
        customer.client.post('/api/v1/kyc/submissions', submissionFields(documentId)),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const pending = await db.query(
      "SELECT 1 FROM kyc_submissions WHERE user_id = $1 AND status = 'pending'",
      [customer.user.id],
    );
    expect(pending.rows).toHaveLength(1);
  });

  it('never removes the document of a submission made while the clean-up runs', async () => {
    const customer = await signedUpClient(app);
    const upload = await uploadDocument(customer.client, pngBytes());
    const documentId: string = upload.json().id;
    const storage = localDocumentStorage(
      kycDocumentsDirectory(app.config.dataDir),
      app.config.secretKeys,
    );
    // Two hours on, the upload looks abandoned to the sweep; the customer submits it just
    // as the sweep reaches it: the submission holds the document's row while it commits.
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    let sweep: Promise<void> | undefined;
    await db.transaction(async (tx) => {
      expect(await lockUnattachedDocument(tx, documentId, customer.user.id)).toBe(true);
      sweep = sweepKycDocuments({ db, storage, retentionDays: 30 }, later);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await insertSubmission(tx, {
        id: crypto.randomUUID(),
        userId: customer.user.id,
        ...submissionFields(documentId),
        idType: 'passport',
      });
    });
    await sweep;
    const document = await db.query<{ is_deleted: boolean; storage_key: string }>(
      'SELECT deleted_at IS NOT NULL AS is_deleted, storage_key FROM kyc_documents WHERE id = $1',
      [documentId],
    );
    const { is_deleted: isDeleted, storage_key: storageKey } =
      document.rows[0] ?? expect.fail('no document row');
    expect(isDeleted).toBe(false);
    expect((await (await storage.read(storageKey, 'legacy')).toArray()).length).toBeGreaterThan(0);
  });
});
