import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { kycDocumentBytesMax } from '@coffer/contracts/kyc';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { lastEmailTo, signedUpClient, staffClient, TestClient } from '../../../test/http.ts';
import {
  jpegBytes,
  pdfBytes,
  pngBytes,
  storedFiles,
  submissionFields,
  submitted,
  uploadDocument,
} from '../../../test/kyc.ts';
import { httpChunk, RawConnection, requestHead } from '../../../test/raw-http.ts';
import type { Database } from '../../db/client.ts';
import { sweepKycDocuments } from './cleanup.ts';
import { kycDocumentsDirectory, localDocumentStorage } from './storage.ts';
import { storeInspected } from './upload.ts';

let db: Database;
let app: FastifyInstance;
let support: Awaited<ReturnType<typeof staffClient>>;

beforeAll(async () => {
  db = await openTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-kyc-test-'));
  app = await buildTestApp(db, { COFFER_DATA_DIR: dataDir, COFFER_KYC_RETENTION_DAYS: '30' });
  await app.ready();
  support = await staffClient(app, 'support');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

function errorOf(response: LightMyRequestResponse) {
  return response.json().error as { code: string; message: string; fields?: object };
}

async function documentRowsOf(userId: string): Promise<number> {
  const found = await db.query<{ count: bigint }>(
    'SELECT count(*)::bigint AS count FROM kyc_documents WHERE user_id = $1',
    [userId],
  );
  return Number(found.rows[0]?.count);
}

async function levelOf(userId: string): Promise<number> {
  const found = await db.query<{ level: number }>('SELECT level FROM users WHERE id = $1', [
    userId,
  ]);
  return found.rows[0]?.level ?? 0;
}

/** Every bad upload: refused with its message, and neither a file nor a row kept. */
async function expectRefusedUpload(
  customer: Awaited<ReturnType<typeof signedUpClient>>,
  upload: () => Promise<LightMyRequestResponse>,
  expected: { status: number; message: string },
) {
  const filesBefore = await storedFiles(app);
  const response = await upload();
  expect(response.statusCode, response.body).toBe(expected.status);
  expect(errorOf(response).message).toBe(expected.message);
  expect(await storedFiles(app)).toEqual(filesBefore);
  expect(await documentRowsOf(customer.user.id)).toBe(0);
}

let listening: Promise<string> | undefined;

/** The app over real HTTP, for what inject cannot do (a connection cut, a socket closed). */
function listeningAddress(): Promise<string> {
  listening ??= app.listen({ port: 0, host: '127.0.0.1' });
  return listening;
}

/** The head of an upload written by hand: a customer's cookie (none: a visitor), then more headers. */
function uploadHead(port: string, cookie: string, ...headerLines: string[]): string {
  return requestHead('POST /api/v1/kyc/documents HTTP/1.1', [
    `host: 127.0.0.1:${port}`,
    ...(cookie ? [`cookie: ${cookie}`] : []),
    'content-type: application/octet-stream',
    ...headerLines,
  ]);
}

async function storageKeyOf(submissionId: string): Promise<string> {
  const found = await db.query<{ storage_key: string }>(
    'SELECT d.storage_key FROM kyc_submissions s JOIN kyc_documents d ON d.id = s.document_id WHERE s.id = $1',
    [submissionId],
  );
  return found.rows[0]?.storage_key ?? '';
}

function documentStorage() {
  return localDocumentStorage(kycDocumentsDirectory(app.config.dataDir), app.config.secretKeys);
}

/** The customer's one stored document: its recorded SHA-256 and its bytes read back are `bytes`. */
async function expectStoredExactly(userId: string, bytes: Buffer): Promise<void> {
  const stored = await db.query<{ storage_key: string; sha256: string }>(
    'SELECT storage_key, sha256 FROM kyc_documents WHERE user_id = $1',
    [userId],
  );
  const { storage_key: storageKey, sha256 } = stored.rows[0] ?? expect.fail('no row');
  expect(sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  const readBack = Buffer.concat(
    await (await documentStorage().read(storageKey, 'legacy')).toArray(),
  );
  expect(readBack.equals(bytes)).toBe(true);
}

describe('uploading an identity document', () => {
  it('stores a PNG, JPEG or PDF encrypted, with its type from the bytes, size and SHA-256', async () => {
    const customer = await signedUpClient(app);
    for (const [bytes, mediaType] of [
      [pngBytes(), 'image/png'],
      [jpegBytes(), 'image/jpeg'],
      [pdfBytes(), 'application/pdf'],
    ] as const) {
      const response = await uploadDocument(customer.client, bytes);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ mediaType, sizeBytes: bytes.length });
    }
    const rows = await db.query<{ storage_key: string; sha256: string }>(
      'SELECT storage_key, sha256 FROM kyc_documents WHERE user_id = $1 ORDER BY id',
      [customer.user.id],
    );
    expect(rows.rows).toHaveLength(3);
    const stored = await readFile(
      path.join(kycDocumentsDirectory(app.config.dataDir), rows.rows[2]?.storage_key ?? ''),
    );
    // IV, ciphertext and tag: the PDF's text is nowhere in the file.
    expect(stored.length).toBe(pdfBytes().length + 12 + 16);
    expect(stored.includes(Buffer.from('%PDF'))).toBe(false);
    const storage = documentStorage();
    const readBack = Buffer.concat(
      await (await storage.read(rows.rows[2]?.storage_key ?? '', 'legacy')).toArray(),
    );
    expect(readBack.equals(pdfBytes())).toBe(true);
    expect(rows.rows.map((row) => row.sha256)).toEqual(
      [pngBytes(), jpegBytes(), pdfBytes()].map((bytes) =>
        createHash('sha256').update(bytes).digest('hex'),
      ),
    );
  });

  it('decides the type from the bytes: a PNG named .pdf is a PNG', async () => {
    const customer = await signedUpClient(app);
    const response = await uploadDocument(customer.client, pngBytes(), {
      'content-disposition': 'attachment; filename="passport.pdf"',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().mediaType).toBe('image/png');
  });

  it('refuses a text file named .png, an HTML page and a renamed executable, keeping nothing', async () => {
    const customer = await signedUpClient(app);
    const typeRefusal = { status: 400, message: 'The file must be a JPEG, PNG or PDF.' };
    for (const bytes of [
      Buffer.from('just some text, saved as passport.png\n'.repeat(200)),
      Buffer.from(`<!doctype html><html><script>alert(1)</script></html>${' '.repeat(5000)}`),
      Buffer.concat([Buffer.from('MZ'), Buffer.alloc(5000, 0x90)]),
    ]) {
      await expectRefusedUpload(
        customer,
        () =>
          uploadDocument(customer.client, bytes, {
            'content-disposition': 'attachment; filename="passport.png"',
          }),
        typeRefusal,
      );
    }
  });

  it('refuses an empty file', async () => {
    const customer = await signedUpClient(app);
    await expectRefusedUpload(customer, () => uploadDocument(customer.client, Buffer.alloc(0)), {
      status: 400,
      message: 'The file is empty.',
    });
  });

  it('accepts exactly 10 MB and refuses 10 MB + 1 byte with 413, declared or streamed', async () => {
    const customer = await signedUpClient(app);
    const exact = await uploadDocument(customer.client, pngBytes(kycDocumentBytesMax));
    expect(exact.statusCode, exact.body).toBe(201);
    const exactKey = await db.query<{ storage_key: string }>(
      'DELETE FROM kyc_documents WHERE user_id = $1 RETURNING storage_key',
      [customer.user.id],
    );
    await documentStorage().remove(exactKey.rows[0]?.storage_key ?? '');

    const tooLarge = { status: 413, message: 'The file is larger than 10 MB.' };
    await expectRefusedUpload(
      customer,
      () => uploadDocument(customer.client, pngBytes(kycDocumentBytesMax + 1)),
      tooLarge,
    );
    // Without a length up front the cap is enforced while the bytes arrive.
    const chunks = Readable.from(
      (function* () {
        const bytes = pngBytes(kycDocumentBytesMax + 1);
        for (let offset = 0; offset < bytes.length; offset += 256 * 1024) {
          yield bytes.subarray(offset, offset + 256 * 1024);
        }
      })(),
    );
    const streamed = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/kyc/documents',
        headers: {
          cookie: customer.client.cookie ?? '',
          'content-type': 'application/octet-stream',
        },
        remoteAddress: customer.client.remoteAddress,
        payload: chunks,
      });
    await expectRefusedUpload(customer, streamed, tooLarge);
  });

  it('keeps nothing of a connection dropped halfway', async () => {
    const customer = await signedUpClient(app);
    const filesBefore = await storedFiles(app);
    const address = await listeningAddress();
    const { port } = new URL(address);
    const { socket } = new RawConnection(port);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(uploadHead(port, customer.client.cookie ?? '', 'content-length: 4000000'));
    socket.write(pngBytes(1_000_000));
    await sleep(300);
    socket.destroy();
    // The server notices the close and removes the partial file.
    for (let tries = 0; tries < 50; tries += 1) {
      if ((await storedFiles(app)).length === filesBefore.length) break;
      await sleep(100);
    }
    expect(await storedFiles(app)).toEqual(filesBefore);
    expect(await documentRowsOf(customer.user.id)).toBe(0);
  });

  it('treats a dropped upload as the client’s doing, not as a failure of the server', async () => {
    // Phones lose their connection: that is answered (to nobody) as a 400, not logged as a
    // bug with its stack trace and counted as a 500, which any customer could cause at will.
    const source = new Readable({ read() {} });
    source.push(pngBytes(10_000));
    setTimeout(() => source.destroy(), 50);
    const filesBefore = await storedFiles(app);
    await expect(
      storeInspected(documentStorage(), crypto.randomUUID(), source),
    ).rejects.toMatchObject({ code: 'malformed_request', message: 'The upload was interrupted.' });
    expect(await storedFiles(app)).toEqual(filesBefore);
  });

  it('stores an upload sent over the wire byte for byte, with its SHA-256', async () => {
    const customer = await signedUpClient(app);
    // Over a socket the body's chunks are the API's own, freed as they are stored; the
    // size crosses several of the crypto worker's blocks and ends inside one.
    const bytes = pngBytes(3_000_017);
    randomBytes(bytes.length - 100).copy(bytes, 100);
    const response = await fetch(`${await listeningAddress()}/api/v1/kyc/documents`, {
      method: 'POST',
      headers: { cookie: customer.client.cookie ?? '', 'content-type': 'application/octet-stream' },
      body: Buffer.from(bytes),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      mediaType: 'image/png',
      sizeBytes: bytes.length,
    });
    await expectStoredExactly(customer.user.id, bytes);
  });

  /**
   * Sends `bytes` as HTTP chunks of `chunkBytes` each (chunked encoding lets a client cut a
   * body as it likes: each piece reaches the route as a buffer of its own), asking for the
   * API's health meanwhile; answers the status line and the slowest health answer.
   */
  async function uploadInPieces(cookie: string, bytes: Buffer, chunkBytes: number) {
    const pieces: Buffer[] = [];
    for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
      pieces.push(httpChunk(bytes.subarray(offset, offset + chunkBytes)));
    }
    pieces.push(Buffer.from('0\r\n\r\n'));
    const address = await listeningAddress();
    const { port } = new URL(address);
    const connection = new RawConnection(port);
    connection.socket.write(
      uploadHead(port, cookie, 'transfer-encoding: chunked', 'connection: close'),
    );
    connection.socket.write(Buffer.concat(pieces));
    // Others' requests while the pieces arrive: each must still get its answer. How fast is
    // not asserted (tests never assert on wall time; bench:upload measures it).
    const otherStatuses: number[] = [];
    while (!connection.isClosed) {
      const response = await fetch(`${address}/api/v1/health`);
      await response.arrayBuffer();
      otherStatuses.push(response.status);
      await sleep(50);
    }
    return { statusLine: connection.statusLine, answer: connection.answer, otherStatuses };
  }

  it('stores an upload sent in small pieces whole, and keeps answering others meanwhile', async () => {
    const customer = await signedUpClient(app);
    const bytes = pngBytes(1_000_000);
    randomBytes(bytes.length - 100).copy(bytes, 100);
    const sent = await uploadInPieces(customer.client.cookie ?? '', bytes, 512);
    expect(sent.statusLine).toBe('HTTP/1.1 201 Created');
    expect(sent.otherStatuses.every((status) => status === 200)).toBe(true);
    await expectStoredExactly(customer.user.id, bytes);
  });

  it('refuses an upload cut into pieces of a byte or so, early, and keeps answering others', async () => {
    // Each piece costs the API's one thread a few microseconds whatever its size: a 10 MB
    // document in one-byte pieces would hold it for half a minute.
    const customer = await signedUpClient(app);
    const filesBefore = await storedFiles(app);
    const sent = await uploadInPieces(customer.client.cookie ?? '', pngBytes(200_000), 1);
    // Refused for its pieces (malformed_request), not for its size or type: the inspector
    // counts pieces and stops reading after the first thousand or so, whatever the machine's speed.
    expect(sent.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(sent.answer).toContain('"malformed_request"');
    expect(sent.otherStatuses.every((status) => status === 200)).toBe(true);
    expect(await storedFiles(app)).toEqual(filesBefore);
    expect(await documentRowsOf(customer.user.id)).toBe(0);
  });

  it('answers an oversized upload over the wire with 413 and closes the connection', async () => {
    const customer = await signedUpClient(app);
    const filesBefore = await storedFiles(app);
    const address = await listeningAddress();
    const { port } = new URL(address);
    const connection = new RawConnection(port);
    connection.socket.write(
      uploadHead(port, customer.client.cookie ?? '', `content-length: ${kycDocumentBytesMax + 1}`),
    );
    connection.socket.write(pngBytes(64 * 1024));
    await connection.closed;
    expect(connection.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(connection.answer).toContain('The file is larger than 10 MB.');
    expect(await storedFiles(app)).toEqual(filesBefore);
    expect(await documentRowsOf(customer.user.id)).toBe(0);
  });

  it('reads no more of an upload refused before the route: a visitor’s, staff’s, one over the limit', async () => {
    const { port } = new URL(await listeningAddress());
    // A body that never ends (chunked): only closing the connection stops the reading.
    const refusedAnswer = async (cookie: string) => {
      const connection = new RawConnection(port);
      connection.socket.write(uploadHead(port, cookie, 'transfer-encoding: chunked'));
      await connection.writeUntilClosed(httpChunk(pngBytes(0x10000)));
      expect(connection.isClosed).toBe(true);
      return connection.statusLine;
    };
    expect(await refusedAnswer('')).toBe('HTTP/1.1 401 Unauthorized');
    expect(await refusedAnswer(support.client.cookie ?? '')).toBe('HTTP/1.1 403 Forbidden');
    const customer = await signedUpClient(app);
    for (let upload = 0; upload < 20; upload += 1) {
      expect((await uploadDocument(customer.client, pngBytes())).statusCode).toBe(201);
    }
    expect(await refusedAnswer(customer.client.cookie ?? '')).toBe(
      'HTTP/1.1 429 Too Many Requests',
    );
  });

  it('takes uploads only from signed-in customers', async () => {
    const filesBefore = await storedFiles(app);
    const visitor = await uploadDocument(new TestClient(app), pngBytes());
    expect(visitor.statusCode).toBe(401);
    const staff = await uploadDocument(support.client, pngBytes());
    expect(staff.statusCode).toBe(403);
    expect(await storedFiles(app)).toEqual(filesBefore);
  });

  it('asks for the bytes as application/octet-stream', async () => {
    const customer = await signedUpClient(app);
    const response = await customer.client.post('/api/v1/kyc/documents', { file: 'x' });
    expect(response.statusCode).toBe(415);
    expect(await documentRowsOf(customer.user.id)).toBe(0);
  });

  it('names application/octet-stream in the 415 whatever type was sent instead', async () => {
    const customer = await signedUpClient(app);
    for (const contentType of ['image/png', 'multipart/form-data; boundary=x', 'text/plain']) {
      const response = await uploadDocument(customer.client, pngBytes(), {
        'content-type': contentType,
      });
      expect(response.statusCode, contentType).toBe(415);
      expect(errorOf(response)).toEqual({
        code: 'unsupported_media_type',
        message: "Send the file's bytes as application/octet-stream.",
      });
    }
    expect(await documentRowsOf(customer.user.id)).toBe(0);
  });
});

describe('submitting', () => {
  it('records a pending submission, shown on /kyc and in the account’s activity', async () => {
    const customer = await signedUpClient(app);
    const before = (await customer.client.get('/api/v1/kyc')).json();
    expect(before).toEqual({ level: 1, retentionDays: 30, latest: null, rejectedDetails: null });
    await submitted(customer.client);
    const after = (await customer.client.get('/api/v1/kyc')).json();
    expect(after.latest).toMatchObject({ status: 'pending', idType: 'passport', reason: null });
    const activity = (await customer.client.get('/api/v1/profile/activity')).json().items;
    expect(activity.map((item: { action: string }) => item.action)).toContain('kyc_submitted');
  });

  it('refuses each bad field with its message and stores nothing', async () => {
    const customer = await signedUpClient(app);
    const upload = await uploadDocument(customer.client, pngBytes());
    const fields = submissionFields(upload.json().id);
    const today = new Date();
    const seventeen = `${today.getUTCFullYear() - 17}-01-01`;
    const tomorrow = new Date(today.getTime() + 86_400_000).toISOString().slice(0, 10);
    for (const [change, field, message] of [
      [{ idNumber: '' }, 'idNumber', 'Enter the ID number'],
      [{ address: '   ' }, 'address', 'Enter your address'],
      [{ dateOfBirth: '' }, 'dateOfBirth', 'Enter your date of birth'],
      [{ dateOfBirth: seventeen }, 'dateOfBirth', 'You must be 18 or older'],
      [{ dateOfBirth: tomorrow }, 'dateOfBirth', 'You must be 18 or older'],
      [{ dateOfBirth: '1990-02-30' }, 'dateOfBirth', 'Enter your date of birth as YYYY-MM-DD'],
      [{ idType: 'library_card' }, 'idType', 'Choose the type of ID'],
    ] as const) {
      const response = await customer.client.post('/api/v1/kyc/submissions', {
        ...fields,
        ...change,
      });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(errorOf(response).fields).toMatchObject({ [field]: message });
    }
    const count = await db.query('SELECT 1 FROM kyc_submissions WHERE user_id = $1', [
      customer.user.id,
    ]);
    expect(count.rows).toHaveLength(0);
  });

  it('refuses a date of birth in year 0 or more than 120 years ago on the field, not with a 500', async () => {
    const customer = await signedUpClient(app);
    const upload = await uploadDocument(customer.client, pngBytes());
    const fields = submissionFields(upload.json().id);
    const longAgo = `${new Date().getUTCFullYear() - 121}-01-01`;
    for (const dateOfBirth of ['0000-01-01', '1800-01-01', longAgo]) {
      const response = await customer.client.post('/api/v1/kyc/submissions', {
        ...fields,
        dateOfBirth,
      });
      expect(response.statusCode, `${dateOfBirth}: ${response.body}`).toBe(400);
      expect(errorOf(response).fields).toEqual({ dateOfBirth: 'Enter your real date of birth' });
    }
    const count = await db.query('SELECT 1 FROM kyc_submissions WHERE user_id = $1', [
      customer.user.id,
    ]);
    expect(count.rows).toHaveLength(0);
  });

  it('allows one pending submission at a time', async () => {
    const customer = await signedUpClient(app);
    await submitted(customer.client);
    const upload = await uploadDocument(customer.client, pngBytes());
    const second = await customer.client.post(
      '/api/v1/kyc/submissions',
      submissionFields(upload.json().id),
    );
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).message).toBe('You already have a verification pending review.');
  });

  it('answers another customer’s document as not found', async () => {
    const owner = await signedUpClient(app);
    const other = await signedUpClient(app);
    const upload = await uploadDocument(owner.client, pngBytes());
    const response = await other.client.post(
      '/api/v1/kyc/submissions',
      submissionFields(upload.json().id),
    );
    expect(response.statusCode).toBe(404);
  });

  it('takes submissions only from signed-in customers', async () => {
    const fields = submissionFields('0190a0a0-0000-7000-8000-000000000000');
    expect((await new TestClient(app).post('/api/v1/kyc/submissions', fields)).statusCode).toBe(
      401,
    );
    expect((await support.client.post('/api/v1/kyc/submissions', fields)).statusCode).toBe(403);
  });
});

