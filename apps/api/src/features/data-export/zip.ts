import { Readable, Transform } from 'node:stream';
import { ZipFile } from 'yazl';
import type { DocumentStorage } from '../kyc/storage.ts';

/** Counts the bytes going by: the zip's size, for the download's Content-Length. */
class ByteCounter extends Transform {
  byteCount = 0n;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.byteCount += BigInt(chunk.length);
    this.push(chunk);
    done();
  }
}

export type ZipEntry = {
  name: string;
  content: () => Promise<AsyncIterable<string | Buffer> | Iterable<string | Buffer>>;
};

export type ZipWriter = {
  /** Adds one file and resolves once all of it is in the zip (the next may follow). */
  add(entry: ZipEntry): Promise<void>;
};

/**
 * Writes a zip straight into `storage` under `storageKey`, encrypted on its way, one file
 * after another: yazl deflates each file as it is read and the storage writes what comes
 * out, with back-pressure all along, so memory does not grow with the export. `fill` adds
 * the files; if it throws, nothing is left under the key.
 */
export async function writeZip(
  storage: DocumentStorage,
  storageKey: string,
  fill: (zip: ZipWriter) => Promise<void>,
): Promise<{ sha256: string; secretKeyId: string; sizeBytes: bigint }> {
  const zip = new ZipFile();
  const counter = new ByteCounter();
  // yazl reports its own failures on the ZipFile, not on its output stream.
  zip.on('error', (error: Error) => counter.destroy(error));
  zip.outputStream.pipe(counter);
  // The counter is destroyed with a failure that `writing` and the file's `add` report.
  counter.on('error', () => {});
  const writing = storage.write(storageKey, counter);
  // Observed at once, so that a failure while `fill` still runs is never "unhandled".
  writing.catch(() => {});
  // A storage that fails (a full disk) stops reading: a file waiting on it would wait forever.
  const storageFailure = writing.then(
    () => new Promise<never>(() => {}),
    (error: unknown) => Promise.reject(error),
  );
  storageFailure.catch(() => {});

  const writer: ZipWriter = {
    add: (entry) => {
      const file = zipped(entry);
      // Lost the race to the storage's failure, it may still fail later: nobody waits for it.
      file.catch(() => {});
      return Promise.race([file, storageFailure]);
    },
  };
  function zipped(entry: ZipEntry): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      zip.addReadStreamLazy(entry.name, { mtime: new Date() }, (open) => {
        entry.content().then(
          (content) => {
            const stream = content instanceof Readable ? content : Readable.from(content);
            stream.once('end', resolve);
            // yazl pipes the stream without listening for its errors: fail the zip here.
            stream.once('error', (error) => {
              counter.destroy(error);
              reject(error);
            });
            open(null, stream);
          },
          (error: unknown) => {
            counter.destroy(error as Error);
            reject(error);
          },
        );
      });
    });
  }

  try {
    await fill(writer);
    zip.end();
  } catch (error) {
    counter.destroy(error as Error);
    await writing.catch(() => {});
    throw error;
  }
  const stored = await writing;
  return { ...stored, sizeBytes: counter.byteCount };
}
