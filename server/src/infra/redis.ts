import { Redis, type RedisOptions } from 'ioredis';
import { DependencyWatch } from './dependency-faults.ts';

export type RedisConnections = { client: Redis; subscriber: Redis; prefix: string };

/** The server's connections (connectRedis), watched. */
export type WatchedRedis = RedisConnections & {
  /** Up while both connections are ready; its changes go to the log once each. */
  watch: DependencyWatch;
  /** Answers when Redis answers a PING within the command timeout and the subscriber is connected, rejects otherwise (health). */
  ping: () => Promise<void>;
};

// While Redis is away a command fails at once instead of waiting in a queue (a console request answers 503,
// a login never hangs): no offline queue, a command in flight when the connection drops is failed at the
// drop (maxRetriesPerRequest 0), none waits longer than COMMAND_TIMEOUT_MS, a connection attempt gives up
// after CONNECT_TIMEOUT_MS, and reconnecting is tried every RECONNECT_MAX_MS at most, so the instance
// serves again within a second or two of Redis's return. (ioredis 6 options.)
const COMMAND_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 2_000;
const RECONNECT_MAX_MS = 1_000;
export const REDIS_OPTIONS: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: COMMAND_TIMEOUT_MS,
  connectTimeout: CONNECT_TIMEOUT_MS,
  retryStrategy: (times) => Math.min(100 * 2 ** (times - 1), RECONNECT_MAX_MS),
};

type WarnLog = ConstructorParameters<typeof DependencyWatch>[1];

/** Connects (and fails at start, clearly) when REDIS_URL is set; afterwards reconnects by itself for as long as it takes. */
export async function connectRedis(url: string, prefix: string, log: WarnLog): Promise<WatchedRedis> {
  const client = new Redis(url, REDIS_OPTIONS);
  const subscriber = new Redis(url, REDIS_OPTIONS);
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    throw new Error(`Cannot connect to Redis at ${url}: ${(error as Error).message}`, { cause: error });
  }
  const watch = new DependencyWatch('Redis', log);
  for (const connection of [client, subscriber]) {
    // A listener on 'error' keeps ioredis from printing "[ioredis] Unhandled error event" to stderr on
    // every reconnect attempt; the watch logs the loss once.
    connection.on('error', (error) => watch.lost(error));
    connection.on('close', () => { if (connection.status !== 'end') watch.lost(); });
    connection.on('ready', () => { if (client.status === 'ready' && subscriber.status === 'ready') watch.back(); });
  }
  // (the subscriber too: without it this instance misses other instances' cache drops)
  const ping = async () => {
    if (subscriber.status !== 'ready') throw new Error(`Redis subscriber ${subscriber.status}`);
    await client.ping();
  };
  return { client, subscriber, prefix, watch, ping };
}

export async function closeRedis(redis: RedisConnections): Promise<void> {
  await Promise.allSettled([redis.client.quit(), redis.subscriber.quit()]);
}
