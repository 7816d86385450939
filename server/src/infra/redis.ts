import { Redis } from 'ioredis';

export type RedisConnections = { client: Redis; subscriber: Redis; prefix: string };

/** Connects (and fails at start, clearly) when REDIS_URL is set. */
export async function connectRedis(url: string, prefix: string): Promise<RedisConnections> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true };
  const client = new Redis(url, options);
  const subscriber = new Redis(url, options);
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    throw new Error(`Cannot connect to Redis at ${url}: ${(error as Error).message}`, { cause: error });
  }
  return { client, subscriber, prefix };
}

export async function closeRedis(redis: RedisConnections): Promise<void> {
  await Promise.allSettled([redis.client.quit(), redis.subscriber.quit()]);
}
