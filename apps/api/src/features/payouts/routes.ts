import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const payoutRoutes: FastifyPluginAsyncZod = async (_app) => {};
