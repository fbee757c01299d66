import type { SupportMessage, SupportThread } from '@coffer/contracts/support';
import type { Config } from '../../config.ts';
import { requireCustomer } from '../../customers/customers.ts';
import type { Database } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import type { Mailer } from '../../platform/mail.ts';
import { notify } from '../../platform/notifications.ts';
import {
  awaitingThreads,
  customerUnreadCount,
  insertMessage,
  markReadByCustomer,
  threadMessages,
} from './queries.ts';

export type SupportDeps = { db: Database; config: Config; mailer: Mailer };

/** The thread shows its latest messages; older ones stay stored. */
const threadLengthMax = 500;
const inboxLengthMax = 200;

export async function customerThread(deps: SupportDeps, userId: string): Promise<SupportThread> {
  return {
    messages: await threadMessages(deps.db, userId, threadLengthMax),
    unreadCount: await customerUnreadCount(deps.db, userId),
  };
}

export async function readThread(deps: SupportDeps, userId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await markReadByCustomer(tx, userId);
    await publishEvent(tx, { userId, topics: ['support'] });
  });
}

export async function sendCustomerMessage(
  deps: SupportDeps,
  userId: string,
  body: string,
): Promise<SupportMessage> {
  return deps.db.transaction(async (tx) => {
    const message = await insertMessage(tx, {
      threadUserId: userId,
      authorUserId: userId,
      isFromStaff: false,
      body,
    });
    await publishEvent(tx, { userId, topics: ['support'] });
    return message;
  });
}

export async function staffThread(deps: SupportDeps, userId: string): Promise<SupportThread> {
  await requireCustomer(deps, userId);
  return { messages: await threadMessages(deps.db, userId, threadLengthMax), unreadCount: 0 };
}

/**
 * A staff reply. It works whatever the customer's state (a frozen account blocks money,
 * not help), is audited, and tells the customer in the bell and by email.
 */
export async function sendStaffReply(
  deps: SupportDeps,
  userId: string,
  body: string,
  action: StaffAction,
): Promise<SupportMessage> {
  await requireCustomer(deps, userId);
  const message = await deps.db.transaction(async (tx) => {
    const reply = await insertMessage(tx, {
      threadUserId: userId,
      authorUserId: action.staff.userId,
      isFromStaff: true,
      body,
    });
    await recordAudit(tx, {
      action: 'support_reply_sent',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      after: { messageId: reply.id },
      ipAddress: action.ipAddress,
    });
    await notify(
      tx,
      {
        userId,
        kind: 'support_reply',
        text: 'Support replied to your message.',
        link: '/support',
      },
      deps.config,
    );
    await publishEvent(tx, { userId, topics: ['support'] });
    return reply;
  });
  deps.mailer.kick();
  return message;
}

export function supportInbox(deps: SupportDeps) {
  return awaitingThreads(deps.db, inboxLengthMax);
}
