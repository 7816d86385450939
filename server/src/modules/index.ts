import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { CallerResolvers } from '../http/access-check.ts';
import { loadAccess } from './system/auth/access.ts';
import { authRoutes } from './system/auth/routes.ts';
import { authCodeRoutes } from './sending/authcodes/routes.ts';
import { blacklistRoutes } from './sending/blacklist/routes.ts';
import { deptRoutes } from './system/dept/routes.ts';
import { authenticateDevice } from './sending/devices/device-auth.ts';
import { deviceRoutes } from './sending/devices/routes.ts';
import { fileRoutes } from './sending/files/routes.ts';
import { healthRoutes } from './platform/health/routes.ts';
import { machineRoutes } from './pay/machines/routes.ts';
import { menuRoutes } from './system/menu/routes.ts';
import { monitorRoutes } from './monitor/logs/routes.ts';
import { permissionRoutes } from './system/permission/routes.ts';
import { roleRoutes } from './system/role/routes.ts';
import { statisticsRoutes } from './sending/statistics/routes.ts';
import { taskRoutes } from './sending/tasks/routes.ts';
import { taskFileVisible } from './sending/tasks/task-files.ts';
import { userRoutes } from './system/user/routes.ts';
import { variableRoutes } from './system/variable/routes.ts';
import { payConfigRoutes } from './pay/configs/routes.ts';
import { terminalConfigRoutes } from './pay/terminal-configs/routes.ts';
import { terminalRoutes } from './pay/terminal/routes.ts';
import { authenticateTerminal } from './pay/terminal/auth.ts';
import { orderListRoutes } from './pay/order-list/routes.ts';
import { notifyRoutes } from './pay/orders/notify-routes.ts';
import { payAlarmRoutes } from './pay/alarms/routes.ts';
import { reconcileRoutes } from './pay/reconcile/routes.ts';
import { replyRoutes } from './sending/replies/routes.ts';
import { salesChartsRoutes } from './pay/charts/routes.ts';
import { apiDocsRoutes } from './platform/api-docs/routes.ts';

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
