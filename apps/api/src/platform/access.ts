import type { FastifyInstance, RouteOptions } from 'fastify';
import { AppError } from './app-error.ts';

/** Who may call a route. Every API route declares one in `config.access`. */
export type Access = 'public' | 'customer' | 'staff' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export type RegisteredRoute = { method: string; url: string; access: Access | undefined };

/**
 * Records every route with its access declaration, so a test can fail when a route has
 * none, and refuses calls the declaration does not allow. Sessions arrive with the
 * identity feature; until then only public routes answer.
 */
export function registerAccessControl(app: FastifyInstance, routes: RegisteredRoute[]): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, access: route.config?.access });
    }
  });
  app.addHook('preHandler', async (request) => {
    // The not-found handler runs hooks too; it has no route to declare anything.
    if (request.is404 || !request.url.startsWith('/api/')) return;
    const access = request.routeOptions.config.access;
    if (access === undefined)
      throw new Error(`route ${request.routeOptions.url} declares no access`);
    if (access !== 'public') throw new AppError('unauthenticated');
  });
}
