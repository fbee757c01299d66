import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { OffThreadAesGcmEncryption, OffThreadSha256 } from './off-thread-crypto.ts';

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

describe('crypto on a worker thread', () => {
  it('hashes exactly as node:crypto does, however the bytes are cut', async () => {
    const bytes = randomBytes(1_000_003);
    const hashes = [new OffThreadSha256(), new OffThreadSha256()];
    for (const chunk of unevenChunks(bytes)) for (const hash of hashes) hash.update(chunk);
    const expected = createHash('sha256').update(bytes).digest('hex');
    expect(await Promise.all(hashes.map((hash) => hash.digestHex()))).toEqual([expected, expected]);
    const empty = new OffThreadSha256();
    expect(await empty.digestHex()).toBe(createHash('sha256').digest('hex'));
  });

  it('encrypts and tags exactly as createCipheriv does, several streams at once', async () => {
    const key = randomBytes(32);
    const inputs = [randomBytes(3_000_017), randomBytes(65_536), randomBytes(1)];
    const encrypted = await Promise.all(
      inputs.map(async (bytes) => {
        const iv = randomBytes(12);
        const cipher = new OffThreadAesGcmEncryption(key, iv);
        const ciphertext = await buffer(Readable.from(unevenChunks(bytes)).pipe(cipher));
        return { iv, ciphertext, tag: cipher.getAuthTag() };
      }),
    );
    inputs.forEach((bytes, index) => {
      const { iv, ciphertext, tag } = encrypted[index] ?? expect.fail('no result');
      const reference = createCipheriv('aes-256-gcm', key, iv);
      expect(ciphertext.equals(Buffer.concat([reference.update(bytes), reference.final()]))).toBe(
        true,
      );
      expect(tag.equals(reference.getAuthTag())).toBe(true);
    });
  });

  it('has no tag for a stream that was cut off, and fails nothing else', async () => {
    const cipher = new OffThreadAesGcmEncryption(randomBytes(32), randomBytes(12));
    const failed = once(cipher, 'error');
    cipher.write(randomBytes(1000));
    cipher.destroy(new Error('connection dropped'));
    expect(String(await failed)).toMatch(/connection dropped/);
    expect(() => cipher.getAuthTag()).toThrow(/once the stream has ended/);
    const hash = new OffThreadSha256();
    hash.update(Buffer.from('abc'));
    hash.discard();
    const next = new OffThreadSha256();
    next.update(Buffer.from('abc'));
    expect(await next.digestHex()).toBe(createHash('sha256').update('abc').digest('hex'));
  });
});
