import net from 'node:net';

/**
 * HTTP/1.1 written by hand over a real connection to a listening app, for what
 * `app.inject` cannot show: bodies cut as a client likes, dropped or never ending, and
 * whether the server closes the connection.
 */
export class RawConnection {
  readonly socket: net.Socket;
  /** Everything the server has sent so far, as text. */
  answer = '';
  isClosed = false;
  readonly closed: Promise<void>;

  constructor(port: number | string) {
    this.socket = net.connect(Number(port), '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.answer += chunk.toString('latin1');
    });
    // A server that closes first makes the next write fail; `isClosed` says so.
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        this.isClosed = true;
        resolve();
      }),
    );
  }

  get statusLine(): string {
    return this.answer.split('\r\n')[0] ?? '';
  }

  /** Writes `piece` again and again, at most `timesMax` times, until the server closes. */
  async writeUntilClosed(piece: Buffer, timesMax = 2_000): Promise<void> {
    for (let sent = 0; !this.isClosed && sent < timesMax; sent += 1) {
      if (this.socket.write(piece)) continue;
      await new Promise((resolve) => {
        this.socket.once('drain', resolve);
        this.socket.once('close', resolve);
      });
    }
    this.socket.destroy();
  }
}

/** A request's head: its request line, its header lines and the blank line after them. */
export function requestHead(requestLine: string, headerLines: readonly string[]): string {
  return [requestLine, ...headerLines, '', ''].join('\r\n');
}

/** `bytes` as one chunk of a chunked body (Transfer-Encoding: chunked). */
export function httpChunk(bytes: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`${bytes.length.toString(16)}\r\n`),
    bytes,
    Buffer.from('\r\n'),
  ]);
}
