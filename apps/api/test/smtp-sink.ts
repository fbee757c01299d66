import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

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
