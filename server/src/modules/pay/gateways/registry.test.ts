import { describe, expect, it } from 'vitest';
import { payGateways } from '@huiyun/contract';
import { startTestApp } from '../../../test/harness.ts';
import { GatewayRegistry, type Gateways, type PaymentGateway } from './gateway.ts';

// The registry holds one gateway for each of the contract's gateways (the compiler holds its Record
// complete; this checks that each entry is the gateway of its name), answers them by pay_config.gateway,
// and a test may put a gateway of the same name in place of one.

describe('the gateway registry', () => {
  it('has each of the contract\'s gateways under its own name, and no other', async () => {
    const t = await startTestApp();
    try {
      const registry = t.payments.gateways;
      expect(registry.all().map((g) => g.name).sort()).toEqual([...payGateways].sort());
      for (const name of payGateways) expect(registry.get(name)?.name).toBe(name);
      expect(registry.get('acme')).toBeUndefined();
      expect(registry.get('toString')).toBeUndefined(); // an inherited property is no gateway
    } finally {
      await t.close();
    }
  });

  it('answers a replaced gateway in place of the one of its name', () => {
    const named = <G extends string>(name: G) => ({ name }) as PaymentGateway & { name: G };
    const gateways = Object.fromEntries(payGateways.map((g) => [g, named(g)])) as unknown as Gateways;
    const registry = new GatewayRegistry(gateways);
    const other = named('alipay');
    expect(registry.get('alipay')).toBe(gateways.alipay);
    registry.replace(other as never);
    expect(registry.get('alipay')).toBe(other);
    expect(registry.all()).toHaveLength(payGateways.length);
  });
});
