import type { Language } from '@coffer/contracts/languages';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database, Queryable } from '../db/client.ts';
import { translateLines, translateText } from './i18n.ts';
import { newId } from './ids.ts';
import { storedLanguage, toLanguage, writtenLanguageSql } from './languages.ts';
import { type Poller, startPoller } from './poller.ts';
import { sandboxEmailMessage, sandboxMarkingMessage } from './sandbox-marking.ts';

export type Email = { to: string; subject: string; text: string };

const pollIntervalMs = 2_000;
const leaseMs = 2 * 60 * 1000;
const batchSizeMax = 10;
const attemptsMax = 8;
const sendTimeoutMs = 30_000;

/**
 * Queues an email in the caller's transaction: it goes out only if the action that
 * caused it commits, and it survives a crash between commit and sending. Nothing is
 * queued for the address of a closed account (ADR 050): its closure confirmation is
 * queued just before the account is marked closed.
 */
export async function enqueueEmail(
  tx: Queryable,
  englishEmail: Email,
  options: { language?: Language } = {},
): Promise<void> {
  const language = options.language ?? (await storedLanguage(tx, { email: englishEmail.to }));
  const email = inLanguage(englishEmail, language);
  await tx.query(
    `INSERT INTO outbox_emails (id, to_address, subject, text_body, language)
     SELECT $1::uuid, $2::text, $3::text, $4::text, $5::text
      WHERE NOT EXISTS (SELECT 1 FROM users WHERE email = $2 AND closed_at IS NOT NULL)`,
    [newId(), email.to, email.subject, email.text, language],
  );
}

/**
 * An email written in English (a sentence, a value or a link a line) in `language`: each
 * line its translation, amounts written as the language writes them; links as they are.
 */
export function inLanguage(email: Email, language: Language): Email {
  return {
    to: email.to,
    subject: translateText(language, email.subject),
    text: translateLines(language, email.text),
  };
}

/**
 * A queued email as it goes out: in its language when it was queued in English to be put
 * into it when sent (Quick Pay's, migration 0054, ADR 057), otherwise as written.
 */
export function queuedEmail(row: {
  to_address: string;
  subject: string;
  text_body: string;
  send_in_language: string | null;
}): Email {
  const email = { to: row.to_address, subject: row.subject, text: row.text_body };
  return row.send_in_language === null
    ? email
    : inLanguage(email, toLanguage(row.send_in_language));
}

/**
 * The email as it leaves a sandbox: the marking starts the subject and the body, in the
 * email's language. Applied where mail is sent (and shown in the dev mailbox), so every
 * email gets it, whoever wrote it.
 */
export function asSentBy(
  email: Email,
  mode: { isSandbox: boolean; language: Language | null },
): Email {
  if (!mode.isSandbox) return email;
  const t = (text: string) => translateText(toLanguage(mode.language), text);
  const marking = t(sandboxMarkingMessage);
  return {
    to: email.to,
    subject: `[${marking}] ${email.subject}`,
    text: [marking, t(sandboxEmailMessage), '', email.text].join('\n'),
  };
}

/**
 * A queued email's language, as SQL over `outbox_emails`: the one it was written in, else
 * its recipient's (a row notify_user wrote).
 */
export const outboxLanguageSql = `COALESCE(outbox_emails.language,
  (SELECT ${writtenLanguageSql} FROM users WHERE users.email = outbox_emails.to_address))`;

export type Mailer = Poller;

/**
 * Delivers queued emails over SMTP. Rows are leased (next_attempt_at pushed into the
 * future) in a short transaction and sent outside it, so a slow SMTP server never holds
 * a database transaction open; a crash mid-send means the lease expires and the email
 * is sent again (at least once). Without SMTP_URL nothing is sent: in sandbox mode the
 * dev mailbox shows the queue.
 */
export function startMailer(options: {
  db: Database;
  smtpUrl: string | undefined;
  from: string;
  isSandbox: boolean;
  log: FastifyBaseLogger;
}): Mailer {
  const { db, smtpUrl, from, isSandbox, log } = options;
  if (!smtpUrl) return { kick() {}, stop: async () => {} };
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: sendTimeoutMs,
    socketTimeout: sendTimeoutMs,
  });

  async function deliverBatch(): Promise<number> {
    const leased = await db.query<{
      id: string;
      to_address: string;
      subject: string;
      text_body: string;
      send_in_language: string | null;
      attempts: number;
      language: Language | null;
    }>(
      `UPDATE outbox_emails SET next_attempt_at = now() + ($1 || ' milliseconds')::interval,
              attempts = attempts + 1
        WHERE id IN (SELECT id FROM outbox_emails
                      WHERE sent_at IS NULL AND next_attempt_at <= now() AND attempts < $2
                      ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, to_address, subject, text_body, send_in_language, attempts, ${outboxLanguageSql} AS language`,
      [String(leaseMs), attemptsMax, batchSizeMax],
    );
    for (const email of leased.rows) {
      try {
        const sent = asSentBy(queuedEmail(email), { isSandbox, language: email.language });
        await transport.sendMail({ from, ...sent });
        await db.query(
          'UPDATE outbox_emails SET sent_at = now(), last_error = NULL WHERE id = $1',
          [email.id],
        );
      } catch (error) {
        const backoffMs = Math.min(2 ** email.attempts * 10_000, 60 * 60 * 1000);
        log.warn({ err: error, emailId: email.id }, 'email delivery failed; will retry');
        await db.query(
          `UPDATE outbox_emails SET last_error = $2,
                  next_attempt_at = now() + ($3 || ' milliseconds')::interval WHERE id = $1`,
          [
            email.id,
            String(error instanceof Error ? error.message : error).slice(0, 500),
            String(backoffMs),
          ],
        );
      }
    }
    return leased.rows.length;
  }

  const poller = startPoller({
    intervalMs: pollIntervalMs,
    log,
    failureMessage: 'mail dispatcher failed',
    runBatch: async () => (await deliverBatch()) === batchSizeMax,
  });
  poller.kick();
  return {
    kick: poller.kick,
    async stop() {
      await poller.stop();
      transport.close();
    },
  };
}
