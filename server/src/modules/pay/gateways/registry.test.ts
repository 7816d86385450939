import { describe, expect, it } from 'vitest';
import { GatewayRegistry, type PaymentGateway } from './gateway.ts';

// The registry's lifecycle: main.ts, the notify plugin and the payment runtime call every gateway's hooks
// through it, and name none.

/** A gateway with only what the lifecycle reads: the calls it got land in `calls`. */
function gateway(name: string, calls: string[], hooks: { failStart?: boolean; lifecycle?: boolean } = {}): PaymentGateway {
  const base = { name } as PaymentGateway;
  if (hooks.lifecycle === false) return base;
  return Object.assign(base, {
    routes: () => void calls.push(`${name}.routes`),
    start: async () => {
      calls.push(`${name}.start`);
      if (hooks.failStart) throw new Error('away');
    },
    settled: async () => void calls.push(`${name}.settled`),
    stop: async () => void calls.push(`${name}.stop`),
  });
}

describe('the gateway registry', () => {
  it('runs each hook of every gateway that has it; a failed start is reported with its name and stops no other', async () => {
    const calls: string[] = [];
    const registry = new GatewayRegistry().add(gateway('a', calls, { failStart: true })).add(gateway('plain', calls, { lifecycle: false })).add(gateway('b', calls));
    registry.routes({} as never);
    const failed: string[] = [];
    await registry.start({ info: () => undefined }, (name) => failed.push(name));
    await registry.settled();
    await registry.stop();
    expect(failed).toEqual(['a']);
    expect(calls).toEqual(['a.routes', 'b.routes', 'a.start', 'b.start', 'a.settled', 'b.settled', 'a.stop', 'b.stop']);
  });

  it('answers a gateway by its pay_config.gateway value, and a later add replaces it', () => {
    const calls: string[] = [];
    const first = gateway('x', calls);
    const second = gateway('x', calls);
    const registry = new GatewayRegistry().add(first);
    expect(registry.get('x')).toBe(first);
    registry.add(second);
    expect(registry.get('x')).toBe(second);
    expect(registry.all()).toEqual([second]);
    expect(registry.get('y')).toBeUndefined();
  });
});
