import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlockPool, OffThreadSealing, sealingBlocks } from './off-thread-crypto.ts';

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

/** The ciphertext, copied out of the pool's blocks as a file write would take it. */
async function sealAll(sealing: OffThreadSealing, chunks: Iterable<Buffer>, freeChunks = false) {
  const ciphertext: Buffer[] = [];
  for await (const block of sealing.ciphertextOf(
    (async function* () {
      yield* chunks;
    })(),
    { freeChunks },
  )) {
    ciphertext.push(Buffer.from(block));
  }
  return Buffer.concat(ciphertext);
}

describe('hashing and encrypting on a worker thread', () => {
  it('hashes, encrypts and tags exactly as node:crypto does, several streams at once', async () => {
    const key = randomBytes(32);
    const { blockBytes } = sealingBlocks;
    const inputs = [
      randomBytes(3_000_017),
      randomBytes(blockBytes),
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
    const whole = [randomBytes(100_000), randomBytes(sealingBlocks.blockBytes + 1)];
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

  it('has no digest or tag for a stream that failed, and returns every block it held', async () => {
    const freeBefore = sealingBlocks.freeBlocks;
    const sealing = new OffThreadSealing(randomBytes(32), randomBytes(12));
    const failing = (async function* () {
      yield randomBytes(3 * sealingBlocks.blockBytes + 5);
      throw new Error('connection dropped');
    })();
    await expect(
      (async () => {
        for await (const _block of sealing.ciphertextOf(failing)) {
          // The consumer writes each block; this one only reads them.
        }
      })(),
    ).rejects.toThrow(/connection dropped/);
    expect(() => sealing.authTag()).toThrow(/once the stream has ended/);
    expect(() => sealing.sha256Hex()).toThrow(/once the stream has ended/);
    // Blocks still at the worker come back when it answers.
    await expect.poll(() => sealingBlocks.freeBlocks).toBe(freeBefore);

    // A consumer that stops (a failed disk write) gives the blocks back as well.
    const stopped = new OffThreadSealing(randomBytes(32), randomBytes(12));
    for await (const _block of stopped.ciphertextOf(
      (async function* () {
        yield randomBytes(8 * sealingBlocks.blockBytes);
      })(),
    )) {
      break;
    }
    await expect.poll(() => sealingBlocks.freeBlocks).toBe(freeBefore);
    const next = new OffThreadSealing(randomBytes(32), randomBytes(12));
    await sealAll(next, [Buffer.from('abc')]);
    expect(next.sha256Hex()).toBe(createHash('sha256').update('abc').digest('hex'));
  });
});

describe('the block pool', () => {
  it('never hands out a block that is lent, and waits for one given back', async () => {
    const pool = new BlockPool(16, 2);
    const first = await pool.take();
    const second = await pool.take();
    expect(first).not.toBe(second);
    expect(pool.freeBlocks).toBe(0);
    let third: number | null = null;
    const waiting = pool.take().then((block) => {
      third = block;
    });
    await Promise.resolve();
    expect(third).toBeNull();
    pool.give(second);
    await waiting;
    expect(third).toBe(second);
    expect(pool.freeBlocks).toBe(0);
    pool.give(first);
    expect(() => pool.give(first)).toThrow(/not lent out/);
    // Last given, first taken: the same few blocks serve, the rest are never touched.
    expect(await pool.take()).toBe(first);
  });

  it('lends each block as its own memory', async () => {
    const pool = new BlockPool(4, 2);
    const [a, b] = [await pool.take(), await pool.take()];
    pool.bytesOf(a).fill(1);
    pool.bytesOf(b).fill(2);
    expect([...pool.bytesOf(a)]).toEqual([1, 1, 1, 1]);
    expect([...pool.bytesOf(b, 2)]).toEqual([2, 2]);
  });
});
