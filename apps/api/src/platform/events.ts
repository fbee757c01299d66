import { setTimeout as sleep } from 'node:timers/promises';
import { type LiveEvent, liveEventSchema } from '@coffer/contracts/events';
import { z } from 'zod/mini';
import type { Database, Queryable } from '../db/client.ts';

export const eventsChannel = 'coffer_events';
// PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more.
const notifyPayloadBytesMax = 7_000;

/**
 * Sessions that were just revoked, for the streams opened with them to end: one session
 * (`sessionId`), or every session of the user but `keptSessionId` (all when absent).
 */
const sessionRevocationSchema = z.object({
  userId: z.string(),
  sessionId: z.optional(z.string()),
  keptSessionId: z.optional(z.string()),
});
export type SessionRevocation = z.infer<typeof sessionRevocationSchema>;

// The channel carries two kinds of news: changes (a JSON array of live events) and session
// revocations. One channel keeps them in commit order: an event committed after a logout
// reaches a stream only after the logout has ended it.
const notifyPayloadSchema = z.union([
  z.array(liveEventSchema),
  z.object({ revokedSessions: sessionRevocationSchema }),
]);

/** The NOTIFY payload announcing a revocation, sent by the statement that revokes. */
export function sessionRevocationPayload(revocation: SessionRevocation): string {
  return JSON.stringify({ revokedSessions: revocation });
}

/** Whether a revocation ends the session a stream was opened with. */
export function isSessionRevoked(
  revocation: SessionRevocation,
  session: { userId: string; sessionId: string },
): boolean {
  if (revocation.userId !== session.userId) return false;
  if (revocation.sessionId !== undefined) return revocation.sessionId === session.sessionId;
  return revocation.keptSessionId !== session.sessionId;
}

// Committed events wait this long to share a NOTIFY with the ones that follow: under load
// one NOTIFY (and one wake-up of every listener) carries dozens of them, and a person
// watching a page cannot tell 20 ms.
const notifyBatchWindowMs = 20;

/** Events as NOTIFY payloads: JSON arrays, each short enough for one NOTIFY. */
function notifyPayloads(events: LiveEvent[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let batchBytes = 2;
  for (const event of events) {
    const json = JSON.stringify(event);
    const eventBytes = Buffer.byteLength(json) + 1;
    if (batch.length > 0 && batchBytes + eventBytes > notifyPayloadBytesMax) {
      payloads.push(`[${batch.join(',')}]`);
      batch = [];
      batchBytes = 2;
    }
    batch.push(json);
    batchBytes += eventBytes;
  }
  if (batch.length > 0) payloads.push(`[${batch.join(',')}]`);
  return payloads;
}

/** The same user and topics announced twice in one batch need announcing once. */
function withoutRepeats(events: LiveEvent[]): LiveEvent[] {
  const byKey = new Map(events.map((event) => [`${event.userId} ${event.topics.join()}`, event]));
  return [...byKey.values()];
}

/**
 * Announces a change from inside the transaction that made it: PostgreSQL delivers a
 * NOTIFY only when that transaction commits, to every API process listening, so nobody
 * hears of a change that was rolled back. Call it once per transaction, not per ledger
 * line: a NOTIFY holds a database-wide lock from the start of its transaction's commit
 * to the end, so the hottest path (Quick Pay) uses `EventHub.publishCommitted` instead.
 */
export async function publishEvent(tx: Queryable, event: LiveEvent): Promise<void> {
  const [payload] = notifyPayloads([event]);
  await tx.query('SELECT pg_notify($1, $2)', [eventsChannel, payload]);
}

export type EventListener = (event: LiveEvent) => void;
export type RevocationListener = (revocation: SessionRevocation) => void;

export type EventHub = {
  /** Calls `listener` for every event; returns the function that stops it. */
  subscribe(listener: EventListener): () => void;
  /** Calls `listener` for every session revocation; returns the function that stops it. */
  onSessionRevoked(listener: RevocationListener): () => void;
  /**
   * Calls `listener` when this process listens again after losing its LISTEN connection
   * (a database restart or failover): events committed in the gap were not heard.
   */
  onEventsMissed(listener: () => void): () => void;
  /**
   * Announces changes whose transaction has committed already, in batches: the events of
   * a short window, and those that come in while a NOTIFY is on its way, leave together.
   * Nothing waits on the commit lock of a business transaction, and under load one
   * NOTIFY carries many events. An event is lost if the process dies before sending it;
   * the web app reloads its data whenever its stream reconnects.
   */
  publishCommitted(events: LiveEvent[]): void;
  close(): Promise<void>;
};

type Log = { warn(object: object, message: string): void };

function startBatchedNotifier(db: Database, log: Log) {
  let waiting: LiveEvent[] = [];
  let sending: Promise<void> | null = null;
  const sendWaiting = async () => {
    await sleep(notifyBatchWindowMs);
    while (waiting.length > 0) {
      const batch = withoutRepeats(waiting);
      waiting = [];
      for (const payload of notifyPayloads(batch)) {
        await db.query('SELECT pg_notify($1, $2)', [eventsChannel, payload], {
          preparedName: 'notify_events',
        });
      }
    }
  };
  return {
    publish(events: LiveEvent[]) {
      waiting.push(...events);
      sending ??= sendWaiting()
        .catch((error: unknown) => log.warn({ err: error }, 'live events were not sent'))
        .finally(() => {
          sending = null;
        });
    },
    drained: () => sending ?? Promise.resolve(),
  };
}

/** One LISTEN per process, fanned out in memory to every open stream. */
export async function startEventHub(db: Database, log: Log): Promise<EventHub> {
  const listeners = new Set<EventListener>();
  const revocationListeners = new Set<RevocationListener>();
  const missedListeners = new Set<() => void>();
  const notifier = startBatchedNotifier(db, log);
  const onPayload = (payload: string) => {
    const parsed = notifyPayloadSchema.safeParse(JSON.parse(payload));
    if (!parsed.success) {
      log.warn({ payload }, 'ignored a malformed live event');
      return;
    }
    if (!Array.isArray(parsed.data)) {
      for (const listener of revocationListeners) listener(parsed.data.revokedSessions);
      return;
    }
    for (const event of parsed.data) {
      for (const listener of listeners) listener(event);
    }
  };
  const stopListening = await db.listen(eventsChannel, onPayload, () => {
    log.warn({ openStreams: missedListeners.size }, 'listening again; live events were missed');
    for (const listener of [...missedListeners]) listener();
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onSessionRevoked(listener) {
      revocationListeners.add(listener);
      return () => revocationListeners.delete(listener);
    },
    onEventsMissed(listener) {
      missedListeners.add(listener);
      return () => missedListeners.delete(listener);
    },
    publishCommitted: (events) => notifier.publish(events),
    async close() {
      await notifier.drained();
      await stopListening();
    },
  };
}
