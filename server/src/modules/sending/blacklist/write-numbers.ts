import { sql, type Kysely } from 'kysely';
import type { BlacklistSource } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { dialectOf, type DialectName } from '../../../db/dialect.ts';
import { numberListParameter } from '../../../db/number-list.ts';
import type { Database } from '../../../db/schema.ts';

// Numbers into one company's do-not-contact list, all in one transaction (a read error half-way through
// a file leaves the list as it was). Numbers come in parser batches; they are gathered, sorted (the
// primary key (deptId, phone) is then appended to, not visited at random) and written a slice at a time
// by one statement with one bound array parameter: `insert … select from json_each(?)` on SQLite,
// `unnest(?::bigint[])` on PostgreSQL. Numbers the list already holds are left alone (`on conflict do
// nothing`), so each statement's row count is what was new.

/** Numbers per insert statement. */
const SLICE: Record<DialectName, number> = { sqlite: 20_000, postgres: 50_000 };

export type BlacklistTarget = { deptId: number; addUser: string; source: BlacklistSource };

/**
 * Runs `feed` inside one transaction; every `write(numbers)` it awaits goes into the company's list.
 * Answers how many numbers were new to the list.
 */
export async function writeBlacklist(
  ctx: AppContext,
  target: BlacklistTarget,
  feed: (write: (numbers: readonly number[]) => Promise<void>) => Promise<void>,
): Promise<number> {
  const dialect = dialectOf(ctx.db);
  const addTime = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const slice = SLICE[dialect];
    const buffer = new Float64Array(slice);
    let held = 0;
    let added = 0;
    const flush = async () => {
      if (held === 0) return;
      added += await insertSlice(trx, dialect, target, addTime, buffer.subarray(0, held).sort());
      held = 0;
    };
    await feed(async (numbers) => {
      for (const phone of numbers) {
        buffer[held] = phone;
        held += 1;
        if (held === slice) await flush();
      }
    });
    await flush();
    return added;
  });
}

async function insertSlice(db: Kysely<Database>, dialect: DialectName, target: BlacklistTarget, addTime: number, phones: Float64Array): Promise<number> {
  const list = numberListParameter(phones, dialect);
  const result = dialect === 'postgres'
    ? await sql`
        insert into sync_blacklist ("deptId", "phone", "addUser", "addTime", "source")
        select ${target.deptId}, v, ${target.addUser}, ${addTime}, ${target.source} from unnest(${list}::bigint[]) as v
        on conflict do nothing`.execute(db)
    // `where true` keeps SQLite from reading `on conflict` as a join constraint of the select.
    : await sql`
        insert into sync_blacklist ("deptId", "phone", "addUser", "addTime", "source")
        select ${target.deptId}, value, ${target.addUser}, ${addTime}, ${target.source} from json_each(${list}) where true
        on conflict do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
