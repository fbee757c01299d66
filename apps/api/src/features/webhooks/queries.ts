// The SQL of webhook endpoints, deliveries and attempts (ADR 048). Events and their
// deliveries are written by the ledger (webhooks_enqueue_money), never here.
import type { Queryable } from '../../db/client.ts';

export type EndpointRow = {
  id: string;
  url: string;
  event_types: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: 'failing' | 'staff' | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  pending_count: number;
};

const endpointColumns = `e.id, e.url, e.event_types, e.status, e.disabled_reason, e.disabled_at,
  e.failing_since, e.previous_secret_expires_at, e.created_at,
  (SELECT count(*)::int FROM webhook_deliveries d
    WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending_count`;

/** At most this many endpoints: each posting looks at all of them (ledger_apply_lines). */
export const endpointsMax = 50;

export async function insertEndpoint(
  db: Queryable,
  endpoint: {
    id: string;
    url: string;
    eventTypes: readonly string[];
    secretEncrypted: string;
    createdByUserId: string;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_endpoints (id, url, event_types, secret_encrypted, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5)`,
    [
      endpoint.id,
      endpoint.url,
      endpoint.eventTypes,
      endpoint.secretEncrypted,
      endpoint.createdByUserId,
    ],
  );
}

export async function countEndpoints(db: Queryable): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM webhook_endpoints',
  );
  return found.rows[0]?.count ?? 0;
}

export async function endpointList(db: Queryable): Promise<EndpointRow[]> {
  const found = await db.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM webhook_endpoints e ORDER BY e.created_at, e.id LIMIT $1`,
    [endpointsMax],
  );
  return found.rows;
}

export async function endpointById(db: Queryable, id: string): Promise<EndpointRow | null> {
  const found = await db.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM webhook_endpoints e WHERE e.id = $1`,
    [id],
  );
  return found.rows[0] ?? null;
}

/** Locks the endpoint's row for a change: an admin's change waits for another's. */
export async function lockEndpoint(
  tx: Queryable,
  id: string,
): Promise<{ status: 'enabled' | 'disabled'; secret_encrypted: string } | null> {
  const found = await tx.query<{ status: 'enabled' | 'disabled'; secret_encrypted: string }>(
    'SELECT status, secret_encrypted FROM webhook_endpoints WHERE id = $1 FOR UPDATE',
    [id],
  );
  return found.rows[0] ?? null;
}

export async function setEndpointSecret(
  tx: Queryable,
  id: string,
  secrets: { current: string; previous: string; previousExpiresAt: Date },
): Promise<void> {
  await tx.query(
    `UPDATE webhook_endpoints SET secret_encrypted = $2, previous_secret_encrypted = $3,
            previous_secret_expires_at = $4 WHERE id = $1`,
    [id, secrets.current, secrets.previous, secrets.previousExpiresAt],
  );
}

export async function setEndpointEnabled(
  tx: Queryable,
  id: string,
  isEnabled: boolean,
  now: Date,
): Promise<void> {
  await tx.query(
    isEnabled
      ? `UPDATE webhook_endpoints SET status = 'enabled', disabled_reason = NULL,
                disabled_at = NULL, failing_since = NULL WHERE id = $1`
      : `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'staff',
                disabled_at = $2 WHERE id = $1`,
    isEnabled ? [id] : [id, now],
  );
}

/** The endpoint and its deliveries (their attempts go with them); the events stay. */
export async function deleteEndpoint(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
  await tx.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
}

export type DeliveryRow = {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  next_attempt_at: Date;
  created_at: Date;
  finished_at: Date | null;
  replay_of_id: string | null;
};

export type AttemptRow = {
  delivery_id: string;
  started_at: Date;
  duration_ms: number;
  url: string;
  status_code: number | null;
  error: string | null;
  response_head: string;
};

export const deliveriesShownMax = 50;
const attemptsShownMax = 20;

/** An endpoint's latest deliveries, newest first, with each one's latest attempts. */
export async function recentDeliveries(
  db: Queryable,
  endpointId: string,
): Promise<{ deliveries: DeliveryRow[]; attempts: AttemptRow[] }> {
  const deliveries = await db.query<DeliveryRow>(
    `SELECT d.id::text AS id, d.event_id, ev.type AS event_type, d.status, d.attempt_count,
            d.next_attempt_at, d.created_at, d.finished_at, d.replay_of_id::text AS replay_of_id
       FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
      WHERE d.endpoint_id = $1 ORDER BY d.id DESC LIMIT $2`,
    [endpointId, deliveriesShownMax],
  );
  const ids = deliveries.rows.map((row) => row.id);
  const attempts = await db.query<AttemptRow>(
    `SELECT delivery_id::text AS delivery_id, started_at, duration_ms, url, status_code, error,
            response_head
       FROM (SELECT a.*, row_number() OVER (PARTITION BY a.delivery_id ORDER BY a.id DESC) AS n
               FROM webhook_attempts a WHERE a.delivery_id = ANY ($1::bigint[])) latest
      WHERE n <= $2 ORDER BY delivery_id, started_at`,
    [ids, attemptsShownMax],
  );
  return { deliveries: deliveries.rows, attempts: attempts.rows };
}

/** Sends a delivery's event again, as a new delivery after the endpoint's others. */
export async function insertReplay(
  tx: Queryable,
  endpointId: string,
  deliveryId: string,
  now: Date,
): Promise<string | null> {
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, account_id, next_attempt_at, give_up_at, replay_of_id)
     SELECT event_id, endpoint_id, account_id, $3, $3::timestamptz + interval '24 hours', id
       FROM webhook_deliveries WHERE id = $2::bigint AND endpoint_id = $1
     RETURNING id::text AS id`,
    [endpointId, deliveryId, now],
  );
  return inserted.rows[0]?.id ?? null;
}

/** The endpoints the delivery job turned off, for the staff home. */
export async function endpointsDisabledForFailing(
  db: Queryable,
): Promise<{ id: string; url: string; disabled_at: Date | null }[]> {
  const found = await db.query<{ id: string; url: string; disabled_at: Date | null }>(
    `SELECT id, url, disabled_at FROM webhook_endpoints
      WHERE status = 'disabled' AND disabled_reason = 'failing' ORDER BY disabled_at, id LIMIT $1`,
    [endpointsMax],
  );
  return found.rows;
}
