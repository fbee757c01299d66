import type { LiveEvent } from '@coffer/contracts/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import type { Database } from '../db/client.ts';
import { type EventHub, publishEvent, startEventHub } from './events.ts';

let db: Database;
let hub: EventHub;
const warnings: object[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  hub = await startEventHub(db, { warn: (object) => warnings.push(object) });
});
afterAll(async () => {
  await hub.close();
  await db.close();
});

/** Everything the hub hears until an event for `untilUserId` arrives. */
function collectUntil(untilUserId: string): Promise<LiveEvent[]> {
  const heard: LiveEvent[] = [];
  return new Promise((resolve) => {
    const stop = hub.subscribe((event) => {
      heard.push(event);
      if (event.userId === untilUserId) {
        stop();
        resolve(heard);
      }
    });
  });
}

describe('live events', () => {
  it('delivers a NOTIFY sent inside a transaction only once it commits', async () => {
    const heard = collectUntil('committed');
    await db
      .transaction(async (tx) => {
        await publishEvent(tx, { userId: 'rolled-back', topics: ['wallet'] });
        throw new Error('roll back');
      })
      .catch(() => {});
    await db.transaction((tx) => publishEvent(tx, { userId: 'committed', topics: ['wallet'] }));
    expect((await heard).map((event) => event.userId)).toEqual(['committed']);
  });

  it('splits a large batch of committed events over several NOTIFYs and loses none', async () => {
    // About 60 bytes each: 400 of them are three times what one NOTIFY may carry.
    const events: LiveEvent[] = Array.from({ length: 400 }, (_, index) => ({
      userId: `0190f5a0-0000-7000-8000-${String(index).padStart(12, '0')}`,
      topics: ['wallet', 'transfers'],
    }));
    const heard = collectUntil(events.at(-1)?.userId ?? '');
    hub.publishCommitted(events);
    expect(await heard).toEqual(events);
    expect(warnings).toEqual([]);
  });

  it('announces the same user and topics once per batch', async () => {
    const repeated: LiveEvent = { userId: 'repeated', topics: ['payouts'] };
    const heard = collectUntil('last');
    hub.publishCommitted([repeated, repeated, { userId: 'other', topics: ['payouts'] }, repeated]);
    hub.publishCommitted([{ userId: 'last', topics: ['wallet'] }]);
    expect((await heard).map((event) => event.userId)).toEqual(['repeated', 'other', 'last']);
  });
});
