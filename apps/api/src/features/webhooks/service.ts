// An admin's webhook endpoints (ADR 048): register, roll the secret, turn off and on,
// delete, and send a delivery again. Every change is in the audit log.
import { randomBytes } from 'node:crypto';
import type {
  RegisterWebhookBody,
  WebhookAlerts,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookSecret,
} from '@coffer/contracts/webhooks';
import ipaddr from 'ipaddr.js';
import type { Database } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { decryptSecret, encryptSecret } from '../../platform/crypto.ts';
import { newId } from '../../platform/ids.ts';
import { refusalOfPrivateAddress } from '../../platform/outbound-post.ts';
import type { SecretKeys } from '../../platform/secret-keys.ts';
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  endpointById,
  endpointList,
  endpointsDisabledForFailing,
  endpointsMax,
  insertEndpoint,
  insertReplay,
  lockEndpoint,
  recentDeliveries,
  setEndpointEnabled,
  setEndpointSecret,
} from './queries.ts';

export type WebhookDeps = {
  db: Database;
  secretKeys: SecretKeys;
  isWebhookToPrivateAllowed: boolean;
};

/** How long the secret before a roll still signs, so receivers can move to the new one. */
export const previousSecretValidMs = 24 * 60 * 60 * 1000;

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function endpointOf(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
    failingSince: iso(row.failing_since),
    previousSecretExpiresAt: iso(row.previous_secret_expires_at),
    createdAt: row.created_at.toISOString(),
    pendingCount: row.pending_count,
  };
}

function refuseUrl(message: string): never {
  throw new AppError('validation_failed', { message, fields: { url: message } });
}

/**
 * What the shared schema cannot know: outside COFFER_WEBHOOKS_ALLOW_PRIVATE an endpoint
 * must be https and, when written as an address, a public one. A name is checked after
 * DNS resolution at each attempt (platform/outbound-post.ts), where it counts.
 */
function checkUrl(deps: WebhookDeps, text: string): void {
  if (deps.isWebhookToPrivateAllowed) return;
  const url = new URL(text);
  if (url.protocol !== 'https:') refuseUrl('The address must start with https://');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host) && refusalOfPrivateAddress(host)) {
    refuseUrl('The address must be on the public internet, not a private network');
  }
}

async function endpointOrNotFound(deps: WebhookDeps, id: string): Promise<WebhookEndpoint> {
  const row = await endpointById(deps.db, id);
  if (!row) throw new AppError('not_found');
  return endpointOf(row);
}

export async function registerEndpoint(
  deps: WebhookDeps,
  action: Omit<StaffAction, 'reason'>,
  body: RegisterWebhookBody,
): Promise<WebhookSecret> {
  checkUrl(deps, body.url);
  const id = newId();
  const secret = newSecret();
  const eventTypes = [...new Set(body.eventTypes)].sort();
  await deps.db.transaction(async (tx) => {
    if ((await countEndpoints(tx)) >= endpointsMax) {
      throw new AppError('validation_failed', {
        message: `At most ${endpointsMax} endpoints; delete one first`,
      });
    }
    await insertEndpoint(tx, {
      id,
      url: body.url,
      eventTypes,
      secretEncrypted: encryptSecret(secret, deps.secretKeys),
      createdByUserId: action.staff.userId,
    });
    await recordAudit(tx, {
      action: 'webhook_endpoint_registered',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      after: { endpointId: id, url: body.url, eventTypes },
      ipAddress: action.ipAddress,
    });
  });
  return { endpoint: await endpointOrNotFound(deps, id), secret };
}

export async function listEndpoints(deps: WebhookDeps): Promise<WebhookEndpointList> {
  return { items: (await endpointList(deps.db)).map(endpointOf) };
}

/**
 * A new secret, shown once; the one it replaces signs beside it for 24 hours. A second
 * roll within them drops the oldest.
 */
