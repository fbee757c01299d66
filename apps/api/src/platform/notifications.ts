import { type Language, sourceLanguage } from '@coffer/contracts/languages';
import { emailModeOf, type NotificationKind } from '@coffer/contracts/notifications';
import type { Queryable } from '../db/client.ts';
import { eventsChannel } from './events.ts';
import { translateLines, translateText, translatorFor } from './i18n.ts';
import { newId } from './ids.ts';
import { storedLanguage, toLanguage, writtenLanguageSql } from './languages.ts';

export type NewNotification = {
  userId: string;
  kind: NotificationKind;
  /** One or two sentences the person reads in the bell and, when emailed, in the email. */
  text: string;
  /** The page of Coffer that shows more ("/dispute"); the email links to it. */
  link?: string;
  /** The email's own subject and body, for kinds that have a fuller one than the text. */
  email?: { subject: string; text: string };
};

/**
 * The parameters of the SQL function notify_user (migration 0012), in its order: the text,
 * subject and body written in English, here in the person's language (ADR 055).
 */
export function notifyUserParams(
  notification: NewNotification,
  mail: { publicUrl: string },
  language: Language = sourceLanguage,
): unknown[] {
  const t = translatorFor(language);
  const emailMode = emailModeOf(notification.kind);
  const pageUrl = `${mail.publicUrl}${notification.link ?? '/notifications'}`;
  const footer =
    emailMode === 'preference'
      ? t('You can switch these emails off on your profile.')
      : t('We always email you about the security of your account.');
  const text = translateText(language, notification.text);
  return [
    newId(),
    notification.userId,
    notification.kind,
    text,
    notification.link ?? null,
    emailMode === 'never' ? null : newId(),
    notification.email ? translateText(language, notification.email.subject) : text,
    [
      notification.email ? translateLines(language, notification.email.text) : text,
      '',
      t('See it in Coffer: {pageUrl}', { pageUrl }),
      '',
      footer,
    ].join('\n'),
    emailMode === 'always',
  ];
}

/**
 * A stored notification's text as its reader reads it: Quick Pay's is written in English
 * before its statement knows who the recipient is (migration 0054, ADR 057), and is put
 * into the reader's language here; every other one was written in it. `reader_language`
 * is the reader's users.language (NULL: English).
 */
export function notificationTextFor(row: {
  text: string;
  is_english_source: boolean;
  reader_language: string | null;
}): string {
  return row.is_english_source
    ? translateText(toLanguage(row.reader_language), row.text)
    : row.text;
}

/** The SQL for `notificationTextFor`'s reader_language, for the person `userIdParam`. */
export const readerLanguageSql = (userIdParam: string) =>
  `(SELECT ${writtenLanguageSql} FROM users WHERE id = ${userIdParam}) AS reader_language`;

/**
 * Tells a person about an event, in the transaction of the event: the notification in
 * their bell, the email when the kind goes by email (security kinds always, the others
 * unless the person switched them off), and the live event that updates an open bell, all
 * committed with the event or not at all. One statement. Any feature calls it; a new kind
 * is one line in contracts/notifications.ts. Kick the mailer after the commit.
 */
export async function notify(
  tx: Queryable,
  notification: NewNotification,
  mail: { publicUrl: string },
): Promise<void> {
  const liveEvent = JSON.stringify([{ userId: notification.userId, topics: ['notifications'] }]);
  await tx.query(
    `SELECT notify_user(p_id => $1, p_user_id => $2, p_kind => $3, p_text => $4, p_link => $5,
                        p_email_id => $6, p_email_subject => $7, p_email_body => $8,
                        p_is_email_always => $9),
            pg_notify($10, $11)`,
    [
      ...notifyUserParams(
        notification,
        mail,
        await storedLanguage(tx, { userId: notification.userId }),
      ),
      eventsChannel,
      liveEvent,
    ],
  );
}
