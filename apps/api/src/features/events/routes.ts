import { type LiveEvent, liveEventName } from '@coffer/contracts/events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf, staffRoutesOf } from '../../platform/access.ts';
import { isSessionRevoked } from '../../platform/events.ts';

/** A comment line this often keeps proxies from closing an idle stream. */
const heartbeatIntervalMs = 20_000;
/**
 * Streams end after this long and the browser reconnects, passing the session check
 * again: a session that times out stops hearing events within this time. A revoked one
 * (logout, password change …) stops at once.
 */
const streamLifetimeMs = 5 * 60 * 1000;
/** How long the browser waits before reconnecting after a stream ends. */
const reconnectDelayMs = 1_000;

/**
 * Opens a Server-Sent Events stream that carries the events `isFor` accepts, until the
 * client goes away, its session is revoked, the stream's lifetime ends, the server
 * shuts down, or the process has missed events (its LISTEN connection was lost and is
 * back): the browser then reconnects and refetches everything it shows.
 */
function streamEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  isFor: (event: LiveEvent) => boolean,
): void {
  const { server } = request;
  const session = sessionOf(request);
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  response.write(`retry: ${reconnectDelayMs}\n: connected\n\n`);
  const unsubscribe = server.eventHub.subscribe((event) => {
    if (isFor(event)) response.write(`event: ${liveEventName}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  const stopWatchingSession = server.eventHub.onSessionRevoked((revocation) => {
    if (isSessionRevoked(revocation, session)) end();
  });
  const stopWatchingMissedEvents = server.eventHub.onEventsMissed(() => end());
  const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), heartbeatIntervalMs);
  const end = () => {
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    unsubscribe();
    stopWatchingSession();
    stopWatchingMissedEvents();
    server.openStreams.delete(end);
    if (!response.writableEnded) response.end();
  };
  const lifetime = setTimeout(end, streamLifetimeMs);
  server.openStreams.add(end);
  request.raw.on('close', end);
}

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  app.get('/events', { config: { access: 'customer', isEventStream: true } }, (request, reply) => {
    const { userId } = sessionOf(request);
    streamEvents(request, reply, (event) => event.userId === userId);
  });

  staffOnly.get(
    '/admin/events',
    { config: { access: 'staff', isEventStream: true } },
    (request, reply) => {
      streamEvents(request, reply, () => true);
    },
  );
};
