import {
  type Card,
  type CardAuthorization,
  type DeclineReason,
  declineReasons,
  type StaffCard,
} from '@coffer/contracts/cards';
import { minorUnits } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { EventHub } from '../../platform/events.ts';
import { type CardIssuer, createSandboxIssuer } from './issuer.ts';
import type { AuthorizationRow, CardRow } from './queries.ts';

export type CardDeps = {
  db: Database;
  ledger: Ledger;
  config: Config;
  issuer: CardIssuer;
  eventHub: EventHub;
};

/** What the card routes, and a dispute that freezes a card, work with. */
export function cardDeps(app: FastifyInstance): CardDeps {
  return {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    // The built-in issuer; a real processor's adapter would be chosen here by configuration.
    issuer: createSandboxIssuer(app.db),
    eventHub: app.eventHub,
  };
}

/** Staff lists and a card's activity show at most this many rows. */
export const listLengthMax = 200;

function expiryText(row: CardRow): string | null {
  if (row.expiry_month === null || row.expiry_year === null) return null;
  return `${String(row.expiry_month).padStart(2, '0')}/${String(row.expiry_year % 100).padStart(2, '0')}`;
}

export function toCard(row: CardRow): Card {
  return {
    id: row.id,
    status: row.status,
    lastFour: row.last_four,
    expiry: expiryText(row),
    holderName: row.holder_name,
    currency: row.currency,
    feeMinor: minorUnits(row.fee_minor),
    weeklyLimitMinor: minorUnits(row.weekly_limit_minor),
    reason: row.reason,
    requestedAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

export function toStaffCard(row: CardRow): StaffCard {
  return { ...toCard(row), userId: row.user_id, username: row.username };
}

export function isDeclineReason(reason: string | null): reason is DeclineReason {
  return declineReasons.some((known) => known === reason);
}

export function toAuthorization(row: AuthorizationRow): CardAuthorization {
  return {
    id: row.id,
    merchant: row.merchant,
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    status: row.status,
    declineReason: isDeclineReason(row.decline_reason) ? row.decline_reason : null,
    createdAt: row.created_at.toISOString(),
  };
}
