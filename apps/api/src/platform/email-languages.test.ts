import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { signedUpClient, TestClient } from '../../test/http.ts';
import { type MailTestApp, useTestAppWithMail } from '../../test/smtp-sink.ts';
import { inLanguage } from './mail.ts';

let app: FastifyInstance;
let sink: MailTestApp['sink'];

useTestAppWithMail((opened) => {
  ({ app, sink } = opened);
});

async function signUpIn(acceptLanguage: string) {
  const { client, body } = await signedUpClient(app, {}, { 'accept-language': acceptLanguage });
  return { client, email: body.email.toLowerCase(), username: body.username };
}

describe('emails in the recipient’s language', () => {
  it('sends the sign-up’s confirmation in German, as the browser asked', async () => {
    const { email, username } = await signUpIn('de-DE,de;q=0.9');
    const mail = await sink.waitForMail({ to: email, subject: /E-Mail-Adresse/ });
    expect(mail.subject).toMatch(/Bestätigen Sie Ihre E-Mail-Adresse für /);
    expect(mail.text).toContain(`Guten Tag ${username},`);
    expect(mail.text).toContain('innerhalb von 48 Stunden diesen Link öffnen:');
    expect(mail.text).toMatch(/https?:\/\/\S+verify-email\?token=/);
    expect(mail.text).not.toContain('Please confirm');
  });

  it('sends a password reset in Japanese to a customer who chose Japanese', async () => {
    const { client, email, username } = await signUpIn('en');
    const chosen = await client.request('PUT', '/api/v1/profile/language', { language: 'ja' });
    expect(chosen.statusCode).toBe(200);
    const asked = await new TestClient(app).request(
      'POST',
      '/api/v1/auth/forgot-password',
      { email },
      { 'accept-language': 'ja' },
    );
    expect(asked.statusCode).toBe(202);
    expect(asked.json().message).toBe(
      'パスワード再設定のメールを送信しました。受信トレイをご確認ください。',
    );
    const mail = await sink.waitForMail({ to: email, subject: /パスワード/ });
    expect(mail.subject).toMatch(/のパスワードを再設定してください$/);
    expect(mail.text).toContain(`${username} 様`);
    expect(mail.text).toContain('30分以内に次のリンクを開いてください。');
    expect(mail.text).toMatch(/reset-password\?token=/);
  });

  it('writes the amounts of a message as the language writes them', () => {
    const email = {
      to: 'someone@example.com',
      subject:
        'Your loan request of €5,000.00 was approved. It will be paid into your wallet shortly.',
      text: 'Hello Alex,\n\nYou received ¥12,345 by Quick Pay.\nhttps://bank.example/dashboard',
    };
    // Intl keeps the amount and its currency together with a no-break space.
    expect(inLanguage(email, 'de')).toEqual({
      to: 'someone@example.com',
      subject:
        'Ihr Kreditantrag über 5.000,00\u00a0€ wurde genehmigt. Der Betrag wird in Kürze auf Ihre Wallet ausgezahlt.',
      text: 'Guten Tag Alex,\n\nSie haben 12.345\u00a0¥ per Quick Pay erhalten.\nhttps://bank.example/dashboard',
    });
    expect(inLanguage(email, 'ja').text).toContain('Quick Payで￥12,345を受け取りました。');
    expect(inLanguage(email, 'en')).toEqual(email);
  });
});
