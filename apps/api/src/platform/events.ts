import { type LiveEvent, liveEventSchema } from '@coffer/contracts/events';
import type { Database, Queryable } from '../db/client.ts';

export const eventsChannel = 'coffer_events';

/** What travels in the NOTIFY; the listeners parse it back with liveEventSchema. */
export function eventPayload(event: LiveEvent): string {
  return JSON.stringify(event);
}

/**
 * Announces a change from inside the transaction that made it: PostgreSQL delivers a
 * NOTIFY only when that transaction commits, to every API process listening, so nobody
 * hears of a change that was rolled back. Call it once per transaction, not per ledger
 * line: NOTIFY serializes commits that carry one.
 */
export async function publishEvent(tx: Queryable, event: LiveEvent): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [eventsChannel, eventPayload(event)]);
}

export type EventListener = (event: LiveEvent) => void;

export type EventHub = {
  /** Calls `listener` for every event; returns the function that stops it. */
  subscribe(listener: EventListener): () => void;
  close(): Promise<void>;
};

/** One LISTEN per process, fanned out in memory to every open stream. */
export async function startEventHub(
  db: Database,
  log: { warn(object: object, message: string): void },
): Promise<EventHub> {
  const listeners = new Set<EventListener>();
  const stopListening = await db.listen(eventsChannel, (payload) => {
    const parsed = liveEventSchema.safeParse(JSON.parse(payload));
    if (!parsed.success) {
      log.warn({ payload }, 'ignored a malformed live event');
      return;
    }
    for (const listener of listeners) listener(parsed.data);
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => stopListening(),
  };
}
