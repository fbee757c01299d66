import {
  registerWebhookBodySchema,
  webhookAlertsSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookEndpointIdParamsSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookSecretSchema,
} from '@coffer/contracts/webhooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffRoutesOf } from '../../platform/access.ts';
import { deliverDue, deliveryJobIntervalMs, deliveryJobName } from './delivery.ts';
import {
  changeEndpointStatus,
  deliveriesOf,
  listEndpoints,
  registerEndpoint,
  removeEndpoint,
  replayDelivery,
  rollSecret,
  webhookAlerts,
} from './service.ts';

/**
 * Webhooks for integrators (issue #34 item 1, ADR 048): the admin's endpoints and their
 * deliveries, the staff home's warning, and the delivery job.
 */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = {
    db: app.db,
    secretKeys: app.config.secretKeys,
    isWebhookToPrivateAllowed: app.config.isWebhookToPrivateAllowed,
  };

  await app.jobs.register({
    name: deliveryJobName,
    intervalMs: deliveryJobIntervalMs,
    run: async (now) => {
      await deliverDue({ ...deps, log: app.log }, now);
    },
  });

  staffOnly.get(
    '/admin/webhooks',
    { config: { access: 'admin' }, schema: { response: { 200: webhookEndpointListSchema } } },
    () => listEndpoints(deps),
  );

  staffOnly.post(
    '/admin/webhooks',
    {
      config: { access: 'admin' },
      schema: { body: registerWebhookBodySchema, response: { 201: webhookSecretSchema } },
    },
    async (request, reply, staff) => {
      const created = await registerEndpoint(deps, { staff, ipAddress: request.ip }, request.body);
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(created);
    },
  );

  staffOnly.post(
    '/admin/webhooks/:endpointId/secret',
    {
      config: { access: 'admin' },
      schema: { params: webhookEndpointIdParamsSchema, response: { 200: webhookSecretSchema } },
    },
    async (request, reply, staff) => {
      const rolled = await rollSecret(
        deps,
        { staff, ipAddress: request.ip },
        request.params.endpointId,
        new Date(),
      );
      reply.header('cache-control', 'no-store');
      return rolled;
    },
  );

  for (const [path, isEnabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    staffOnly.post(
      `/admin/webhooks/:endpointId/${path}`,
      {
        config: { access: 'admin' },
        schema: {
          params: webhookEndpointIdParamsSchema,
          response: { 200: webhookEndpointSchema },
        },
      },
      (request, _reply, staff) =>
        changeEndpointStatus(
          deps,
          { staff, ipAddress: request.ip },
          request.params.endpointId,
          isEnabled,
          new Date(),
        ),
    );
  }

  staffOnly.delete(
    '/admin/webhooks/:endpointId',
    { config: { access: 'admin' }, schema: { params: webhookEndpointIdParamsSchema } },
    async (request, reply, staff) => {
      await removeEndpoint(deps, { staff, ipAddress: request.ip }, request.params.endpointId);
      return reply.status(204).send();
    },
  );

  staffOnly.get(
    '/admin/webhooks/:endpointId/deliveries',
    {
      config: { access: 'admin' },
      schema: {
        params: webhookEndpointIdParamsSchema,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    (request) => deliveriesOf(deps, request.params.endpointId),
  );

  staffOnly.post(
    '/admin/webhooks/:endpointId/deliveries/:deliveryId/replay',
    { config: { access: 'admin' }, schema: { params: webhookDeliveryParamsSchema } },
    async (request, reply, staff) => {
      await replayDelivery(
        deps,
        { staff, ipAddress: request.ip },
        request.params.endpointId,
        request.params.deliveryId,
        new Date(),
      );
      return reply.status(202).send();
    },
  );

  // Support sees the warning too: the staff home is theirs as well.
  staffOnly.get(
    '/admin/webhooks/alerts',
    { config: { access: 'staff' }, schema: { response: { 200: webhookAlertsSchema } } },
    () => webhookAlerts(deps),
  );
};
