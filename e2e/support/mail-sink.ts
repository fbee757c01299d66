// A real SMTP server on a loopback port, so browser tests read the mail the API really sends
// (the same path an operator's mail server would get) instead of peeking at the database.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './wait.ts';

export type ReceivedMail = {
  /** Envelope recipients, lower-cased. */
  to: string[];
  subject: string;
  text: string;
  receivedAt: Date;
};

export type MailSink = {
  /** `smtp://127.0.0.1:<port>`, for the API's SMTP_URL. */
  url: string;
  readonly messages: readonly ReceivedMail[];
  /**
   * The first message to `to` whose subject contains `subject` (or matches it), received
   * after `after` if given; fails after `timeoutMs`.
   */
  waitForMail: (match: {
    to: string;
    subject?: string | RegExp;
    after?: Date;
    timeoutMs?: number;
  }) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
};

/** The sink keeps at most this many messages, so a runaway sender cannot eat the memory. */
const messagesMax = 500;
const mailSizeBytesMax = 1024 * 1024;

export async function startMailSink(): Promise<MailSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: mailSizeBytesMax,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          if (messages.length < messagesMax) {
            messages.push({
              to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              receivedAt: new Date(),
            });
          }
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  const matches = (
    mail: ReceivedMail,
    match: { to: string; subject?: string | RegExp; after?: Date },
  ) =>
    mail.to.includes(match.to.toLowerCase()) &&
    (match.after === undefined || mail.receivedAt >= match.after) &&
    (match.subject === undefined ||
      (typeof match.subject === 'string'
        ? mail.subject.includes(match.subject)
        : match.subject.test(mail.subject)));

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitForMail(match) {
      let found: ReceivedMail | undefined;
      await waitUntil(
        `a mail to ${match.to}${match.subject ? ` about ${match.subject}` : ''}`,
        async () => {
          found = messages.find((mail) => matches(mail, match));
          return found !== undefined;
        },
        match.timeoutMs ?? 15_000,
      );
      if (!found) throw new Error('unreachable: waitUntil returned without a match');
      return found;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text whose path is `path` (e.g. /verify-email). */
export function linkIn(mail: ReceivedMail, path: string): URL {
  for (const candidate of mail.text.match(/https?:\/\/\S+/g) ?? []) {
    const url = new URL(candidate);
    if (url.pathname === path) return url;
  }
  throw new Error(`no ${path} link in the mail "${mail.subject}":\n${mail.text}`);
}
