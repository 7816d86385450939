import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { dialectOf } from './dialect.ts';
import { GroupWrite } from './group-write.ts';
import type { Database, Queryable } from './schema.ts';

// Group commit for whole transactions (SQLite). A commit is most of a small write's cost there: it
// appends every page the transaction changed to the WAL, and a purchase's four transactions touched the
// same index pages (the newest orders, the status indexes) four times, with four commits at ~180 µs each
// (docs/performance.md "Terminal flow"). SQLite runs one transaction at a time on the server's one
// connection anyway, so the transactions asked for while one runs wait for it; here they wait in a queue
// instead, and then run one after another inside ONE transaction, each in a savepoint of its own, and
// commit together: each page is written once for all of them.
//
// - Each caller's promise settles only after the shared commit: nothing is answered before it is stored.
// - A work that throws is rolled back to its savepoint and its caller gets the error; the others go on.
//   A failed commit fails them all (none of them is stored).
// - A work must only use the transaction it is given (the connection is held: anything on `db` waits
//   for the commit, which waits for the work). Never call sharedTransaction / sharedWrite inside a work
//   with `db`: given the work's transaction, they run the inner work in it.
// - PostgreSQL runs each transaction on a connection of its own, and its commits are the database's
//   business (commit_delay): there, sharedTransaction is a plain transaction and sharedWrite a plain
//   statement (autocommit, no BEGIN/COMMIT round trips).

/** At most this many transactions share a commit: the connection is held for all of them (~0.1 ms each). */
const MAX_SHARED = 100;

type Work<R> = (trx: Transaction<Database>) => Promise<R>;
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = CompiledQuery.raw('savepoint shared_work');
const RELEASE = CompiledQuery.raw('release shared_work');
const ROLLBACK_TO = CompiledQuery.raw('rollback to shared_work');

/** One database's queue of works (db/group-write.ts gathers them: one batch at a time, each a transaction). */
class SharedCommits {
  private readonly db: Kysely<Database>;
  private readonly batches: GroupWrite<Work<unknown>, Outcome>;
  /** How many commits and works there were (tests and benches). */
  readonly counts = { commits: 0, works: 0 };

  constructor(db: Kysely<Database>) {
    this.db = db;
    this.batches = new GroupWrite((works) => this.commit(works), MAX_SHARED);
  }

  async run<R>(work: Work<R>): Promise<R> {
    const outcome = await this.batches.add(work);
    if (outcome.ok) return outcome.value as R;
    throw outcome.error;
  }

  private async commit(works: Work<unknown>[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        // alone: a plain transaction (a throw rolls it back), no savepoint statements
        if (works.length === 1) outcomes.push({ ok: true, value: await works[0]!(trx) });
        else for (const work of works) outcomes.push(await runInSavepoint(trx, work));
      });
      this.counts.commits++;
      this.counts.works += works.length;
      return outcomes;
    } catch (error) {
      // not committed: a work's own error where it threw one, the failure of the transaction for the rest
      return works.map((_, at) => {
        const outcome = outcomes[at];
        return outcome && !outcome.ok ? outcome : { ok: false, error };
      });
    }
  }
}

async function runInSavepoint(trx: Transaction<Database>, work: Work<unknown>): Promise<Outcome> {
  await trx.executeQuery(SAVEPOINT);
  try {
    const value = await work(trx);
    await trx.executeQuery(RELEASE);
    return { ok: true, value };
  } catch (error) {
    await trx.executeQuery(ROLLBACK_TO);
    await trx.executeQuery(RELEASE);
    return { ok: false, error };
  }
}

const sharedCommits = new WeakMap<Kysely<Database>, SharedCommits>();

function sharedCommitsOf(db: Kysely<Database>): SharedCommits {
  let commits = sharedCommits.get(db);
  if (!commits) sharedCommits.set(db, (commits = new SharedCommits(db)));
  return commits;
}

/**
 * Runs `work` in a transaction; on SQLite, the transactions asked for meanwhile share its commit (each in
 * a savepoint of its own). Given a transaction, runs `work` in it.
 *
 * Which to use: this for the short writes the terminals and gateways send many of a second (the payment
 * path: create, notify, dispense), where the commit is the cost; `db.transaction().execute(…)` for the
 * rest (a console save, an upload, a delete): one caller at a time, and a long work would hold every
 * queued caller's commit.
 */
export function sharedTransaction<R>(db: Queryable, work: Work<R>): Promise<R> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  if (dialectOf(db) === 'postgres') return db.transaction().execute(work);
  return sharedCommitsOf(db).run(work);
}

/**
 * A write of one statement: on SQLite it shares the commit of the transactions asked for meanwhile
 * (sharedTransaction); on PostgreSQL it runs as it is (autocommit).
 */
export function sharedWrite<R>(db: Queryable, write: (db: Queryable) => Promise<R>): Promise<R> {
  if (db.isTransaction || dialectOf(db) === 'postgres') return write(db);
  return sharedCommitsOf(db).run(write);
}

/** How many shared commits this database made, for how many works (tests and benches). */
export const sharedCommitCountsOf = (db: Kysely<Database>) => sharedCommitsOf(db).counts;
