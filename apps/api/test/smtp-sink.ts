import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { buildTestApp } from './app.ts';
import { openTestDatabase } from './database.ts';

export type ReceivedMail = { to: string; subject: string; text: string };

/** A real SMTP server on a loopback port that keeps what it receives. */
export async function startSmtpSink(): Promise<{
  url: string;
  messages: ReceivedMail[];
  waitForMail: (
    match: { to: string; subject?: RegExp },
    timeoutMs?: number,
  ) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const recipients = session.envelope.rcptTo.map((recipient) =>
            recipient.address.toLowerCase(),
          );
          for (const to of recipients)
            messages.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitForMail(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(
          (mail) => mail.to === match.to && (!match.subject || match.subject.test(mail.subject)),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${match.to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MailTestApp = {
  app: FastifyInstance;
  db: Database;
  sink: Awaited<ReturnType<typeof startSmtpSink>>;
};

/**
 * A fresh database, a real SMTP sink and the app sending to it, for the calling test file:
 * opened before its first test, given to `onReady`, closed after its last.
 */
export function useTestAppWithMail(onReady: (opened: MailTestApp) => void): void {
  let opened: MailTestApp | undefined;
  beforeAll(async () => {
    const db = await openTestDatabase();
    const sink = await startSmtpSink();
    const app = await buildTestApp(db, { SMTP_URL: sink.url });
    await app.ready();
    opened = { app, db, sink };
    onReady(opened);
  });
  afterAll(async () => {
    await opened?.app.close();
    await opened?.sink.stop();
    await opened?.db.close();
  });
}
