// The delivery job (ADR 048): claims due deliveries, POSTs each one signed in the Standard
// Webhooks format, and records the attempt, the retry or the end.
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Database, Queryable } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import {
  anyAddressPolicy,
  type OutboundPolicy,
  type OutboundResult,
  postOutbound,
  publicOnlyPolicy,
} from '../../platform/outbound-post.ts';
import type { SecretKeys } from '../../platform/secret-keys.ts';

export type DeliveryDeps = {
  db: Database;
  secretKeys: SecretKeys;
  isWebhookToPrivateAllowed: boolean;
  log: FastifyBaseLogger;
};

export const deliveryJobName = 'webhook-deliveries';
export const deliveryJobIntervalMs = 10_000;
/** Deliveries attempted at once by one run: a slow endpoint holds one of them, no more. */
export const deliveryBatchSize = 25;
/** A claimed delivery is not claimed again before this, unless its attempt was recorded. */
const claimLeaseMs = 2 * 60 * 1000;
const retryFirstDelayMs = 30_000;
const retryDelayMaxMs = 60 * 60 * 1000;
/** An endpoint whose attempts have all failed for this long is turned off. */
export const endpointFailingMaxMs = 24 * 60 * 60 * 1000;

type ClaimedDelivery = {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempt_count: number;
  give_up_at: Date;
  payload: unknown;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
};

/**
 * Claims up to `deliveryBatchSize` due deliveries by moving their next attempt a lease
 * ahead, in one statement (`FOR UPDATE SKIP LOCKED`). A delivery is due only when no
 * earlier one of the same wallet to the same endpoint is still pending: a customer's
 * events arrive in the order their money moved, a later one waiting until the earlier is
 * delivered or given up. Only enabled endpoints' deliveries are claimed. The runner's clock
 * is a JavaScript Date, whole milliseconds: a delivery written at PostgreSQL's microseconds
 * inside that millisecond is due too, or it would wait a whole tick.
 */
async function claimDue(db: Queryable, now: Date): Promise<ClaimedDelivery[]> {
  const found = await db.query<ClaimedDelivery>(
    `WITH claimed AS (
       UPDATE webhook_deliveries d
          SET next_attempt_at = $1::timestamptz + make_interval(secs => $3::int / 1000.0)
        WHERE d.id IN (
          SELECT due.id FROM webhook_deliveries due
            JOIN webhook_endpoints e ON e.id = due.endpoint_id AND e.status = 'enabled'
           WHERE due.status = 'pending' AND due.next_attempt_at < $1::timestamptz + interval '1 millisecond'
             AND NOT EXISTS (
               SELECT 1 FROM webhook_deliveries earlier
                WHERE earlier.endpoint_id = due.endpoint_id AND earlier.account_id = due.account_id
                  AND earlier.status = 'pending' AND earlier.id < due.id)
           ORDER BY due.next_attempt_at, due.id LIMIT $2
             FOR UPDATE OF due SKIP LOCKED)
       RETURNING d.id, d.event_id, d.endpoint_id, d.attempt_count, d.give_up_at)
     SELECT c.id::text AS id, c.event_id, c.endpoint_id, c.attempt_count, c.give_up_at,
            ev.payload, e.url, e.secret_encrypted, e.previous_secret_encrypted,
            e.previous_secret_expires_at
       FROM claimed c
       JOIN webhook_events ev ON ev.id = c.event_id
       JOIN webhook_endpoints e ON e.id = c.endpoint_id
      ORDER BY c.id`,
    [now, deliveryBatchSize, claimLeaseMs],
  );
  return found.rows;
}

/**
 * The `webhook-signature` header: the current secret's signature, and while a rolled
 * secret has not expired, the previous one's too (space-separated, as the format allows),
 * so a receiver still verifying with the old secret accepts the delivery.
 */
export function signatureHeader(
  secrets: string[],
  messageId: string,
  timestamp: Date,
  body: string,
): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}

function secretsOf(delivery: ClaimedDelivery, keys: SecretKeys, now: Date): string[] {
  const secrets = [decryptSecret(delivery.secret_encrypted, keys)];
  const previousExpiresAt = delivery.previous_secret_expires_at;
  if (delivery.previous_secret_encrypted && previousExpiresAt && previousExpiresAt > now) {
    secrets.push(decryptSecret(delivery.previous_secret_encrypted, keys));
  }
  return secrets;
}

/** 30 s after the first failure, doubling to at most an hour between attempts. */
export function retryDelayMs(attemptCount: number): number {
  return Math.min(retryFirstDelayMs * 2 ** Math.max(0, attemptCount - 1), retryDelayMaxMs);
}

