// A WAL checkpoint off the request and off the main thread, for SQLite writes big enough that their
// checkpoint costs (a 1M-number upload leaves ≈ 56 MB of WAL: ≈ 0.3 s to copy into the database file).
//
// SQLite runs an automatic checkpoint at the commit that takes the WAL past wal_autocheckpoint pages
// (1000), on the committing connection: on node:sqlite that is the main thread, inside the request.
// For a big write the caller instead turns it off before committing (deferAutoCheckpoint), then calls
// checkpointInBackground after the commit: a worker thread opens its own connection to the file and
// runs a PASSIVE checkpoint (which never blocks readers or writers; SQLite lets one run at a time and
// an automatic one meanwhile just skips), then wal_autocheckpoint is set back. Requests overlapping
// a running checkpoint are folded into one more pass after it.
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';

/**
 * The worker: one PASSIVE checkpoint on a connection of its own, then it ends. Plain JavaScript given
 * as source, so the thread loads no TypeScript (a .ts worker entry costs ≈ 17 MB more: the type
 * stripper is set up again in each thread).
 */
const WORKER_SOURCE = `
  const { DatabaseSync } = require('node:sqlite');
  const { workerData } = require('node:worker_threads');
  const database = new DatabaseSync(workerData.file, { timeout: 5000 });
  try {
    database.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } finally {
    database.close();
  }
`;

/** SQLite's default; what the connection is set back to. */
const AUTO_CHECKPOINT_PAGES = 1000;

type FileState = { running: Promise<void> | null; again: boolean };
const byFile = new Map<string, FileState>();

/** The file of the main database, or null for an in-memory one (no WAL, nothing to checkpoint). */
export async function sqliteFileOf(db: Kysely<any>): Promise<string | null> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const file = rows.find((r) => r.name === 'main')?.file;
  return file ? file : null;
}

/** Inside the write transaction, before its commit: no automatic checkpoint at that commit. */
export async function deferAutoCheckpoint(db: Kysely<any>): Promise<void> {
  await sql`pragma wal_autocheckpoint = 0`.execute(db);
}

/**
 * Checkpoints `file` on a worker thread, then sets `db`'s wal_autocheckpoint back. Answers when done
 * (callers need not wait: it never rejects).
 */
export function checkpointInBackground(db: Kysely<any>, file: string): Promise<void> {
  let state = byFile.get(file);
  if (!state) {
    state = { running: null, again: false };
    byFile.set(file, state);
  }
  if (state.running) {
    state.again = true;
    return state.running;
  }
  const current = state;
  current.running = (async () => {
    do {
      current.again = false;
      await runCheckpointWorker(file).catch(() => {}); // a failed pass leaves the WAL to the next automatic one
    } while (current.again);
    byFile.delete(file);
    await sql`pragma wal_autocheckpoint = ${sql.raw(String(AUTO_CHECKPOINT_PAGES))}`.execute(db).catch(() => {}); // closed meanwhile: nothing to set
  })();
  return current.running;
}

function runCheckpointWorker(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } satisfies { file: string } });
    worker.unref(); // never keeps the process alive
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`checkpoint worker exit code ${code}`))));
  });
}
