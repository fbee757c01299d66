import type { Language } from '@coffer/contracts/languages';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { outboxEmails } from '../../db/schema.ts';
import { outboxLanguageSql } from '../../platform/mail.ts';

export type SentMailRow = Pick<
  RowOf<typeof outboxEmails>,
  'id' | 'to_address' | 'subject' | 'text_body' | 'send_in_language' | 'created_at'
> & { language: Language | null };

/** The newest mail in the outbox, sent or not, at most `limit`. */
export async function newestMail(db: Queryable, limit: number): Promise<SentMailRow[]> {
  const found = await db.query<SentMailRow>(
    `SELECT id, to_address, subject, text_body, send_in_language, created_at,
            ${outboxLanguageSql} AS language
       FROM outbox_emails ORDER BY created_at DESC LIMIT $1`,
    [limit],
  );
  return found.rows;
}
