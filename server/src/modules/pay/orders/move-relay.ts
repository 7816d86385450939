import { randomUUID } from 'node:crypto';
import type { RedisConnections } from '../../../infra/redis.ts';
import { announceMovesTo, orderMovedElsewhere } from './status-waiters.ts';

/**
 * Several server instances (REDIS_URL): each announces on one Redis channel the moves of its orders that
 * machines' long polls wait for (→ 已支付, → 订单超时: state-machine.ts), and each wakes its own long polls
 * of an order another instance moved. A machine's poll is held by whichever instance it reached, seldom
 * the one the payment notification reached; without this it saw the move only at its next read
 * (order/status.ts `RECHECK_MS`). Pub/sub delivers at most once: a lost announcement (a reconnect) leaves
 * the poll to that read. An instance skips its own announcements (it woke its polls when it moved the order).
 */
export class OrderMoveRelay {
  readonly #redis: RedisConnections;
  readonly #channel: string;
  readonly #instance = randomUUID();
  readonly #wake: (orderId: number) => void;
  #stopAnnouncing: (() => void) | undefined;

  constructor(redis: RedisConnections, wake: (orderId: number) => void = orderMovedElsewhere) {
    this.#redis = redis;
    this.#channel = `${redis.prefix}order-moved`;
    this.#wake = wake;
  }

  readonly #onMessage = (channel: string, message: string) => {
    if (channel !== this.#channel) return;
    const [instance, orderId] = message.split(' ');
    if (instance !== this.#instance && Number.isSafeInteger(Number(orderId))) this.#wake(Number(orderId));
  };

  async start(): Promise<void> {
    this.#redis.subscriber.on('message', this.#onMessage);
    await this.#redis.subscriber.subscribe(this.#channel);
    this.#stopAnnouncing = announceMovesTo((orderId) => this.announce(orderId));
  }

  /** Tells the other instances `orderId` moved; a failure only leaves their polls to their next read. */
  announce(orderId: number): void {
    this.#redis.client.publish(this.#channel, `${this.#instance} ${orderId}`).catch(() => {});
  }

  stop(): void {
    this.#stopAnnouncing?.();
    this.#redis.subscriber.off('message', this.#onMessage);
  }
}
