/**
 * The worker thread of `off-thread-crypto.ts`: hashes and encrypts the chunks it is sent and
 * writes the ciphertext to the caller's file. Node 24 strips this file's types itself, so it
 * runs the same under node, tsx and vitest; it may use only erasable TypeScript (no enums,
 * no parameter properties) and import only Node's own modules.
 */
import { type CipherGCM, createCipheriv, createHash, type Hash } from 'node:crypto';
import { writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

export type SealingRequest =
  | { id: number; op: 'start'; key: Uint8Array; iv: Uint8Array; fd: number; position: number }
  | { id: number; op: 'seal'; chunks: ArrayBuffer[] }
  | { id: number; op: 'final' }
  | { id: number; op: 'drop' };

export type SealingAnswer = { id: number; sha256?: string; tag?: Uint8Array; error?: string };

type Job = { hash: Hash; cipher: CipherGCM; fd: number; position: number };

const jobs = new Map<number, Job>();

/** Memory freed now rather than by the garbage collector (see off-thread-crypto.ts). */
function free(bytes: Buffer): void {
  const { buffer } = bytes;
  if (
    buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    buffer.byteLength === bytes.length
  ) {
    buffer.transfer(0);
  }
}

function writeAll(job: Job, bytes: Buffer): void {
  // A write may take fewer bytes than it was given.
  for (let written = 0; written < bytes.length; ) {
    written += writeSync(job.fd, bytes, written, bytes.length - written, job.position + written);
  }
  job.position += bytes.length;
}

function jobOf(id: number): Job {
  const job = jobs.get(id);
  if (job === undefined) throw new Error(`no sealing job ${id}`);
  return job;
}

function seal(job: Job, chunks: ArrayBuffer[]): void {
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk);
    job.hash.update(bytes);
    const sealed = job.cipher.update(bytes);
    // GCM is a stream mode: as many bytes out as in.
    if (sealed.length !== bytes.length) throw new Error('ciphertext length differs');
    writeAll(job, sealed);
    free(sealed);
    free(bytes);
  }
}

/** Does what `request` asks; the answer, when it needs one. */
function handle(request: SealingRequest): SealingAnswer | null {
  const { id } = request;
  switch (request.op) {
    case 'start': {
      const cipher = createCipheriv(
        'aes-256-gcm',
        Buffer.from(request.key),
        Buffer.from(request.iv),
      );
      jobs.set(id, {
        hash: createHash('sha256'),
        cipher,
        fd: request.fd,
        position: request.position,
      });
      return null;
    }
    case 'seal':
      seal(jobOf(id), request.chunks);
      return { id };
    case 'final': {
      const { hash, cipher } = jobOf(id);
      jobs.delete(id);
      if (cipher.final().length !== 0) throw new Error('GCM left bytes at the end');
      return { id, sha256: hash.digest('hex'), tag: new Uint8Array(cipher.getAuthTag()) };
    }
    case 'drop':
      jobs.delete(id);
      return null;
  }
}

const port = parentPort;
if (port === null) throw new Error('sealing-worker.ts runs as a worker thread');
port.on('message', (request: SealingRequest) => {
  try {
    const answer = handle(request);
    if (answer !== null) port.postMessage(answer);
  } catch (error) {
    jobs.delete(request.id);
    port.postMessage({ id: request.id, error: String(error) } satisfies SealingAnswer);
  }
});
