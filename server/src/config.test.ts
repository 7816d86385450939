import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', sessionIdleMs: 30 * 60_000 });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.preparedStatements).toBe(true);
  });

  it('turns prepared statements off for poolers that cannot keep them', () => {
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }).preparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  it('sizes the PostgreSQL pool', () => {
    expect(loadConfig({}).poolSize).toBe(20);
    expect(loadConfig({ DATABASE_POOL_SIZE: '8' }).poolSize).toBe(8);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('bounds the wait for a pool connection and the console\'s statements', () => {
    expect(loadConfig({})).toMatchObject({ poolWaitMs: 5_000, poolMaxWaiting: 1_000, statementTimeouts: { readMs: 15_000, exportMs: 120_000 } });
    expect(loadConfig({ DATABASE_POOL_WAIT_MS: '300', DATABASE_POOL_MAX_WAITING: '0', CONSOLE_STATEMENT_TIMEOUT_MS: '0', EXPORT_STATEMENT_TIMEOUT_MS: '600000' }))
      .toMatchObject({ poolWaitMs: 300, poolMaxWaiting: 0, statementTimeouts: { readMs: 0, exportMs: 600_000 } });
    expect(() => loadConfig({ DATABASE_POOL_WAIT_MS: '0' })).toThrow(/DATABASE_POOL_WAIT_MS/);
    expect(() => loadConfig({ CONSOLE_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/CONSOLE_STATEMENT_TIMEOUT_MS/);
  });

  it('keeps 180 days of logs unless told otherwise', () => {
    expect(loadConfig({}).logRetentionDays).toBe(180);
    expect(loadConfig({ LOG_RETENTION_DAYS: '30' }).logRetentionDays).toBe(30);
    expect(() => loadConfig({ LOG_RETENTION_DAYS: '0' })).toThrow(/LOG_RETENTION_DAYS/);
  });

  it('runs several server processes only on PostgreSQL with Redis', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(() => loadConfig({ SERVER_WORKERS: '2' })).toThrow(/SERVER_WORKERS.*DATABASE_URL/);
    expect(() => loadConfig({ SERVER_WORKERS: '2', DATABASE_URL: 'postgres://x/y' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ SERVER_WORKERS: '2', DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://r' }).workers).toBe(2);
    expect(loadConfig({ SERVER_WORKERS: '1' }).workers).toBe(1);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '99999' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must start with postgres/);
    expect(() => loadConfig({ ADMIN_PASSWORD: '123' })).toThrow(/ADMIN_PASSWORD/);
  });

  it('checks the payment secret key without ever echoing it', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ PAY_SECRET_KEY: key }).paySecretKey).toBe(key);
    expect(loadConfig({ PAY_SECRET_PREVIOUS_KEYS: `${key},${key}` }).paySecretPreviousKeys).toEqual([key, key]);
    const short = Buffer.alloc(16, 9).toString('base64');
    expect(() => loadConfig({ PAY_SECRET_KEY: short })).toThrow(/PAY_SECRET_KEY: must be 32 bytes/);
    try { loadConfig({ PAY_SECRET_KEY: short }); } catch (error) { expect(String(error)).not.toContain(short); }
  });

  it('keeps files on this host unless told to use an S3 bucket, which needs its name', () => {
    expect(loadConfig({}).fileStore).toEqual({ kind: 'local' });
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(/S3_BUCKET/);
    expect(loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'files', S3_ENDPOINT: 'http://minio:9000' }).fileStore).toMatchObject({ kind: 's3', bucket: 'files', forcePathStyle: true, credentials: undefined });
    expect(loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'files' }).fileStore).toMatchObject({ forcePathStyle: false });
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' })).toThrow(/set both or neither/);
    try { loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'x', S3_SECRET_ACCESS_KEY: 'very-secret', S3_PREFIX: 'bad' }); } catch (error) { expect(String(error)).not.toContain('very-secret'); }
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined();
  });
});
