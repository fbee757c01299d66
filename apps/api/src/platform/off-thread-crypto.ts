import { availableParallelism } from 'node:os';
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';

/**
 * SHA-256 and AES-256-GCM over streamed bytes, computed on worker threads: on the API's one
 * JavaScript thread they were the ceiling of document uploads (ADR 019), and a worker lets
 * a second core do them while the main thread receives and writes. Results are exactly
 * node:crypto's. Chunks are copied once, into blocks of `blockBytes` handed over to the
 * worker: one message and one file write per block instead of one per socket read, which
 * cost the main thread more than the cipher itself.
 */
const blockBytes = 256 * 1024;
const blocksInFlightMax = 4;

// Plain JavaScript evaluated as the worker, so it runs the same under node, tsx and vitest:
// a .ts worker file would need each of their loaders inside the worker.
const workerSource = `
const { parentPort } = require('node:worker_threads');
const { createCipheriv, createHash } = require('node:crypto');
const jobs = new Map();
const answer = (id, bytes, extra) => {
  const out = new Uint8Array(bytes);
  parentPort.postMessage({ id, bytes: out, ...extra }, [out.buffer]);
};
parentPort.on('message', (message) => {
  const { id, op } = message;
  try {
    if (op === 'sha256') jobs.set(id, createHash('sha256'));
    else if (op === 'encrypt') {
      jobs.set(id, createCipheriv('aes-256-gcm', Buffer.from(message.key), Buffer.from(message.iv)));
    } else if (op === 'update') {
      const { buffer, byteOffset, byteLength } = message.bytes;
      const out = jobs.get(id).update(Buffer.from(buffer, byteOffset, byteLength));
      if (message.isAnswered) answer(id, out);
    } else if (op === 'final') {
      const job = jobs.get(id);
      jobs.delete(id);
      if (message.isHash) parentPort.postMessage({ id, digest: job.digest('hex') });
      else answer(id, job.final(), { tag: new Uint8Array(job.getAuthTag()) });
    } else if (op === 'drop') jobs.delete(id);
  } catch (error) {
    jobs.delete(id);
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

type WorkerAnswer = {
  id: number;
  bytes?: Uint8Array;
  tag?: Uint8Array;
  digest?: string;
  error?: string;
};
type Waiter = { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void };

/** One worker and the answers its jobs wait for, in the order they were asked. */
class CryptoWorker {
  private worker: Worker | null = null;
  private readonly waiters = new Map<number, Waiter[]>();

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource, { eval: true });
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
  post(message: Record<string, unknown> & { id: number }, transfer: ArrayBuffer[] = []): void {
    this.started().postMessage(message, transfer);
  }

  ask(message: Record<string, unknown> & { id: number }, transfer: ArrayBuffer[] = []) {
    return new Promise<WorkerAnswer>((resolve, reject) => {
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

/** A job on the next worker in turn: the id it is known by there, and that worker. */
function newJob(): { id: number; worker: CryptoWorker } {
  jobsStarted += 1;
  return { id: jobsStarted, worker: workers[jobsStarted % workers.length] as CryptoWorker };
}

/** Chunks gathered into blocks of `blockBytes`, each in a buffer of its own to hand over. */
class Blocks {
  private block = new Uint8Array(blockBytes);
  private filledBytes = 0;

  /** Adds the chunk's bytes; the blocks it filled, in order. */
  add(chunk: Buffer): Uint8Array[] {
    const filled: Uint8Array[] = [];
    for (let read = 0; read < chunk.length; ) {
      const taken = Math.min(chunk.length - read, blockBytes - this.filledBytes);
      this.block.set(chunk.subarray(read, read + taken), this.filledBytes);
      this.filledBytes += taken;
      read += taken;
      if (this.filledBytes === blockBytes) filled.push(this.rest());
    }
    return filled;
  }

  /** The block gathered so far (maybe empty); the next starts afresh. */
  rest(): Uint8Array {
    const rest = this.block.subarray(0, this.filledBytes);
    this.block = new Uint8Array(blockBytes);
    this.filledBytes = 0;
    return rest;
  }
}

/** Bytes the worker handed back, as a Buffer without copying. */
function bufferOf(bytes: Uint8Array | undefined): Buffer {
  return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.alloc(0);
}

/** A SHA-256 fed chunk by chunk without waiting; the hex digest once everything is in. */
export class OffThreadSha256 {
  private readonly job = newJob();
  private readonly blocks = new Blocks();
  private isFinished = false;

  constructor() {
    this.job.worker.post({ id: this.job.id, op: 'sha256' });
  }

  private send(bytes: Uint8Array): void {
    const { id, worker } = this.job;
    worker.post({ id, op: 'update', bytes, isAnswered: false }, [bytes.buffer as ArrayBuffer]);
  }

  update(chunk: Buffer): void {
    for (const block of this.blocks.add(chunk)) this.send(block);
  }

  async digestHex(): Promise<string> {
    this.isFinished = true;
    this.send(this.blocks.rest());
    const answer = await this.job.worker.ask({ id: this.job.id, op: 'final', isHash: true });
    return answer.digest ?? '';
  }

  /** Frees the worker's state of a hash that will not be finished. */
  discard(): void {
    if (!this.isFinished) this.job.worker.post({ id: this.job.id, op: 'drop' });
    this.isFinished = true;
  }
}

/** AES-256-GCM encryption as a stream, like createCipheriv's; the tag once it has ended. */
export class OffThreadAesGcmEncryption extends Transform {
  private readonly job = newJob();
  private readonly blocks = new Blocks();
  private tag: Buffer | null = null;
  private pushed: Promise<void> = Promise.resolve();
  private blocksInFlight = 0;
  private continueWriting: (() => void) | null = null;

  constructor(key: Buffer, iv: Buffer) {
    super();
    this.job.worker.post({
      id: this.job.id,
      op: 'encrypt',
      key: new Uint8Array(key),
      iv: new Uint8Array(iv),
    });
  }

  /**
   * Sends a block without waiting for its ciphertext, which is pushed when it comes back,
   * in order: each block waiting for the last one's answer left the worker idle between
   * messages, and a busy machine made every such wait a scheduling delay.
   */
  private send(bytes: Uint8Array): void {
    const { id, worker } = this.job;
    const answered = worker.ask({ id, op: 'update', bytes, isAnswered: true }, [
      bytes.buffer as ArrayBuffer,
    ]);
    this.blocksInFlight += 1;
    this.pushed = this.pushed.then(async () => {
      const answer = await answered;
      this.blocksInFlight -= 1;
      this.push(bufferOf(answer.bytes));
      const continueWriting = this.continueWriting;
      this.continueWriting = null;
      continueWriting?.();
    });
    // A failure ends the stream; `pushed` stays rejected, so nothing after it is pushed.
    this.pushed.catch((error: unknown) => this.destroy(error as Error));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (const block of this.blocks.add(chunk)) this.send(block);
    // At most `blocksInFlightMax` blocks a stream wait in the worker: memory stays bounded.
    if (this.blocksInFlight < blocksInFlightMax) done();
    else this.continueWriting = () => done();
  }

  override _flush(done: TransformCallback): void {
    const { id, worker } = this.job;
    this.send(this.blocks.rest());
    this.pushed
      .then(() => worker.ask({ id, op: 'final', isHash: false }))
      .then((answer) => {
        this.tag = bufferOf(answer.tag);
        done(null, bufferOf(answer.bytes));
      }, done);
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    if (this.tag === null) this.job.worker.post({ id: this.job.id, op: 'drop' });
    done(error);
  }

  getAuthTag(): Buffer {
    if (this.tag === null)
      throw new Error('the authentication tag exists once the stream has ended');
    return this.tag;
  }
}
