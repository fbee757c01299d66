import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const billRoutes: FastifyPluginAsyncZod = async (_app) => {};
