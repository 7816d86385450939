import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { RedisConnections } from '../../../infra/redis.ts';
import { OrderMoveRelay } from './move-relay.ts';
import { orderMoved, orderMoveOrTimeout } from './status-waiters.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('order moves across instances (Redis)', () => {
  const prefix = `test-${randomBytes(6).toString('hex')}:`;
  const connect = (): RedisConnections => ({ client: new Redis(redisUrl!), subscriber: new Redis(redisUrl!), prefix });
  const close = (...all: RedisConnections[]) => {
    for (const c of all) {
      c.client.disconnect();
      c.subscriber.disconnect();
    }
  };

  it('wakes the polls of another instance, not its own a second time', async () => {
    const [a, b] = [connect(), connect()];
    const wokenA: number[] = [];
    const wokenB: number[] = [];
    const relayA = new OrderMoveRelay(a, (id) => wokenA.push(id));
    const relayB = new OrderMoveRelay(b, (id) => wokenB.push(id));
    await relayA.start();
    await relayB.start();
    relayA.announce(7);
    relayB.announce(8);
    await expect.poll(() => wokenA, { timeout: 5000 }).toEqual([8]);
    await expect.poll(() => wokenB, { timeout: 5000 }).toEqual([7]);
    // A's own announcement (7) reached A's subscription before B's (8), in publish order: skipped.
    expect(wokenA).toEqual([8]);
    relayA.stop();
    relayB.stop();
    close(a, b);
  });

  it('announces the moves of its process it is told to once started, and a poll waiting elsewhere is woken by it', async () => {
    const [a, b] = [connect(), connect()];
    const announced: number[] = [];
    const relayA = new OrderMoveRelay(a);
    const listener = new OrderMoveRelay(b, (id) => announced.push(id)); // stands for another instance
    await listener.start();
    await relayA.start();
    orderMoved(9100); // a move polls elsewhere do not wait for: this process's polls only
    orderMoved(9101, { announce: true });
    await expect.poll(() => announced, { timeout: 5000 }).toContain(9101);
    expect(announced).not.toContain(9100);
    relayA.stop();
    orderMoved(9102, { announce: true }); // stopped: no longer announced
    orderMoved(9103, { announce: true });
    relayA.announce(9104); // (a direct announcement still goes: the subscription order proves the two above never went)
    await expect.poll(() => announced, { timeout: 5000 }).toContain(9104);
    expect(announced.filter((id) => id === 9102 || id === 9103)).toEqual([]);

    // The instance that receives an announcement wakes its waiting polls (orderMovedElsewhere, the default).
    const receiver = new OrderMoveRelay(a);
    await receiver.start();
    const wait = orderMoveOrTimeout(9105, 60_000); // a missed wake leaves this to the test's timeout
    new OrderMoveRelay(b).announce(9105);
    await wait;
    receiver.stop();
    listener.stop();
    close(a, b);
  });
});
