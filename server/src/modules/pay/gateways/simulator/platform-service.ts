import type { FastifyInstance } from 'fastify';
import { choreFailed, type BackgroundService } from '../../../../http/background-services.ts';
import type { SimulatedPlatform } from './platform.ts';

// The simulated payment platform as a part of this server: its public routes (the 支付模拟 page) by a plugin
// of its own, its pending work at start and its stop by a background service of the payments service.

/** Its routes; `app` also reaches this server itself, which is how its notifications are delivered. */
export function simulatedPlatformRoutes(platform: SimulatedPlatform) {
  return async (app: FastifyInstance) => platform.routes(app);
}

/**
 * After the server listens: the notifications its last run left unacknowledged go out again (when `resumes`:
 * one process of several); at close, nothing more goes out and what is under way settles.
 */
export function simulatedPlatformService(platform: SimulatedPlatform, resumes: boolean): BackgroundService {
  return {
    name: 'simulated payment platform', startOn: 'listen',
    start: (log) => {
      if (resumes) void platform.start(log).catch(choreFailed(log, 'simulator gateway: start failed'));
      return { stop: () => platform.stop() };
    },
  };
}
