// Document bytes, uploads and submissions for this feature's tests.
import { readdir } from 'node:fs/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestClient } from './http.ts';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// An IHDR chunk (1×1, 8-bit RGB): file-type reads the first chunk's type.
const pngHeaderChunk = Buffer.from('0000000d4948445200000001000000010802000000907753de', 'hex');

/** `sizeBytes` bytes that start as a PNG: type detection reads only the start. */
export function pngBytes(sizeBytes = 2_000): Buffer {
  const bytes = Buffer.alloc(sizeBytes, 0x41);
  Buffer.concat([pngSignature, pngHeaderChunk]).copy(bytes);
  return bytes;
}

export function jpegBytes(sizeBytes = 2_000): Buffer {
  const bytes = Buffer.alloc(sizeBytes, 0x00);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]).copy(bytes);
  return bytes;
}

export function pdfBytes(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );
}

export function uploadDocument(
  client: TestClient,
  bytes: Buffer,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return client.request('POST', '/api/v1/kyc/documents', bytes, {
    'content-type': 'application/octet-stream',
    ...headers,
  });
}

/** The fields of a valid submission, for an adult. */
export function submissionFields(documentId: string) {
  return {
    legalName: 'Greta Marie Walker',
    idType: 'passport',
    idNumber: 'P1234567',
    address: '1 Main Street, Springfield',
    dateOfBirth: '1990-05-17',
    documentId,
  };
}

/** Uploads a PNG and submits it; returns the submission's id. */
export async function submitted(client: TestClient): Promise<string> {
  const upload = await uploadDocument(client, pngBytes());
  if (upload.statusCode !== 201) throw new Error(`upload failed: ${upload.body}`);
  const submission = await client.post(
    '/api/v1/kyc/submissions',
    submissionFields(upload.json().id),
  );
  if (submission.statusCode !== 201) throw new Error(`submission failed: ${submission.body}`);
  return submission.json().id;
}

/** The files in the documents directory. */
export async function storedFiles(app: FastifyInstance): Promise<string[]> {
  return readdir(`${app.config.dataDir}/kyc-documents`).catch(() => []);
}