export async function rollSecret(
  deps: WebhookDeps,
  action: Omit<StaffAction, 'reason'>,
  endpointId: string,
  now: Date,
): Promise<WebhookSecret> {
  const secret = newSecret();
  await deps.db.transaction(async (tx) => {
    const endpoint = await lockEndpoint(tx, endpointId);
    if (!endpoint) throw new AppError('not_found');
    const previous = decryptSecret(endpoint.secret_encrypted, deps.secretKeys);
    const previousExpiresAt = new Date(now.getTime() + previousSecretValidMs);
    await setEndpointSecret(tx, endpointId, {
      current: encryptSecret(secret, deps.secretKeys),
      // Sealed again under the current key: a roll is also a rotation of this secret.
      previous: encryptSecret(previous, deps.secretKeys),
      previousExpiresAt,
    });
    await recordAudit(tx, {
      action: 'webhook_secret_rolled',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      after: { endpointId, previousSecretExpiresAt: previousExpiresAt.toISOString() },
      ipAddress: action.ipAddress,
    });
  });
  return { endpoint: await endpointOrNotFound(deps, endpointId), secret };
}

export async function changeEndpointStatus(
  deps: WebhookDeps,
  action: Omit<StaffAction, 'reason'>,
  endpointId: string,
  isEnabled: boolean,
  now: Date,
): Promise<WebhookEndpoint> {
  await deps.db.transaction(async (tx) => {
    const endpoint = await lockEndpoint(tx, endpointId);
    if (!endpoint) throw new AppError('not_found');
    if ((endpoint.status === 'enabled') === isEnabled) throw new AppError('state_conflict');
    await setEndpointEnabled(tx, endpointId, isEnabled, now);
    await recordAudit(tx, {
      action: isEnabled ? 'webhook_endpoint_enabled' : 'webhook_endpoint_disabled',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      after: { endpointId },
      ipAddress: action.ipAddress,
    });
  });
  return endpointOrNotFound(deps, endpointId);
}

export async function removeEndpoint(
  deps: WebhookDeps,
  action: Omit<StaffAction, 'reason'>,
  endpointId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const endpoint = (await lockEndpoint(tx, endpointId)) && (await endpointById(tx, endpointId));
    if (!endpoint) throw new AppError('not_found');
    await deleteEndpoint(tx, endpointId);
    await recordAudit(tx, {
      action: 'webhook_endpoint_deleted',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      before: { endpointId, url: endpoint.url, eventTypes: endpoint.event_types },
      ipAddress: action.ipAddress,
    });
  });
}

export async function deliveriesOf(
  deps: WebhookDeps,
  endpointId: string,
): Promise<WebhookDeliveryList> {
  await endpointOrNotFound(deps, endpointId);
  const { deliveries, attempts } = await recentDeliveries(deps.db, endpointId);
  return {
    items: deliveries.map((delivery) => ({
      id: delivery.id,
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      status: delivery.status,
      attemptCount: delivery.attempt_count,
      nextAttemptAt: delivery.status === 'pending' ? delivery.next_attempt_at.toISOString() : null,
      createdAt: delivery.created_at.toISOString(),
      finishedAt: iso(delivery.finished_at),
      replayOfId: delivery.replay_of_id,
      attempts: attempts
        .filter((one) => one.delivery_id === delivery.id)
        .map((one) => ({
          startedAt: one.started_at.toISOString(),
          durationMs: one.duration_ms,
          url: one.url,
          statusCode: one.status_code,
          error: one.error,
          responseHead: one.response_head,
        })),
    })),
  };
}

/** Sends a delivery's event again (same event id), after the endpoint's pending ones. */
export async function replayDelivery(
  deps: WebhookDeps,
  action: Omit<StaffAction, 'reason'>,
  endpointId: string,
  deliveryId: string,
  now: Date,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const replayId = await insertReplay(tx, endpointId, deliveryId, now);
    if (replayId === null) throw new AppError('not_found');
    await recordAudit(tx, {
      action: 'webhook_delivery_replayed',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      after: { endpointId, deliveryId, replayId },
      ipAddress: action.ipAddress,
    });
  });
}

export async function webhookAlerts(deps: WebhookDeps): Promise<WebhookAlerts> {
  const rows = await endpointsDisabledForFailing(deps.db);
  return {
    items: rows.map((row) => ({ id: row.id, url: row.url, disabledAt: iso(row.disabled_at) })),
  };
}
