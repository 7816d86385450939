import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { localFilesWarning, openFileStore } from './open-file-store.ts';

describe('the file store a configuration opens', () => {
  it('is this host’s uploads folder by default, the bucket with FILE_STORE=s3', () => {
    expect(openFileStore(loadConfig({ DATA_DIR: '/srv/huiyun' })).localPath('2026/11/a.txt')).toBe('/srv/huiyun/uploads/2026/11/a.txt');
    expect(openFileStore(loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'files' })).kind).toBe('s3');
  });

  it('warns when several processes or hosts would each keep their own files', () => {
    const pg = { DATABASE_URL: 'postgres://db/huiyun', REDIS_URL: 'redis://r' };
    expect(localFilesWarning(loadConfig({}))).toBeNull();
    expect(localFilesWarning(loadConfig({ ...pg, SERVER_WORKERS: '2' }))).toMatch(/2 server processes.*FILE_STORE=s3/);
    expect(localFilesWarning(loadConfig(pg))).toMatch(/several hosts/);
    expect(localFilesWarning(loadConfig({ ...pg, SERVER_WORKERS: '2', FILE_STORE: 's3', S3_BUCKET: 'files' }))).toBeNull();
  });
});
