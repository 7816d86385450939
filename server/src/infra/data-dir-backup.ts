import fs from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { migrations } from '../db/migrations/index.ts';
import { SECRET_KEY_FILE } from './secret-key.ts';

// A backup of the embedded deployment's DATA_DIR, made while the server runs and machines sell:
//   <to>/huiyun.db        node:sqlite's online backup of DATA_DIR/huiyun.db, all pages in one step: one
//                         consistent snapshot (a WAL reader: the server's writers never wait for it)
//   <to>/uploads/…        every stored file the snapshot's sys_upload rows name (a row is written after its
//                         file, so each is there); files uploaded after the snapshot are not its data
//   <to>/manifest.json    when, which version, the schema's last migration, the rows of the main tables
//   <to>/pay-secret.key   only with withKey: without the key a backup cannot open a single 支付配置, so it is
//                         never mixed in silently — the caller reminds whoever runs it where the key is kept
// restoreDataDir lays such a backup into an empty DATA_DIR.

export const DATABASE_FILE = 'huiyun.db';
export const MANIFEST_FILE = 'manifest.json';
/** Pages a backup step copies: more than any database has, so one step copies a snapshot (a smaller step restarts when the server writes). */
const ALL_PAGES = 2 ** 31 - 1;
const COUNTED = ['pay_order', 'pay_machine', 'pay_aisle', 'pay_config', 'sync_task', 'sync_task_number', 'sys_upload', 'sys_user', 'sys_dept'] as const;

export type BackupManifest = {
  kind: 'huiyun-sqlite-backup';
  time: string;
  version: string;
  /** The last migration the database had (a server older than it refuses to start on it). */
  migration: string;
  counts: Record<string, number>;
  files: { count: number; bytes: number; missing: string[]; store: 'local' | 's3' };
  key: 'included' | 'not included';
  databaseBytes: number;
};

export type BackupOptions = {
  dataDir: string;
  /** The database file, when not DATA_DIR/huiyun.db (a bench's). */
  databaseFile?: string;
  to: string;
  withKey?: boolean;
  /** Stored files in an S3 bucket are not copied (the bucket is backed up on its own). */
  fileStore?: 'local' | 's3';
  version?: string;
};

export class BackupError extends Error {}

/** Backs DATA_DIR up into `to` (made; must be empty or missing). Answers the manifest it wrote. */
export async function backupDataDir(options: BackupOptions): Promise<BackupManifest> {
  const source = options.databaseFile ?? path.join(options.dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`no database at ${source}: DATA_DIR holds no embedded (SQLite) data (on PostgreSQL use pg_dump, README "备份与恢复")`);
  assertEmptyTarget(options.to);
  fs.mkdirSync(options.to, { recursive: true });
  try {
    return await writeBackup(source, options);
  } catch (error) {
    fs.rmSync(options.to, { recursive: true, force: true }); // nothing half-written is left to be taken for a backup
    throw error;
  }
}