describe('staff review', () => {
  it('lists pending submissions oldest first', async () => {
    const first = await signedUpClient(app);
    const second = await signedUpClient(app);
    const firstId = await submitted(first.client);
    const secondId = await submitted(second.client);
    const queue = (await support.client.get('/api/v1/admin/queues/kyc')).json().items;
    const ids = queue.map((item: { id: string }) => item.id);
    expect(ids.indexOf(firstId)).toBeLessThan(ids.indexOf(secondId));
    expect(ids.indexOf(firstId)).toBeGreaterThanOrEqual(0);
  });

  it('serves the document to staff only, inert, and records each viewing', async () => {
    const customer = await signedUpClient(app);
    const submissionId = await submitted(customer.client);
    const url = `/api/v1/admin/kyc/${submissionId}/document`;
    expect((await customer.client.get(url)).statusCode).toBe(404);
    expect((await new TestClient(app).get(url)).statusCode).toBe(401);
    const viewed = await support.client.get(url);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.rawPayload.equals(pngBytes())).toBe(true);
    expect(viewed.headers['content-type']).toBe('image/png');
    expect(viewed.headers['content-disposition']).toBe(
      `inline; filename="kyc-${submissionId}.png"`,
    );
    expect(viewed.headers['x-content-type-options']).toBe('nosniff');
    expect(viewed.headers['content-security-policy']).toContain('sandbox');
    const audit = await db.query<{ actor_user_id: string }>(
      "SELECT actor_user_id FROM audit_events WHERE action = 'kyc_document_viewed' AND subject_user_id = $1",
      [customer.user.id],
    );
    expect(audit.rows).toEqual([{ actor_user_id: support.user.id }]);
  });

  it('records a viewing under the submission’s own id, however the address spells it', async () => {
    const customer = await signedUpClient(app);
    const submissionId = await submitted(customer.client);
    const shouted = await support.client.get(
      `/api/v1/admin/kyc/${submissionId.toUpperCase()}/document`,
    );
    expect(shouted.statusCode).toBe(200);
    // Looking up who opened a document by its id must find every opening.
    const audit = await db.query<{ submission_id: string }>(
      "SELECT after->>'submissionId' AS submission_id FROM audit_events WHERE action = 'kyc_document_viewed' AND subject_user_id = $1",
      [customer.user.id],
    );
    expect(audit.rows).toEqual([{ submission_id: submissionId }]);
  });

  it('approves: level 2, an email, the activity entry and the list’s KYC status', async () => {
    const customer = await signedUpClient(app);
    const submissionId = await submitted(customer.client);
    const approved = await support.client.post(`/api/v1/admin/kyc/${submissionId}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      reviewer: { id: support.user.id },
    });
    expect(await levelOf(customer.user.id)).toBe(2);
    expect((await customer.client.get('/api/v1/kyc')).json()).toMatchObject({
      level: 2,
      latest: { status: 'approved' },
    });
    const mail = await lastEmailTo(db, customer.body.email);
    expect(mail.subject).toContain('Your identity is verified');
    expect(mail.link).toBe(`${app.config.publicUrl}/kyc`);
    const bell = (await customer.client.get('/api/v1/notifications')).json().items;
    expect(bell[0]).toMatchObject({
      kind: 'kyc_approved',
      text: 'Your identity is verified: your account is now level 2.',
      link: '/kyc',
      isRead: false,
    });
    const activity = (await customer.client.get('/api/v1/profile/activity')).json().items;
    expect(activity[0]).toMatchObject({ action: 'kyc_approved', isByStaff: true });
    const admin = await staffClient(app, 'admin');
    const list = await admin.client.get(
      `/api/v1/admin/users?search=${encodeURIComponent(customer.body.email)}`,
    );
    expect(list.json().items[0]).toMatchObject({ kycStatus: 'approved', level: 2 });
  });

  it('never lowers a higher level', async () => {
    const customer = await signedUpClient(app);
    const submissionId = await submitted(customer.client);
    await db.query('UPDATE users SET level = 4 WHERE id = $1', [customer.user.id]);
    await support.client.post(`/api/v1/admin/kyc/${submissionId}/approve`, {});
    expect(await levelOf(customer.user.id)).toBe(4);
  });

  it('rejects with a required reason, which the customer sees, and takes a new submission', async () => {
    const customer = await signedUpClient(app);
    const submissionId = await submitted(customer.client);
    const noReason = await support.client.post(`/api/v1/admin/kyc/${submissionId}/reject`, {
      reason: ' ',
    });
    expect(noReason.statusCode).toBe(400);
    const rejected = await support.client.post(`/api/v1/admin/kyc/${submissionId}/reject`, {
      reason: 'The photo is blurred',
    });
    expect(rejected.statusCode).toBe(200);
    expect(await levelOf(customer.user.id)).toBe(1);
    expect((await customer.client.get('/api/v1/kyc')).json().latest).toMatchObject({
      status: 'rejected',
      reason: 'The photo is blurred',
    });
    expect((await lastEmailTo(db, customer.body.email)).text).toContain('The photo is blurred');
    const bell = (await customer.client.get('/api/v1/notifications')).json().items;
    expect(bell[0]).toMatchObject({
      kind: 'kyc_rejected',
      text: 'Your identity verification was not approved: The photo is blurred',
    });
    await submitted(customer.client);
  });

  it('tells the second decision the submission was already decided', async () => {
    const customer = await signedUpClient(app);
    const submissionId = await submitted(customer.client);
    await support.client.post(`/api/v1/admin/kyc/${submissionId}/approve`, {});
    const second = await support.client.post(`/api/v1/admin/kyc/${submissionId}/reject`, {
      reason: 'Too late',
    });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).message).toBe('This verification was already decided.');
    expect(await levelOf(customer.user.id)).toBe(2);
  });

  it('shows staff a customer’s submissions and hides the routes from customers', async () => {
    const customer = await signedUpClient(app);
    await submitted(customer.client);
    const staffView = await support.client.get(`/api/v1/admin/users/${customer.user.id}/kyc`);
    expect(staffView.json().items[0]).toMatchObject({
      idNumber: 'P1234567',
      dateOfBirth: '1990-05-17',
      document: { mediaType: 'image/png', isAvailable: true },
    });
    expect((await customer.client.get('/api/v1/admin/queues/kyc')).statusCode).toBe(404);
  });
});

describe('clean-up and retention', () => {
  it('removes uploads never attached after an hour, and files no row records', async () => {
    const customer = await signedUpClient(app);
    const upload = await uploadDocument(customer.client, pngBytes());
    const documentId = upload.json().id;
    const uploaded = await db.query<{ storage_key: string }>(
      'SELECT storage_key FROM kyc_documents WHERE id = $1',
      [documentId],
    );
    const uploadedKey = uploaded.rows[0]?.storage_key;
    const storage = documentStorage();
    const strayKey = '0190a0a0-0000-7000-8000-00000000beef';
    await storage.write(strayKey, Readable.from([Buffer.from('left by a crash')]));
    const deps = { db, storage, retentionDays: 30 };
    await sweepKycDocuments(deps);
    expect(await storedFiles(app)).toEqual(expect.arrayContaining([strayKey, uploadedKey]));

    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await db.query('UPDATE kyc_documents SET created_at = $2 WHERE id = $1', [
      documentId,
      twoHoursAgo,
    ]);
    await utimes(
      path.join(kycDocumentsDirectory(app.config.dataDir), strayKey),
      twoHoursAgo,
      twoHoursAgo,
    );
    await sweepKycDocuments(deps);
    const left = await storedFiles(app);
    expect(left).not.toContain(strayKey);
    expect(left).not.toContain(uploadedKey);
    const document = await db.query<{ deleted_at: Date | null }>(
      'SELECT deleted_at FROM kyc_documents WHERE id = $1',
      [documentId],
    );
    expect(document.rows[0]?.deleted_at).not.toBeNull();
  });

  it('deletes a rejected submission’s document after the retention days, with an audit entry', async () => {
    const customer = await signedUpClient(app);
    const rejectedId = await submitted(customer.client);
    await support.client.post(`/api/v1/admin/kyc/${rejectedId}/reject`, { reason: 'Expired ID' });
    const approvedId = await submitted(customer.client);
    await support.client.post(`/api/v1/admin/kyc/${approvedId}/approve`, {});
    const storage = documentStorage();
    const deps = { db, storage, retentionDays: 30 };
    const rejectedKey = await storageKeyOf(rejectedId);
    const approvedKey = await storageKeyOf(approvedId);
    await sweepKycDocuments(deps, new Date(Date.now() + 29 * 86_400_000));
    expect(await storedFiles(app)).toEqual(expect.arrayContaining([rejectedKey, approvedKey]));
    await sweepKycDocuments(deps, new Date(Date.now() + 31 * 86_400_000));
    const left = await storedFiles(app);
    expect(left).toContain(approvedKey);
    expect(left).not.toContain(rejectedKey);
    const items = (await support.client.get(`/api/v1/admin/users/${customer.user.id}/kyc`)).json()
      .items;
    expect(
      items.map((item: { document: { isAvailable: boolean } }) => item.document.isAvailable),
    ).toEqual([true, false]);
    expect((await support.client.get(`/api/v1/admin/kyc/${rejectedId}/document`)).statusCode).toBe(
      404,
    );
    const audit = await db.query(
      "SELECT 1 FROM audit_events WHERE action = 'kyc_document_deleted' AND subject_user_id = $1",
      [customer.user.id],
    );
    expect(audit.rows).toHaveLength(1);
  });
});
