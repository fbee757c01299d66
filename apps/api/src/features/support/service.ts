import type { SupportMessage, SupportThread } from '@coffer/contracts/support';
import { type StaffSupportThread, supportMessages } from '@coffer/contracts/support-staff';
import type { Config } from '../../config.ts';
import { requireCustomer } from '../../customers/customers.ts';
import type { Database } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import type { Mailer } from '../../platform/mail.ts';
import { notify } from '../../platform/notifications.ts';
import {
  assigneeOf,
  assignThread,
  customerUnreadCount,
  findStaffMember,
  insertMessage,
  markReadByCustomer,
  openThreads,
  resolveThread,
  staffMembers,
  threadMessages,
  threadState,
} from './queries.ts';

export type SupportDeps = { db: Database; config: Config; mailer: Mailer };

/** The thread shows its latest messages; older ones stay stored. */
const threadLengthMax = 500;
const inboxLengthMax = 200;
const colleaguesMax = 200;

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

export async function staffThread(deps: SupportDeps, userId: string): Promise<StaffSupportThread> {
  await requireCustomer(deps, userId);
  const state = await threadState(deps.db, userId);
  return {
    messages: await threadMessages(deps.db, userId, threadLengthMax),
    unreadCount: 0,
    assignee: assigneeOf(state),
    resolvedAt: state?.resolved_at?.toISOString() ?? null,
    colleagues: await staffMembers(deps.db, colleaguesMax),
  };
}

/**
 * Passes the thread to a colleague (support or admin), who hears it in their bell; audited
 * with who had it before. A thread exists once the customer or staff wrote in it.
 */
export async function assignSupportThread(
  deps: SupportDeps,
  userId: string,
  assigneeUserId: string,
  action: StaffAction,
): Promise<StaffSupportThread> {
  const customer = await requireCustomer(deps, userId);
  const assignee = await findStaffMember(deps.db, assigneeUserId);
  if (!assignee) {
    throw new AppError('validation_failed', {
      message: supportMessages.assigneeNotStaff,
      fields: { assigneeUserId: supportMessages.assigneeNotStaff },
    });
  }
  await deps.db.transaction(async (tx) => {
    const state = await threadState(tx, userId, { isLocked: true });
    if (!state) throw new AppError('not_found');
    if (state.assignee_id === assignee.id) throw new AppError('state_conflict');
    await assignThread(tx, userId, assignee.id);
    await recordAudit(tx, {
      action: 'support_thread_assigned',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: { assignee: state.assignee_username },
      after: { assignee: assignee.username },
      ipAddress: action.ipAddress,
    });
    if (assignee.id !== action.staff.userId) {
      const passedBy = (await findStaffMember(tx, action.staff.userId))?.username ?? 'A colleague';
      await notify(
        tx,
        {
          userId: assignee.id,
          kind: 'support_thread_assigned',
          text: `${passedBy} passed ${customer.username}'s support thread to you.`,
          link: `/admin/users/${userId}?tab=messages`,
        },
        deps.config,
      );
    }
    await publishEvent(tx, { userId, topics: ['support'] });
  });
  return staffThread(deps, userId);
}

/** Takes the thread out of the inbox until the customer writes again; audited. */
export async function resolveSupportThread(
  deps: SupportDeps,
  userId: string,
  action: StaffAction,
): Promise<StaffSupportThread> {
  await requireCustomer(deps, userId);
  await deps.db.transaction(async (tx) => {
    const state = await threadState(tx, userId, { isLocked: true });
    if (!state) throw new AppError('not_found');
    if (!(await resolveThread(tx, userId))) throw new AppError('state_conflict');
    await recordAudit(tx, {
      action: 'support_thread_resolved',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: { assignee: state.assignee_username },
      ipAddress: action.ipAddress,
    });
    await publishEvent(tx, { userId, topics: ['support'] });
  });
  return staffThread(deps, userId);
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
  return openThreads(deps.db, inboxLengthMax);
}