async function writeBackup(source: string, options: BackupOptions): Promise<BackupManifest> {
  const target = path.join(options.to, DATABASE_FILE);
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    await backup(db, target, { rate: ALL_PAGES });
  } finally {
    db.close();
  }
  const snapshot = new DatabaseSync(target, { readOnly: true });
  let manifest: BackupManifest;
  try {
    const files = options.fileStore === 's3'
      ? { count: 0, bytes: 0, missing: [], store: 's3' as const }
      : copyStoredFiles(snapshot, path.join(options.dataDir, 'uploads'), path.join(options.to, 'uploads'));
    const keyFile = path.join(options.dataDir, SECRET_KEY_FILE);
    const withKey = Boolean(options.withKey) && fs.existsSync(keyFile);
    if (withKey) fs.copyFileSync(keyFile, path.join(options.to, SECRET_KEY_FILE));
    manifest = {
      kind: 'huiyun-sqlite-backup',
      time: new Date().toISOString(),
      version: options.version ?? 'dev',
      migration: lastMigration(snapshot),
      counts: Object.fromEntries(COUNTED.map((table) => [table, countRows(snapshot, table)])),
      files,
      key: withKey ? 'included' : 'not included',
      databaseBytes: fs.statSync(target).size,
    };
  } finally {
    snapshot.close();
  }
  fs.writeFileSync(path.join(options.to, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Lays a backup into `dataDir`, which must be empty or missing. Answers the backup's manifest. */
export function restoreDataDir(options: { from: string; dataDir: string }): BackupManifest {
  const manifestFile = path.join(options.from, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) throw new BackupError(`${options.from} is not a backup: it has no ${MANIFEST_FILE}`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.kind !== 'huiyun-sqlite-backup') throw new BackupError(`${manifestFile} is not a 汇云运营台 backup's manifest`);
  assertEmptyTarget(options.dataDir);
  const database = path.join(options.from, DATABASE_FILE);
  const check = new DatabaseSync(database, { readOnly: true });
  try {
    const integrity = check.prepare('pragma quick_check').get() as Record<string, unknown>;
    if (Object.values(integrity)[0] !== 'ok') throw new BackupError(`${database} is damaged: ${JSON.stringify(integrity)}`);
    const unlike = differencesFromManifest(check, manifest, path.join(options.from, 'uploads'));
    if (unlike.length) throw new BackupError(`${options.from} does not match its manifest, nothing was restored:\n  ${unlike.join('\n  ')}`);
    if (manifest.migration && !Object.hasOwn(migrations, manifest.migration)) {
      throw new BackupError(`the backup was made by a newer version of the server (migration ${manifest.migration}, which this version does not know): restore it with that version`);
    }
  } finally {
    check.close();
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  fs.copyFileSync(database, path.join(options.dataDir, DATABASE_FILE));
  const uploads = path.join(options.from, 'uploads');
  if (fs.existsSync(uploads)) fs.cpSync(uploads, path.join(options.dataDir, 'uploads'), { recursive: true });
  const key = path.join(options.from, SECRET_KEY_FILE);
  if (fs.existsSync(key)) {
    fs.copyFileSync(key, path.join(options.dataDir, SECRET_KEY_FILE));
    fs.chmodSync(path.join(options.dataDir, SECRET_KEY_FILE), 0o600);
  }
  return manifest;
}

/** The backups under `dir` made by scheduledBackupName, oldest first. */
export function backupsIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((name) => /^huiyun-\d{8}-\d{6}$/.test(name)).sort();
}

/** huiyun-YYYYMMDD-HHmmss of a local time: sorts as the backups were made. */
export function scheduledBackupName(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `huiyun-${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
}

function assertEmptyTarget(dir: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new BackupError(`${dir} is not empty: refusing to write into it`);
}

function copyStoredFiles(snapshot: DatabaseSync, from: string, to: string): BackupManifest['files'] {
  const rows = snapshot.prepare('select "filePath" from sys_upload order by "filePath"').all() as { filePath: string }[];
  const missing: string[] = [];
  let bytes = 0;
  for (const { filePath } of rows) {
    const source = path.join(from, ...filePath.split('/'));
    const target = path.join(to, ...filePath.split('/'));
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(source, target);
      bytes += fs.statSync(target).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(filePath); // removed since the snapshot (a row deleted with its file), or lost before it
    }
  }
  return { count: rows.length - missing.length, bytes, missing, store: 'local' };
}

/** Where the backup's database and files differ from its manifest: its last migration, its row counts, its stored files. */
function differencesFromManifest(db: DatabaseSync, manifest: BackupManifest, uploads: string): string[] {
  const unlike: string[] = [];
  const migration = lastMigration(db);
  if (migration !== manifest.migration) unlike.push(`migration: the manifest says ${manifest.migration}, the database has ${migration}`);
  for (const [table, rows] of Object.entries(manifest.counts)) {
    const counted = countRows(db, table);
    if (counted !== rows) unlike.push(`${table}: the manifest says ${rows} rows, the database has ${counted}`);
  }
  if (manifest.files.store === 'local') {
    const present = fs.existsSync(uploads) ? (fs.readdirSync(uploads, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile()).length : 0;
    if (present !== manifest.files.count) unlike.push(`stored files: the manifest says ${manifest.files.count}, the backup holds ${present}`);
  }
  return unlike;
}

function lastMigration(db: DatabaseSync): string {
  const row = db.prepare('select max(name) as name from kysely_migration').get() as { name: string | null } | undefined;
  return row?.name ?? '';
}

function countRows(db: DatabaseSync, table: string): number {
  const exists = db.prepare(`select count(*) as n from sqlite_master where type = 'table' and name = ?`).get(table) as { n: number };
  if (!exists.n) return 0;
  return Number((db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n);
}
