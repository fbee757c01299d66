import { isStaffRole } from '@coffer/contracts/auth';
import { type LiveTopic, liveEventName, liveEventSchema } from '@coffer/contracts/events';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { isPageServerRendered } from './prerendered-answers.ts';
import { meQueryKey, mustSetUpTwoFactor, useMe } from './session.ts';

/**
 * The queries each topic of a live event makes stale. Customer queries start with their
 * topic's name (`['wallet', …]`, `['payouts', …]`); every staff query starts with
 * `'admin'` and goes stale on any event, since staff pages show everyone's data.
 */
const queryKeysByTopic: Record<LiveTopic, readonly QueryKey[]> = {
  wallet: [['wallet']],
  transfers: [['transfers'], ['wallet']],
  payouts: [['payouts'], ['wallet']],
  'bill-payments': [['bill-payments'], ['wallet']],
  'money-requests': [['wallet']],
  customer: [meQueryKey],
  // A decision changes the level, shown on the profile, and adds to its activity.
  kyc: [['kyc'], ['profile'], meQueryKey],
  notifications: [['notifications']],
  disputes: [['disputes']],
  support: [['support']],
  // An authorization holds money and a settlement spends it: the wallet shows both.
  cards: [['cards'], ['wallet']],
  loans: [['loans'], ['wallet']],
  // An occurrence paid, refused or missed by the runner (its payment has its own topic).
  'scheduled-payments': [['scheduled-payments']],
};
const staffQueryRoot: QueryKey = ['admin'];

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'broken';

/** Waits between reconnections: 1 s, 2 s, 4 s … up to 30 s. */
const reconnectDelayMinMs = 1_000;
const reconnectDelayMaxMs = 30_000;
/** Failed connections in a row before the feed counts as broken (and says so). */
const failuresBeforeBrokenCount = 3;

/**
 * Refetches what the topics touch, each query once: topics share keys (most touch the
 * wallet), and invalidating a query again cancels the fetch the first call started.
 */
function invalidate(queryClient: QueryClient, topics: readonly LiveTopic[], isStaff: boolean) {
  const queryKeys = new Map<string, QueryKey>();
  for (const topic of topics) {
    for (const queryKey of queryKeysByTopic[topic])
      queryKeys.set(JSON.stringify(queryKey), queryKey);
  }
  if (isStaff) queryKeys.set(JSON.stringify(staffQueryRoot), staffQueryRoot);
  for (const queryKey of queryKeys.values()) void queryClient.invalidateQueries({ queryKey });
}

/**
 * The feed's status, for the few components that show it. A store they subscribe to, not a
 * context value of the provider: a new context value makes React search the whole signed-in
 * frame for its readers, and the feed's first `live`, right after the page hydrates, was
 * such a search on every page (docs/decisions/031).
 */
let liveStatus: LiveStatus = 'connecting';
const liveStatusListeners = new Set<() => void>();

function setStatus(status: LiveStatus): void {
  if (status === liveStatus) return;
  liveStatus = status;
  for (const listener of liveStatusListeners) listener();
}

function subscribeToLiveStatus(listener: () => void): () => void {
  liveStatusListeners.add(listener);
  return () => liveStatusListeners.delete(listener);
}

/**
 * Keeps one Server-Sent Events stream open while someone is signed in and turns its
 * events into cache invalidations. EventSource's own retry is replaced by a backoff, and
 * everything is refetched after a reconnection, since events may have been missed.
 */
function useLiveEventStream(url: string | null, isStaff: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    // A new stream (another person signed in) starts over.
    setStatus('connecting');
    if (!url) return;
    let source: EventSource | null = null;
    let failureCount = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    // After a reconnection events may have been missed, and on a page the server rendered
    // its data may already be older than the stream.
    let mayHaveMissedEvents = isPageServerRendered();
    const connect = () => {
      source = new EventSource(url);
      source.addEventListener('open', () => {
        if (mayHaveMissedEvents)
          invalidate(queryClient, Object.keys(queryKeysByTopic) as LiveTopic[], isStaff);
        mayHaveMissedEvents = true;
        failureCount = 0;
        setStatus('live');
      });
      source.addEventListener(liveEventName, (message) => {
        const parsed = liveEventSchema.safeParse(JSON.parse(String(message.data)));
        if (parsed.success) invalidate(queryClient, parsed.data.topics, isStaff);
      });
      source.addEventListener('error', () => {
        source?.close();
        failureCount += 1;
        setStatus(failureCount >= failuresBeforeBrokenCount ? 'broken' : 'reconnecting');
        const delayMs = Math.min(
          reconnectDelayMinMs * 2 ** (failureCount - 1),
          reconnectDelayMaxMs,
        );
        retryTimer = setTimeout(connect, delayMs);
      });
    };
    connect();
    return () => {
      clearTimeout(retryTimer);
      source?.close();
    };
  }, [url, isStaff, queryClient]);
}

/**
 * Opens the signed-in person's stream (staff get the back office's) for the pages below;
 * none for staff who must set up two-factor first, whom the back office refuses until then.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const me = useMe();
  const isStaff = me !== null && me !== undefined && isStaffRole(me.role);
  const staffUrl = me && !mustSetUpTwoFactor(me) ? '/api/v1/admin/events' : null;
  const url = me ? (isStaff ? staffUrl : '/api/v1/events') : null;
  useLiveEventStream(url, isStaff);
  return children;
}

/** Whether live updates arrive; `broken` after several failed reconnections in a row. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    subscribeToLiveStatus,
    () => liveStatus,
    () => 'connecting',
  );
}
