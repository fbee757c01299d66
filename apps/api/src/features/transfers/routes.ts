import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const transferRoutes: FastifyPluginAsyncZod = async (_app) => {};
