import { fdatasync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { assert } from './assert.ts';
import type { SealingAnswer, SealingRequest } from './sealing-worker.ts';

/**
 * SHA-256 and AES-256-GCM of streamed bytes ("sealing"), both computed on a worker thread,
 * which also writes the ciphertext to its file: on the API's one JavaScript thread the
 * cipher was the ceiling of document uploads (ADR 019), and a worker lets a second core
 * seal and write while the main thread receives. Results are exactly node:crypto's.
 *
 * The main thread hands the stream's own chunks to the worker (ADR 026): a request body's
 * chunks are each a buffer of their own, which are moved to the worker, not copied, and the
 * worker frees each one as soon as it is written, as it frees the cipher's output. On Node
 * 24 buffers left for the garbage collector pile up until a major GC of the whole heap
 * (ADR 020), so nothing here waits for one. Chunks that are not the stream's to give (a
 * slice of a larger buffer, a caller's own bytes) are copied first.
 */
/**
 * Bytes sent to the worker in one message, and the most a stream has at the worker (two
 * messages): 512 KB cost about a tenth less CPU per MB than 256 KB (ADR 020).
 */
const messageBytesMin = 512 * 1024;
const messagesInFlightMax = 2;
/**
 * The file is written back to disk every this many bytes while the stream is read, one
 * write-back at a time. Otherwise every byte waits in the page cache for the caller's
 * final fsync, and five uploads ending together left the CPU idle while the disk wrote
 * 50 MB (ADR 026: 0.46-0.49x of fs without, 0.53x with).
 */
const writeBackEveryBytes = 2 * 1024 * 1024;
const fdatasyncAsync = promisify(fdatasync);
/**
 * Chunks smaller than this are copied into a buffer of the message's own rather than moved:
 * a client chooses how its body is cut (one byte per HTTP chunk, if it likes), and every
 * moved buffer costs hundreds of bytes and a transfer of its own, so a message of half a
 * million one-byte chunks held 300 MB and stopped the main thread for seconds. This bounds
 * a message to a few hundred buffers; a socket's own chunks are usually 64 KB.
 */
const chunkBytesToMoveMin = 4 * 1024;
/** The buffers small chunks are packed into: below the allocator's threshold for mmap. */
const packingBytes = 64 * 1024;

type Waiter = { resolve: (answer: SealingAnswer) => void; reject: (error: Error) => void };

/** The worker's module: a file of its own, type-checked and linted like the rest. */
const workerModule = new URL('./sealing-worker.ts', import.meta.url);

/** One worker and the answers its jobs wait for, in the order they were asked. */
class CryptoWorker {
  private worker: Worker | null = null;
  private readonly waiters = new Map<number, Waiter[]>();

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerModule);
    // Idle workers must not keep the process (or a test run) alive.
    worker.unref();
    worker.on('message', (answer: SealingAnswer) => {
      const waiting = this.waiters.get(answer.id);
      const waiter = waiting?.shift();
      if (waiting?.length === 0) this.waiters.delete(answer.id);
      if (answer.error !== undefined) waiter?.reject(new Error(`crypto worker: ${answer.error}`));
      else waiter?.resolve(answer);
    });
    const fail = (error: Error) => {
      this.worker = null;
      for (const waiting of this.waiters.values())
        for (const waiter of waiting) waiter.reject(error);
      this.waiters.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`crypto worker exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Sends without waiting; a failure reaches the job's next awaited message. */
  post(message: SealingRequest): void {
    this.started().postMessage(message);
  }

  /** Sends, moving `transfer` to the worker, and waits for the answer. */
  ask(message: SealingRequest, transfer: ArrayBuffer[] = []): Promise<SealingAnswer> {
    return new Promise<SealingAnswer>((resolve, reject) => {
      const worker = this.started();
      const waiting = this.waiters.get(message.id) ?? [];
      waiting.push({ resolve, reject });
      this.waiters.set(message.id, waiting);
      worker.postMessage(message, transfer);
    });
  }
}

// One worker per spare core (at least one): on two cores, the main thread and one worker.
const workers = Array.from(
  { length: Math.max(1, Math.min(4, availableParallelism() - 1)) },
  () => new CryptoWorker(),
);
let jobsStarted = 0;

/**
 * The memory of `chunk` to move to the worker: its own buffer when it may be given away
 * and is all of that buffer, otherwise a copy (the rest of a larger buffer is someone's).
 */
function isMovable(chunk: Buffer, isGiven: boolean): boolean {
  return (
    isGiven &&
    chunk.byteOffset === 0 &&
    chunk.buffer.byteLength === chunk.length &&
    chunk.buffer instanceof ArrayBuffer
  );
}

/**
 * The ArrayBuffers of one message to the worker, in the stream's order: large chunks that
 * are the stream's to give are moved as they are; the others are copied, small ones packed
 * together into buffers of at least `chunkBytesToMoveMin` (see there).
 */
class MessageGathering {
  buffers: ArrayBuffer[] = [];
  bytes = 0;
  private packing: Buffer | null = null;
  private packed = 0;

  add(chunk: Buffer, isGiven: boolean): void {
    this.bytes += chunk.length;
    if (chunk.length >= chunkBytesToMoveMin) {
      this.endPacking();
      this.buffers.push(
        isMovable(chunk, isGiven) ? (chunk.buffer as ArrayBuffer) : new Uint8Array(chunk).buffer,
      );
      return;
    }
    if (this.packing && this.packed + chunk.length > this.packing.length) this.endPacking();
    this.packing ??= Buffer.allocUnsafeSlow(packingBytes);
    chunk.copy(this.packing, this.packed);
    this.packed += chunk.length;
  }

  /** The buffers gathered so far, to send; the gathering starts again empty. */
  take(): ArrayBuffer[] {
    this.endPacking();
    const { buffers } = this;
    this.buffers = [];
    this.bytes = 0;
    return buffers;
  }

  private endPacking(): void {
    if (this.packing === null) return;
    // Only the bytes packed, in a buffer of their own the worker can free whole.
    const isFull = this.packed === this.packing.length;
    this.buffers.push(
      isFull
        ? (this.packing.buffer as ArrayBuffer)
        : new Uint8Array(this.packing.subarray(0, this.packed)).buffer,
    );
    this.packing = null;
    this.packed = 0;
  }
}

/**
 * Writes the AES-256-GCM ciphertext of a stream to a file while it is read, and computes
 * the SHA-256 of its bytes, both on a worker; the digest and the tag exist once the stream
 * has ended. The caller owns the file and writes what goes around the ciphertext.
 */
export class OffThreadSealing {
  private readonly id: number;
  private readonly worker: CryptoWorker;
  private isStarted = false;
  private result: { sha256: string; tag: Buffer } | null = null;

  constructor(
    private readonly key: Buffer,
    private readonly iv: Buffer,
  ) {
    jobsStarted += 1;
    this.id = jobsStarted;
    this.worker = workers[jobsStarted % workers.length] as CryptoWorker;
  }

  private seal(chunks: ArrayBuffer[]): Promise<unknown> {
    const sealed = this.worker.ask({ id: this.id, op: 'seal', chunks }, chunks);
    // Awaited in turn; one failing while an earlier one is awaited is not unhandled.
    sealed.catch(() => {});
    return sealed;
  }

  /**
   * Writes the ciphertext of `source` to the open file `fd` from `position` on, and answers
   * the position after its last byte. Once it has settled, however it ended (the source
   * failing, a write failing), the worker writes nothing more to the file, so the caller
   * may close it. With `freeChunks`, the chunks of `source` are nobody else's (a request
   * body read from its socket) and are moved to the worker rather than copied: afterwards
   * they read as empty. A sealing writes one stream.
   */
  async writeSealed(
    source: AsyncIterable<Buffer>,
    { fd, position, freeChunks = false }: { fd: number; position: number; freeChunks?: boolean },
  ): Promise<number> {
    assert(!this.isStarted, 'a sealing writes one stream');
    this.isStarted = true;
    const { id, key, iv } = this;
    this.worker.post({
      id,
      op: 'start',
      key: new Uint8Array(key),
      iv: new Uint8Array(iv),
      fd,
      position,
    });
    const atWorker: Promise<unknown>[] = [];
    const message = new MessageGathering();
    let end = position;
    let writingBack: Promise<void> | null = null;
    let writtenBackTo = position;
    const send = () => {
      end += message.bytes;
      const sealed = this.seal(message.take());
      atWorker.push(sealed);
      if (writingBack === null && end - writtenBackTo >= writeBackEveryBytes) {
        writtenBackTo = end;
        // A hint to the disk, after the worker has written these bytes: a failure shows in
        // the caller's own fsync, which still makes the file durable.
        writingBack = sealed
          .then(() => fdatasyncAsync(fd))
          .catch(() => {})
          .finally(() => {
            writingBack = null;
          });
      }
    };
    try {
      for await (const chunk of source) {
        if (chunk.length === 0) continue;
        message.add(chunk, freeChunks);
        if (message.bytes >= messageBytesMin) send();
        while (atWorker.length >= messagesInFlightMax) await atWorker.shift();
      }
      if (message.bytes > 0) send();
      for (let sealed = atWorker.shift(); sealed; sealed = atWorker.shift()) await sealed;
      const answer = await this.worker.ask({ id, op: 'final' });
      this.result = { sha256: answer.sha256 ?? '', tag: Buffer.from(answer.tag ?? []) };
      return end;
    } finally {
      // The worker answers in order: once these have, and the write-back has ended,
      // nothing here touches `fd` again, which the caller may then close (and the system
      // give to another file).
      await Promise.allSettled(atWorker);
      await writingBack;
      if (this.result === null) this.worker.post({ id, op: 'drop' });
    }
  }

  private finished(): { sha256: string; tag: Buffer } {
    if (this.result === null) throw new Error('the digest and tag exist once the stream has ended');
    return this.result;
  }

  sha256Hex(): string {
    return this.finished().sha256;
  }

  authTag(): Buffer {
    return this.finished().tag;
  }
}
