import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OffThreadSealing } from './off-thread-crypto.ts';

/** More than one message to the worker (512 KB each). */
const severalMessagesBytes = 3 * 512 * 1024 + 5;

/** `bytes` cut into chunks of uneven sizes, as a socket delivers them. */
function unevenChunks(bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (
    let offset = 0, size = 1;
    offset < bytes.length;
    offset += size, size = (size * 7) % 70_001
  ) {
    chunks.push(bytes.subarray(offset, offset + size));
  }
  return chunks;
}

const directory = mkdtempSync(path.join(tmpdir(), 'coffer-sealing-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

/** A file that starts with `prefix`, open for writing, as storage has it before the ciphertext. */
async function fileWithPrefix(prefix: Buffer) {
  files += 1;
  const file = path.join(directory, `sealed-${files}`);
  const handle = await open(file, 'wx');
  await handle.write(prefix, 0, prefix.length, 0);
  return { file, handle };
}

async function* streamOf(chunks: Iterable<Buffer>) {
  yield* chunks;
}

/** The ciphertext as written after a 12-byte prefix, read back from the file. */
async function sealAll(sealing: OffThreadSealing, chunks: Iterable<Buffer>, freeChunks = false) {
  const prefix = randomBytes(12);
  const { file, handle } = await fileWithPrefix(prefix);
  try {
    const end = await sealing.writeSealed(streamOf(chunks), {
      fd: handle.fd,
      position: prefix.length,
      freeChunks,
    });
    const written = readFileSync(file);
    expect(written.subarray(0, prefix.length).equals(prefix)).toBe(true);
    expect(end).toBe(written.length);
    return written.subarray(prefix.length);
  } finally {
    await handle.close();
  }
}

describe('hashing, encrypting and writing on a worker thread', () => {
  it('hashes, encrypts and tags exactly as node:crypto does, several streams at once', async () => {
    const key = randomBytes(32);
    const inputs = [
      randomBytes(3_000_017),
      randomBytes(512 * 1024),
      randomBytes(1),
      Buffer.alloc(0),
    ];
    const sealed = await Promise.all(
      inputs.map(async (bytes) => {
        const iv = randomBytes(12);
        const sealing = new OffThreadSealing(key, iv);
        const ciphertext = await sealAll(sealing, unevenChunks(bytes));
        return { iv, ciphertext, tag: sealing.authTag(), sha256: sealing.sha256Hex() };
      }),
    );
    inputs.forEach((bytes, index) => {
      const { iv, ciphertext, tag, sha256 } = sealed[index] ?? expect.fail('no result');
      const reference = createCipheriv('aes-256-gcm', key, iv);
      expect(ciphertext.equals(Buffer.concat([reference.update(bytes), reference.final()]))).toBe(
        true,
      );
      expect(tag.equals(reference.getAuthTag())).toBe(true);
      expect(sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    });
  });

  it('frees the chunks it was told are its own once copied, and only those', async () => {
    const whole = [randomBytes(100_000), randomBytes(severalMessagesBytes)];
    const copies = whole.map((chunk) => Buffer.from(chunk));
    const sealing = new OffThreadSealing(randomBytes(32), randomBytes(12));
    await sealAll(sealing, whole, true);
    expect(whole.map((chunk) => chunk.length)).toEqual([0, 0]);
    expect(sealing.sha256Hex()).toBe(
      createHash('sha256').update(Buffer.concat(copies)).digest('hex'),
    );

    const kept = randomBytes(50_000);
    const keeping = new OffThreadSealing(randomBytes(32), randomBytes(12));
    await sealAll(keeping, [kept]);
    expect(kept.length).toBe(50_000);
    // A slice of a larger buffer is never freed: the rest of that buffer is someone's.
    const larger = randomBytes(10_000);
    await sealAll(
      new OffThreadSealing(randomBytes(32), randomBytes(12)),
      [larger.subarray(0, 10)],
      true,
    );
    expect(larger.length).toBe(10_000);
  });

  it('has no digest or tag for a stream that failed, and once it settles writes nothing more', async () => {
    const sealing = new OffThreadSealing(randomBytes(32), randomBytes(12));
    const { file, handle } = await fileWithPrefix(Buffer.alloc(0));
    // One large message, which the worker is still sealing when the stream fails.
    const sentBytes = 8 * 1024 * 1024;
    const failing = (async function* () {
      yield randomBytes(sentBytes);
      throw new Error('connection dropped');
    })();
    await expect(sealing.writeSealed(failing, { fd: handle.fd, position: 0 })).rejects.toThrow(
      /connection dropped/,
    );
    expect(() => sealing.authTag()).toThrow(/once the stream has ended/);
    expect(() => sealing.sha256Hex()).toThrow(/once the stream has ended/);
    // What it had sent was written before it settled.
    const sizeWhenSettled = statSync(file).size;
    expect(sizeWhenSettled).toBe(sentBytes);
    await handle.close();
    // Another stream on the same worker completes, and the failed one's file is unchanged.
    await sealAll(new OffThreadSealing(randomBytes(32), randomBytes(12)), [randomBytes(1_000)]);
    expect(statSync(file).size).toBe(sizeWhenSettled);
  });

  it('fails the stream when the file cannot be written, and the next stream still works', async () => {
    const file = path.join(directory, 'read-only');
    await writeFile(file, '');
    const readOnly = await open(file, 'r');
    const sealing = new OffThreadSealing(randomBytes(32), randomBytes(12));
    await expect(
      sealing.writeSealed(streamOf([randomBytes(severalMessagesBytes)]), {
        fd: readOnly.fd,
        position: 0,
      }),
    ).rejects.toThrow(/EBADF/);
    await readOnly.close();
    const next = new OffThreadSealing(randomBytes(32), randomBytes(12));
    await sealAll(next, [Buffer.from('abc')]);
    expect(next.sha256Hex()).toBe(createHash('sha256').update('abc').digest('hex'));
  });
});
