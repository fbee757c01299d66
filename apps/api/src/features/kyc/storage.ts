import { createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assert } from '../../platform/assert.ts';
import { OffThreadSealing } from '../../platform/off-thread-crypto.ts';
import { type SecretKey, type SecretKeys, secretKeyById } from '../../platform/secret-keys.ts';

/**
 * Where identity documents live. Only this interface is used by the feature, so a store
 * other than the local disk (an S3-compatible bucket) can replace it without touching it.
 * Keys are chosen by the server (UUIDs), never by the uploader.
 */
export type DocumentStorage = {
  /**
   * Stores `source` under `key`, encrypted with the current secret key, with the SHA-256
   * of its bytes computed as they go by; if `source` fails, nothing is left under the key.
   * `freeChunks` says the chunks of `source` are nobody else's, so they may be taken rather
   * than copied (ADR 026). The row keeps the id of the secret key it answers.
   */
  write(
    key: string,
    source: Readable,
    options?: { freeChunks?: boolean },
  ): Promise<{ sha256: string; secretKeyId: string }>;
  /**
   * The stored bytes as written, opened with the secret key `secretKeyId`. The whole file
   * is checked before anything is returned: bytes changed at rest reject with
   * DocumentIntegrityError, and are never handed out, not even in part.
   */
  read(key: string, secretKeyId: string): Promise<Readable>;
  /** Removes the file; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Every stored key last written before `time`: the clean-up compares them with the database. */
  keysWrittenBefore(time: Date): Promise<string[]>;
};

const cipherName = 'aes-256-gcm';
const ivBytes = 12;
const tagBytes = 16;
const keyPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A key of its own for documents, derived from a COFFER_SECRET_KEY key (HKDF-SHA-256). */
function documentKey(secretKey: SecretKey): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey.material, 'coffer', 'kyc-documents', 32));
}

/** A stored document whose bytes are not the ones written: refused, never served. */
export class DocumentIntegrityError extends Error {
  override name = 'DocumentIntegrityError';
  constructor(storageKey: string) {
    super(`identity document ${storageKey} failed its integrity check: changed at rest`);
  }
}

/** Takes the bytes and drops them: the first read of a file only checks its tag. */
function discarding(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/** Writes all of `bytes` at `position`: a write may take fewer than it was given. */
async function writeFully(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  for (let written = 0; written < bytes.length; ) {
    const { bytesWritten } = await handle.write(
      bytes,
      written,
      bytes.length - written,
      position + written,
    );
    written += bytesWritten;
  }
}

/**
 * Local disk under `directory`, each file AES-256-GCM encrypted as IV, ciphertext, tag.
 * Both directions stream: memory use does not grow with the file.
 */
export function localDocumentStorage(directory: string, secretKeys: SecretKeys): DocumentStorage {
  const currentKey = documentKey(secretKeys.current);
  const keyOf = (secretKeyId: string) => documentKey(secretKeyById(secretKeys, secretKeyId));
  const fileOf = (storageKey: string) => {
    assert(keyPattern.test(storageKey), 'a storage key is a server-chosen UUID');
    return path.join(directory, storageKey);
  };
  let isReady: Promise<unknown> | null = null;
  const ready = () => {
    isReady ??= mkdir(directory, { recursive: true, mode: 0o700 });
    return isReady;
  };

  return {
    async write(storageKey, source, options) {
      await ready();
      const file = fileOf(storageKey);
      const iv = randomBytes(ivBytes);
      // On a worker thread, which also writes: on the API's own thread the cipher was the
      // ceiling of uploads.
      const sealing = new OffThreadSealing(currentKey, iv);
      // Opened before anything streams, so a failure can never race the file's creation.
      const handle = await open(file, 'wx', 0o600);
      try {
        await writeFully(handle, iv, 0);
        const end = await sealing.writeSealed(source, {
          fd: handle.fd,
          position: ivBytes,
          freeChunks: options?.freeChunks,
        });
        await writeFully(handle, sealing.authTag(), end);
        // On disk before the upload is answered: the row that follows says it is stored.
        await handle.sync();
      } catch (error) {
        await handle.close();
        await rm(file, { force: true });
        throw error;
      }
      await handle.close();
      return { sha256: sealing.sha256Hex(), secretKeyId: secretKeys.current.id };
    },

    async read(storageKey, secretKeyId) {
      const key = keyOf(secretKeyId);
      const handle = await open(fileOf(storageKey));
      try {
        const { size } = await handle.stat();
        const iv = Buffer.alloc(ivBytes);
        const tag = Buffer.alloc(tagBytes);
        await handle.read(iv, 0, ivBytes, 0);
        await handle.read(tag, 0, tagBytes, size - tagBytes);
        // `end` is inclusive; an empty ciphertext never happens (empty files are refused).
        const encrypted = { start: ivBytes, end: size - tagBytes - 1 };
        const deciphering = () => createDecipheriv(cipherName, key, iv).setAuthTag(tag);
        // GCM checks its tag only after the last byte: the whole file is read once to check
        // it, then again to answer, both from this one open file. A change made between the
        // two still fails the second read's stream.
        const checking = deciphering();
        let isTampered = false;
        checking.once('error', () => {
          isTampered = true;
        });
        await pipeline(
          handle.createReadStream({ ...encrypted, autoClose: false }),
          checking,
          discarding(),
        ).catch((error: unknown) => {
          throw isTampered ? new DocumentIntegrityError(storageKey) : error;
        });
        const plain = new PassThrough();
        pipeline(handle.createReadStream(encrypted), deciphering(), plain).catch((error: unknown) =>
          plain.destroy(error as Error),
        );
        return plain;
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async remove(storageKey) {
      await rm(fileOf(storageKey), { force: true });
    },

    async keysWrittenBefore(time) {
      await ready();
      const keys: string[] = [];
      for (const name of await readdir(directory)) {
        if (!keyPattern.test(name)) continue;
        // A file removed since the listing (a concurrent clean-up) is simply gone.
        const found = await stat(path.join(directory, name)).catch(() => null);
        if (found && found.mtimeMs < time.getTime()) keys.push(name);
      }
      return keys;
    },
  };
}

/** The documents directory inside COFFER_DATA_DIR: never under a static root. */
export function kycDocumentsDirectory(dataDir: string): string {
  return path.join(dataDir, 'kyc-documents');
}
