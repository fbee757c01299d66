import { devMailListSchema } from '@coffer/contracts/site';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asSentBy, queuedEmail } from '../../platform/mail.ts';
import { newestMail } from './queries.ts';

const messagesShownMax = 100;

/** Sandbox only (not registered otherwise): the mail Coffer sent, for trying flows without SMTP. */
export const devMailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dev/mail',
    { config: { access: 'public' }, schema: { response: { 200: devMailListSchema } } },
    async () => {
      const rows = await newestMail(app.db, messagesShownMax);
      // Shown as it is sent: with the sandbox marking.
      return {
        messages: rows.map((row) => ({
          id: row.id,
          ...asSentBy(queuedEmail(row), {
            isSandbox: app.config.isSandbox,
            language: row.language,
          }),
          createdAt: row.created_at.toISOString(),
        })),
      };
    },
  );
};
