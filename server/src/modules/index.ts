import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { CallerResolvers } from '../http/access-check.ts';
import type { BackgroundServices } from '../http/background-services.ts';
import { loadAccess, authRoutes } from './system/auth/index.ts';
import { authCodeRoutes } from './sending/authcodes/index.ts';
import { blacklistRoutes } from './sending/blacklist/index.ts';
import { deptRoutes } from './system/dept/index.ts';
import { authenticateDevice, deviceRoutes } from './sending/devices/index.ts';
import { fileRoutes } from './sending/files/index.ts';
import { healthRoutes } from './platform/health/index.ts';
import { machineRoutes } from './pay/machines/index.ts';
import { menuRoutes } from './system/menu/index.ts';
import { monitorRoutes } from './monitor/logs/index.ts';
import { permissionRoutes } from './system/permission/index.ts';
import { roleRoutes } from './system/role/index.ts';
import { statisticsRoutes } from './sending/statistics/index.ts';
import { taskRoutes, taskFileVisible } from './sending/tasks/index.ts';
import { userRoutes } from './system/user/index.ts';
import { variableRoutes } from './system/variable/index.ts';
import { payConfigRoutes } from './pay/configs/index.ts';
import { terminalConfigRoutes } from './pay/terminal-configs/index.ts';
import { terminalRoutes, authenticateTerminal } from './pay/terminal/index.ts';
import { orderListRoutes } from './pay/order-list/index.ts';
import { notifyRoutes } from './pay/orders/index.ts';
import { simulatedPlatformRoutes } from './pay/gateways/index.ts';
import { payAlarmRoutes } from './pay/alarms/index.ts';
import { reconcileRoutes } from './pay/reconcile/index.ts';
import { replyRoutes } from './sending/replies/index.ts';
import { salesChartsRoutes } from './pay/charts/index.ts';
import { apiDocsRoutes } from './platform/api-docs/index.ts';
import { paymentsService, type PaymentsOptions } from './pay/payments/index.ts';
import type { Payments } from './pay/orders/index.ts';

/**
 * Every area of the API, each a Fastify plugin of its own (modules/<wing>/<area>/routes.ts), and the
 * payments service whose Payments the payment areas share and whose long-lived work joins `services`.
 * Answers those Payments (the tests and benches drive orders through them).
 */
export async function registerModules(app: FastifyInstance, ctx: AppContext, services: BackgroundServices, options: PaymentsOptions = {}): Promise<Payments> {
  const { payments, services: paymentServices } = paymentsService(ctx, options);
  for (const service of paymentServices) services.add(service);
  const areas = [
    healthRoutes(ctx), authRoutes(ctx), userRoutes(ctx), deptRoutes(ctx), roleRoutes(ctx), menuRoutes(ctx), permissionRoutes(ctx), variableRoutes(ctx), monitorRoutes(ctx),
    taskRoutes(ctx), fileRoutes(ctx, [taskFileVisible], services), authCodeRoutes(ctx), statisticsRoutes(ctx), blacklistRoutes(ctx), deviceRoutes(ctx), replyRoutes(ctx),
    payConfigRoutes(ctx, payments.gateways), terminalConfigRoutes(ctx),
    machineRoutes(ctx),
    terminalRoutes(ctx, payments), notifyRoutes(payments), simulatedPlatformRoutes(payments.simulated),
    orderListRoutes(ctx, payments), payAlarmRoutes(ctx), reconcileRoutes(ctx, payments.gateways),
    salesChartsRoutes(ctx),
    apiDocsRoutes(ctx),
  ];
  for (const area of areas) await app.register(area);
  return payments;
}

/** How the access check (http/access-check.ts) finds a session's caller and a token's device. */
export function callerResolvers(ctx: AppContext): CallerResolvers {
  return {
    loadAccess: (userId) => loadAccess(ctx.db, userId),
    authenticateDevice: async (request, token, rechecked) => {
      request.device = await authenticateDevice(ctx, token, { rechecked });
    },
    authenticateTerminal: (request) => authenticateTerminal(ctx, request),
  };
}