const isDelivered = (result: OutboundResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

async function recordAttempt(
  db: Database,
  delivery: ClaimedDelivery,
  result: OutboundResult,
  timing: { startedAt: Date; durationMs: number; now: Date },
): Promise<void> {
  const { now } = timing;
  const attemptCount = delivery.attempt_count + 1;
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO webhook_attempts (delivery_id, started_at, duration_ms, url, status_code, error, response_head)
       VALUES ($1::bigint, $2, $3, $4, $5, $6, $7)`,
      [
        delivery.id,
        timing.startedAt,
        timing.durationMs,
        result.url,
        result.statusCode,
        result.error,
        result.responseHead,
      ],
    );
    if (isDelivered(result)) {
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'delivered', attempt_count = $2, finished_at = $3
          WHERE id = $1::bigint`,
        [delivery.id, attemptCount, now],
      );
      await tx.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1', [
        delivery.endpoint_id,
      ]);
      return;
    }
    // Given up once its 24 hours are over; otherwise tried again later, the last time at
    // the very end of them.
    const isGivenUp = now >= delivery.give_up_at;
    const nextAttemptAt = new Date(
      Math.min(now.getTime() + retryDelayMs(attemptCount), delivery.give_up_at.getTime()),
    );
    await tx.query(
      `UPDATE webhook_deliveries SET attempt_count = $2, next_attempt_at = $3,
              status = CASE WHEN $4::boolean THEN 'failed' ELSE 'pending' END::webhook_delivery_status,
              finished_at = CASE WHEN $4::boolean THEN $5::timestamptz END
        WHERE id = $1::bigint`,
      [delivery.id, attemptCount, nextAttemptAt, isGivenUp, now],
    );
    await noteEndpointFailure(tx, delivery.endpoint_id, now);
  });
}

/**
 * Counts a failure against the endpoint; one that has failed for 24 hours is turned off,
 * which the staff home shows until an admin turns it on again or deletes it.
 */
async function noteEndpointFailure(tx: Queryable, endpointId: string, now: Date): Promise<void> {
  const failingSinceMax = new Date(now.getTime() - endpointFailingMaxMs);
  const updated = await tx.query<{ url: string; failing_since: Date; status: string }>(
    `WITH failing AS (
       SELECT id, coalesce(failing_since, $2) AS since FROM webhook_endpoints
        WHERE id = $1 AND status = 'enabled' FOR UPDATE)
     UPDATE webhook_endpoints e
        SET failing_since = f.since,
            status = CASE WHEN f.since <= $3 THEN 'disabled' ELSE 'enabled' END::webhook_endpoint_status,
            disabled_reason = CASE WHEN f.since <= $3 THEN 'failing' END,
            disabled_at = CASE WHEN f.since <= $3 THEN $2::timestamptz END
       FROM failing f WHERE e.id = f.id
     RETURNING e.url, e.failing_since, e.status`,
    [endpointId, now, failingSinceMax],
  );
  const endpoint = updated.rows[0];
  if (endpoint?.status !== 'disabled') return;
  await recordAudit(tx, {
    action: 'webhook_endpoint_disabled',
    actorUserId: null,
    subjectUserId: null,
    after: { endpointId, url: endpoint.url, failingSince: endpoint.failing_since },
    reason: 'Every delivery failed for 24 hours',
  });
}

async function attempt(deps: DeliveryDeps, delivery: ClaimedDelivery, now: Date): Promise<void> {
  const policy: OutboundPolicy = deps.isWebhookToPrivateAllowed
    ? anyAddressPolicy
    : publicOnlyPolicy;
  const body = JSON.stringify(delivery.payload);
  // The receiver checks the timestamp against its own clock: it is the moment of sending.
  const sentAt = new Date();
  const headers = {
    'user-agent': 'Coffer-Webhooks/1',
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signatureHeader(
      secretsOf(delivery, deps.secretKeys, now),
      delivery.event_id,
      sentAt,
      body,
    ),
  };
  const startedMs = performance.now();
  const result = await postOutbound(delivery.url, body, headers, policy);
  const durationMs = Math.round(performance.now() - startedMs);
  await recordAttempt(deps.db, delivery, result, { startedAt: sentAt, durationMs, now });
}

/**
 * One run of the delivery job: every claimed delivery is attempted at once, so a slow or
 * huge answer (each bounded by platform/outbound-post.ts) holds back only its own.
 */
export async function deliverDue(deps: DeliveryDeps, now: Date): Promise<number> {
  const claimed = await claimDue(deps.db, now);
  const outcomes = await Promise.allSettled(claimed.map((one) => attempt(deps, one, now)));
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') {
      // The lease ends and it is claimed again: nothing is lost, but someone should know.
      deps.log.error({ err: outcome.reason }, 'webhook delivery could not be recorded');
    }
  }
  return claimed.length;
}
