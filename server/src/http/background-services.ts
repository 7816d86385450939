import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { unavailableDependency } from '../infra/dependency-faults.ts';

// The server's long-lived work (sweepers, folds, the daily 对账, housekeeping), each a service registered
// once with how it starts and stops, all started and stopped here: main.ts starts none of them.
// - 'listen': work on the business's rows (the order sweeper, the rollup fold, 对账, log retention): only a
//   listening server runs it, so an app the tests drive through inject runs none of it behind their back.
// - 'ready': housekeeping every app does once it is built (sweeping partial uploads, the 监控查询 figures).
// They stop before the app closes its database (Fastify's preClose), in the reverse order of their start.

export type Running = { stop: () => void | Promise<void> };

export type BackgroundService = {
  name: string;
  startOn: 'ready' | 'listen';
  start: (log: FastifyBaseLogger) => Running | Promise<Running>;
};

export class BackgroundServices {
  readonly #services: BackgroundService[] = [];
  readonly #running: { name: string; running: Running }[] = [];

  add(service: BackgroundService): void {
    this.#services.push(service);
  }

  /** Starts each service on its hook of `app`; stops them all before the app closes. */
  attach(app: FastifyInstance): void {
    app.addHook('onReady', async () => this.#start('ready', app.log));
    app.addHook('onListen', async () => this.#start('listen', app.log));
    app.addHook('preClose', async () => this.stop());
  }

  names(): string[] {
    return this.#running.map((r) => r.name);
  }

  async stop(): Promise<void> {
    for (const { running } of this.#running.splice(0).reverse()) await running.stop();
  }

  async #start(startOn: BackgroundService['startOn'], log: FastifyBaseLogger): Promise<void> {
    for (const service of this.#services.filter((s) => s.startOn === startOn)) {
      this.#running.push({ name: service.name, running: await service.start(log) });
    }
  }
}

/**
 * The error handler of a chore: it tries again on its next turn. A dependency away is not an error of its
 * own (the dependency's state changes are logged once by its watch), anything else is.
 */
export const choreFailed = (log: FastifyBaseLogger, what: string) => (error: unknown) => {
  if (unavailableDependency(error)) log.info({ message: (error as Error).message }, `${what}: dependency unavailable, trying again next turn`);
  else log.error({ err: error }, what);
};
