import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../../test/zip.ts';
import { newId } from '../../platform/ids.ts';
import { parseSecretKeys } from '../../platform/secret-keys.ts';
import { type DocumentStorage, localDocumentStorage } from '../kyc/storage.ts';
import { writeZip } from './zip.ts';

const secretKeys = parseSecretKeys(`unit:${randomBytes(32).toString('base64')}`);

async function diskStorage(): Promise<{ storage: DocumentStorage; directory: string }> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'coffer-zip-unit-'));
  return { storage: localDocumentStorage(directory, secretKeys), directory };
}

/** Pages of text, as the export's sections produce them. */
async function* pages(count: number, text: string): AsyncGenerator<string> {
  for (let page = 0; page < count; page++) yield `${text} ${page}\n`;
}

describe('writeZip', () => {
  it('writes the files, one after another, into the encrypted storage, and a zip reader reads them', async () => {
    const { storage } = await diskStorage();
    const key = newId();
    const written = await writeZip(storage, key, async (zip) => {
      await zip.add({ name: 'README.txt', content: async () => ['hello'] });
      await zip.add({ name: 'pages.txt', content: async () => pages(1_000, 'line') });
    });
    const zipBytes = await buffer((await storage.read(key, written.secretKeyId)) as Readable);
    expect(BigInt(zipBytes.length)).toBe(written.sizeBytes);
    const files = await readZip(zipBytes);
    expect(files.get('README.txt')?.toString()).toBe('hello');
    expect(files.get('pages.txt')?.toString().split('\n')).toHaveLength(1_001);
  });

  it('fails, leaving no file, when a file fails while it is read', async () => {
    const { storage, directory } = await diskStorage();
    async function* failing(): AsyncGenerator<string> {
      yield 'a start';
      throw new Error('the database went away');
    }
    await expect(
      writeZip(storage, newId(), async (zip) => {
        await zip.add({ name: 'ok.txt', content: async () => ['fine'] });
        await zip.add({ name: 'broken.json', content: async () => failing() });
      }),
    ).rejects.toThrow('the database went away');
    expect(await readdir(directory)).toEqual([]);
  });

  it('fails instead of waiting forever when the storage stops taking bytes', async () => {
    const fullDisk: DocumentStorage = {
      write: async (_key, source) => {
        // Takes a first chunk, then fails as a full disk would.
        await new Promise((resolve) => source.once('data', resolve));
        source.pause();
        throw new Error('no space left on device');
      },
      read: () => Promise.reject(new Error('nothing stored')),
      remove: async () => {},
      keysWrittenBefore: async () => [],
    };
    const random = randomBytes(4 * 1024 * 1024).toString('base64');
    await expect(
      writeZip(fullDisk, newId(), async (zip) => {
        await zip.add({ name: 'big.txt', content: async () => pages(20, random) });
      }),
    ).rejects.toThrow('no space left on device');
  });
});
