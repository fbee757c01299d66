import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { assert } from './assert.ts';

/**
 * SHA-256 and AES-256-GCM of streamed bytes ("sealing"), both computed on a worker thread,
 * which also writes the ciphertext to its file: on the API's one JavaScript thread the
 * cipher was the ceiling of document uploads (ADR 019), and a worker lets a second core
 * seal and write while the main thread receives. Results are exactly node:crypto's.
 *
 * Bytes travel in blocks of one SharedArrayBuffer made once (ADR 020): the main thread
 * copies a stream's chunks into a free block, the worker hashes it, encrypts it and writes
 * the ciphertext, and the block returns to the pool with the worker's answer. On Node 24 a
 * fresh buffer per block was garbage that only a major GC of the whole heap reclaimed
 * (V8 13.6 no longer scavenges for young buffers below 128 MB), which tripled the CPU per
 * MB and grew the process by 100 MB during five uploads; pooled blocks make none. Writing
 * on the worker (ADR 026) spares each block two thread hand-offs through libuv's pool and
 * the main thread's wait for them, a sixth of an upload's CPU.
 */
// 512 KB blocks, two at the worker per stream, cost about a tenth less CPU per MB than 256
// KB and four: half the messages and file writes for the same bytes in flight.
const blockBytes = 512 * 1024;
/**
 * 64 MB of address space, of which only blocks ever used are resident (see `BlockPool.take`):
 * a stream holds at most three (one filling, two at the worker), and a slow
 * upload holds its filling block until it ends or times out, so the pool is made large
 * enough that many slow uploads do not leave the others waiting.
 */
const poolBlocks = 128;
/** Blocks a stream may have at the worker at once: enough to keep it busy while reading. */
const blocksInFlightMax = 2;

