import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Where the bytes of stored files live, behind one small interface: this host's DATA_DIR/uploads (the
// default) or an S3-compatible bucket (infra/s3-file-store.ts) that several hosts share. Keys are made by
// infra/file-storage.ts and checked there (isStorageKey) before they reach a store.

export type StoredBytes = { stream: Readable; size: number };

export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Writes the bytes under `key`; nothing is readable under it until all of them are, and a failure leaves nothing. */
  write(key: string, source: Readable, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  read(key: string): Promise<StoredBytes | null>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** This host's path of `key` when the store is this host's disk (a worker thread then reads the file itself). */
  localPath(key: string): string | null;
  /** Removes what writes that died with their process left behind; answers how many. */
  sweepPartials(): Promise<number>;
}

/** The ending of a file still being written (never a storage key). */
const PARTIAL = '.part';
/** A leftover untouched this long is a dead write's: one in progress touches it all along. */
export const PARTIAL_ORPHAN_MS = 60 * 60_000;

/** Files under one folder of this host; each written to <key>.part and renamed to its key once whole. */
export class LocalFileStore implements FileStore {
  readonly kind = 'local';
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  localPath(key: string): string {
    return path.join(this.root, ...key.split('/'));
  }

  async write(key: string, source: Readable): Promise<void> {
    const target = this.localPath(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      await pipeline(source, fs.createWriteStream(target + PARTIAL, { flags: 'wx' }));
      await fs.promises.rename(target + PARTIAL, target);
    } catch (error) {
      await fs.promises.rm(target + PARTIAL, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<StoredBytes | null> {
    const file = this.localPath(key);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) return null;
    return { stream: fs.createReadStream(file, { highWaterMark: 1 << 18 }), size: stat.size };
  }

  async exists(key: string): Promise<boolean> {
    return (await fs.promises.stat(this.localPath(key)).catch(() => null))?.isFile() ?? false;
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.localPath(key), { force: true });
  }

  /** Another instance sharing the folder may be writing a recent partial file: those are left alone. */
  async sweepPartials(): Promise<number> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(PARTIAL)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat || Date.now() - stat.mtimeMs < PARTIAL_ORPHAN_MS) continue;
      await fs.promises.rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }
}
