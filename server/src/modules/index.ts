import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { CallerResolvers } from '../http/access-check.ts';
import { loadAccess } from './auth/access.ts';
import { authRoutes } from './auth/routes.ts';
import { authCodeRoutes } from './authcode/routes.ts';
import { blacklistRoutes } from './blacklist/routes.ts';
import { deptRoutes } from './dept/routes.ts';
import { authenticateDevice } from './device/device-auth.ts';
import { deviceRoutes } from './device/routes.ts';
import { fileRoutes } from './files/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { machineRoutes } from './machine/routes.ts';
import { menuRoutes } from './menu/routes.ts';
import { monitorRoutes } from './monitor/routes.ts';
import { permissionRoutes } from './permission/routes.ts';
import { roleRoutes } from './role/routes.ts';
import { statisticsRoutes } from './statistics/routes.ts';
import { taskRoutes } from './task/routes.ts';
import { taskFileVisible } from './task/task-files.ts';
import { userRoutes } from './user/routes.ts';
import { variableRoutes } from './variable/routes.ts';
import { payConfigRoutes } from './pay-config/routes.ts';
import { terminalConfigRoutes } from './terminal-config/routes.ts';
import { terminalRoutes } from './terminal/routes.ts';
import { authenticateTerminal } from './terminal/auth.ts';
import { orderListRoutes } from './order-list/routes.ts';
import { notifyRoutes } from './order/notify-routes.ts';
import { payAlarmRoutes } from './pay-alarm/routes.ts';
import { reconcileRoutes } from './reconcile/routes.ts';
import { replyRoutes } from './reply/routes.ts';
import { salesChartsRoutes } from './sales-charts/routes.ts';
import { apiDocsRoutes } from './api-docs/routes.ts';

/** Every area of the API, each a Fastify plugin of its own (modules/<area>/routes.ts). */
const areas = [
  healthRoutes, authRoutes, userRoutes, deptRoutes, roleRoutes, menuRoutes, permissionRoutes, variableRoutes, monitorRoutes,
  taskRoutes, (ctx: AppContext) => fileRoutes(ctx, [taskFileVisible]), authCodeRoutes, statisticsRoutes, blacklistRoutes, deviceRoutes, replyRoutes,
  payConfigRoutes, terminalConfigRoutes,
  machineRoutes,
  terminalRoutes, notifyRoutes,
  orderListRoutes, payAlarmRoutes, reconcileRoutes,
  salesChartsRoutes,
  apiDocsRoutes,
];

export async function registerModules(app: FastifyInstance, ctx: AppContext): Promise<void> {
  for (const area of areas) await app.register(area(ctx));
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