// Plain JavaScript evaluated as the worker, so it runs the same under node, tsx and vitest:
// a .ts worker file would need each of their loaders inside the worker.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { createCipheriv, createHash } = require('node:crypto');
const { writeSync } = require('node:fs');
const { memory, blockBytes } = workerData;
const jobs = new Map();
// The cipher's output is freed as soon as it is written: left to the garbage collector it
// would pile up as the main thread's buffers did.
const release = (bytes) => {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) bytes.buffer.transfer(0);
};
parentPort.on('message', (message) => {
  const { id, op, block } = message;
  try {
    if (op === 'start') {
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(message.key), Buffer.from(message.iv));
      const { fd, position } = message;
      jobs.set(id, { hash: createHash('sha256'), cipher, fd, position });
    } else if (op === 'seal') {
      const job = jobs.get(id);
      const bytes = Buffer.from(memory, block * blockBytes, message.byteLength);
      job.hash.update(bytes);
      const sealed = job.cipher.update(bytes);
      // GCM is a stream mode: as many bytes out as in.
      if (sealed.length !== bytes.length) throw new Error('ciphertext length differs');
      // A write may take fewer bytes than it was given.
      for (let written = 0; written < sealed.length; ) {
        written += writeSync(job.fd, sealed, written, sealed.length - written, job.position + written);
      }
      job.position += sealed.length;
      release(sealed);
      parentPort.postMessage({ id, block });
    } else if (op === 'final') {
      const { hash, cipher } = jobs.get(id);
      jobs.delete(id);
      if (cipher.final().length !== 0) throw new Error('GCM left bytes at the end');
      parentPort.postMessage({ id, sha256: hash.digest('hex'), tag: new Uint8Array(cipher.getAuthTag()) });
    } else if (op === 'drop') jobs.delete(id);
  } catch (error) {
    jobs.delete(id);
    parentPort.postMessage({ id, block, error: String(error) });
  }
});
`;

/**
 * Fixed blocks of one SharedArrayBuffer, lent out one holder at a time: a block is never
 * handed out again before it is given back, and giving back one not lent out is a bug.
 */
export class BlockPool {
  readonly memory: SharedArrayBuffer;
  private readonly free: number[];
  private readonly lent = new Set<number>();
  private readonly waiting: ((block: number) => void)[] = [];

  constructor(
    readonly blockBytes: number,
    blocks: number,
  ) {
    this.memory = new SharedArrayBuffer(blockBytes * blocks);
    // Reversed so that block 0 is taken first.
    this.free = Array.from({ length: blocks }, (_, block) => blocks - 1 - block);
  }

  /**
   * A free block, or the first one given back if none is: memory stays bounded however
   * many streams run. Last given, first taken, so a few blocks serve every stream and the
   * pages of the others are never touched (never resident).
   */
  take(): Promise<number> {
    const block = this.free.pop();
    if (block === undefined) return new Promise((resolve) => this.waiting.push(resolve));
    this.lent.add(block);
    return Promise.resolve(block);
  }

  give(block: number): void {
    assert(this.lent.has(block), `block ${block} given back but not lent out`);
    const next = this.waiting.shift();
    if (next) next(block);
    else {
      this.lent.delete(block);
      this.free.push(block);
    }
  }

  get freeBlocks(): number {
    return this.free.length;
  }

  /** The block's first `byteLength` bytes, without copying. */
  bytesOf(block: number, byteLength = this.blockBytes): Buffer {
    return Buffer.from(this.memory, block * this.blockBytes, byteLength);
  }
}

export const sealingBlocks = new BlockPool(blockBytes, poolBlocks);

type WorkerAnswer = {
  id: number;
  block?: number;
  sha256?: string;
  tag?: Uint8Array;
  error?: string;
};
type Waiter = { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void };

/** One worker and the answers its jobs wait for, in the order they were asked. */
class CryptoWorker {
  private worker: Worker | null = null;
  private readonly waiters = new Map<number, Waiter[]>();

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { memory: sealingBlocks.memory, blockBytes },
    });
    // Idle workers must not keep the process (or a test run) alive.
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
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
  post(message: Record<string, unknown> & { id: number }): void {
    this.started().postMessage(message);
  }

  ask(message: Record<string, unknown> & { id: number }): Promise<WorkerAnswer> {
    return new Promise<WorkerAnswer>((resolve, reject) => {
      const worker = this.started();
      const waiting = this.waiters.get(message.id) ?? [];
      waiting.push({ resolve, reject });
      this.waiters.set(message.id, waiting);
      worker.postMessage(message);
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
 * Frees a chunk's memory now that its bytes are copied, if the chunk is all of its buffer
 * (ES2024's ArrayBuffer transfer, which the shared ES2023 typings do not declare yet): a
 * socket's chunks otherwise wait for a major GC on Node 24 (see the top of this file).
 */
function free(chunk: Buffer): void {
  if (chunk.byteOffset === 0 && chunk.buffer.byteLength === chunk.length) {
    (chunk.buffer as ArrayBuffer & { transfer(byteLength: number): ArrayBuffer }).transfer(0);
  }
}

/** A block being filled, or at the worker: which one, and how many bytes it holds. */
type Filled = { block: number; byteLength: number };

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

  private seal({ block, byteLength }: Filled): Promise<void> {
    const sealed = this.worker
      .ask({ id: this.id, op: 'seal', block, byteLength })
      // Answered or dead, the worker no longer touches the block.
      .then(
        () => sealingBlocks.give(block),
        (error: unknown) => {
          sealingBlocks.give(block);
          throw error;
        },
      );
    // Awaited in turn; one failing while an earlier one is awaited is not unhandled.
    sealed.catch(() => {});
    return sealed;
  }

  /**
   * Writes the ciphertext of `source` to the open file `fd` from `position` on, and answers
   * the position after its last byte. Once it has settled, however it ended (the source
   * failing, a write failing), the worker touches neither the file nor any block of this
   * stream again, so the caller may close the file, and every block is back in the pool.
   * With `freeChunks`, the chunks of `source` are nobody else's (a request body read from
   * its socket) and each one's memory is freed as soon as it is copied: afterwards it
   * reads as empty. A sealing writes one stream.
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
    const atWorker: Promise<void>[] = [];
    let filling: Filled | null = null;
    let end = position;
    const send = (filled: Filled) => {
      atWorker.push(this.seal(filled));
      end += filled.byteLength;
    };
    try {
      for await (const chunk of source) {
        for (let read = 0; read < chunk.length; ) {
          filling ??= { block: await sealingBlocks.take(), byteLength: 0 };
          const taken = Math.min(chunk.length - read, blockBytes - filling.byteLength);
          chunk.copy(sealingBlocks.bytesOf(filling.block), filling.byteLength, read, read + taken);
          filling.byteLength += taken;
          read += taken;
          if (filling.byteLength === blockBytes) {
            send(filling);
            filling = null;
          }
          while (atWorker.length >= blocksInFlightMax) await atWorker.shift();
        }
        if (freeChunks) free(chunk);
      }
      if (filling !== null) {
        send(filling);
        filling = null;
      }
      for (let sealed = atWorker.shift(); sealed; sealed = atWorker.shift()) await sealed;
      const answer = await this.worker.ask({ id, op: 'final' });
      this.result = { sha256: answer.sha256 ?? '', tag: Buffer.from(answer.tag ?? []) };
      return end;
    } finally {
      if (filling !== null) sealingBlocks.give(filling.block);
      // The worker answers in order: once these have, it writes nothing more to `fd`,
      // which the caller may then close (and the system give to another file).
      await Promise.allSettled(atWorker);
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
