import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalFileStore, type FileStore } from './file-store.ts';
import { S3FileStore } from './s3-file-store.ts';

/** The file store the configuration names (FILE_STORE): DATA_DIR/uploads by default, or the S3 bucket. */
export function openFileStore(config: Pick<Config, 'dataDir' | 'fileStore'>): FileStore {
  return config.fileStore.kind === 's3' ? new S3FileStore(config.fileStore) : new LocalFileStore(path.join(config.dataDir, 'uploads'));
}

/**
 * Why this server's files may not be found by its peers: uploads on this host's disk while several
 * processes (SERVER_WORKERS) or hosts (a shared PostgreSQL invites them) serve. Null when all is well.
 */
export function localFilesWarning(config: Pick<Config, 'fileStore' | 'workers' | 'databaseUrl'>): string | null {
  if (config.fileStore.kind !== 'local' || !config.databaseUrl) return null;
  const who = config.workers > 1 ? `${config.workers} server processes (SERVER_WORKERS)` : 'several hosts sharing this PostgreSQL';
  return `uploaded files are kept on this host's disk (DATA_DIR/uploads): with ${who}, a file uploaded through one is not found through another; set FILE_STORE=s3 (README "多台服务器")`;
}
