import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { BackgroundServices, type BackgroundService } from './background-services.ts';

describe('background services', () => {
  const recording = (events: string[], name: string, startOn: BackgroundService['startOn']): BackgroundService => ({
    name, startOn,
    start: () => {
      events.push(`start ${name}`);
      return { stop: () => void events.push(`stop ${name}`) };
    },
  });

  it('start with their hook — "ready" in every app, "listen" only in a listening one — and stop in reverse before close', async () => {
    const events: string[] = [];
    const services = new BackgroundServices();
    services.add(recording(events, 'sweeper', 'listen'));
    services.add(recording(events, 'housekeeping', 'ready'));
    services.add(recording(events, 'fold', 'listen'));
    const app = Fastify();
    services.attach(app);
    app.addHook('onClose', async () => void events.push('database closed'));
    await app.ready();
    expect(events).toEqual(['start housekeeping']);
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(services.names()).toEqual(['housekeeping', 'sweeper', 'fold']);
    await app.close();
    expect(events).toEqual(['start housekeeping', 'start sweeper', 'start fold', 'stop fold', 'stop sweeper', 'stop housekeeping', 'database closed']);
  });

  it('an app the tests drive through inject runs none of the listening work', async () => {
    const events: string[] = [];
    const services = new BackgroundServices();
    services.add(recording(events, 'sweeper', 'listen'));
    const app = Fastify();
    services.attach(app);
    await app.ready();
    await app.inject({ method: 'GET', url: '/' });
    await app.close();
    expect(events).toEqual([]);
  });
});
