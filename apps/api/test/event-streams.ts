// Live event streams (SSE) over real HTTP, for the tests of what announces changes.
import type { LiveEvent } from '@coffer/contracts/events';

export type EventStream = {
  status: number;
  contentType: string | null;
  /** Resolves with the next `change` event, or rejects after `timeoutMs`. */
  nextEvent(timeoutMs?: number): Promise<LiveEvent>;
  /** The events received so far and not yet taken. */
  pending(): LiveEvent[];
  /** Whether the server ends the stream within `timeoutMs`. */
  endsWithin(timeoutMs: number): Promise<boolean>;
  /** Resolves when the server ends the stream (a test that waits for it is bounded by its own timeout). */
  ended(): Promise<void>;
  close(): void;
};

/** Opens an SSE stream over real HTTP and parses its messages as they arrive. */
export async function openEventStream(
  serverUrl: string,
  path: string,
  cookie: string | undefined,
): Promise<EventStream> {
  const hangUp = new AbortController();
  const response = await fetch(`${serverUrl}${path}`, {
    headers: cookie ? { cookie } : {},
    signal: hangUp.signal,
  });
  const received: LiveEvent[] = [];
  const waiters: ((event: LiveEvent) => void)[] = [];
  let markEnded = () => {};
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
        if (done) {
          markEnded();
          return;
        }
        buffer += value;
        const messages = buffer.split('\n\n');
        buffer = messages.pop() ?? '';
        for (const message of messages) {
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          if (!message.includes('event: change') || !data) continue;
          const event = JSON.parse(data.slice('data: '.length)) as LiveEvent;
          const waiter = waiters.shift();
          if (waiter) waiter(event);
          else received.push(event);
        }
      }
    })();
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    nextEvent(timeoutMs = 5_000) {
      const queued = received.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no event arrived')), timeoutMs);
        waiters.push((event) => {
          clearTimeout(timer);
          resolve(event);
        });
      });
    },
    pending: () => received.splice(0),
    endsWithin: (timeoutMs) =>
      Promise.race([
        ended.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
      ]),
    ended: () => ended,
    close: () => hangUp.abort(),
  };
}
