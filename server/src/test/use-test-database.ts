import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** A database of its own for the enclosing describe block: made before its tests, closed and dropped after. */
export function useTestDatabase(options: Parameters<typeof createTestDatabase>[0] = {}): () => TestDatabase {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    t = await createTestDatabase(options);
  });
  afterAll(async () => {
    await t?.db.destroy();
    await t?.drop();
  });
  return () => t!;
}
