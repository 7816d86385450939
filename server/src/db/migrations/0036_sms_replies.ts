import type { Kysely } from 'kysely';
import { DEFAULT_UNSUBSCRIBE_KEYWORDS, messages, UNSUBSCRIBE_KEYWORDS_VARIABLE } from '@huiyun/contract';
import { createSearchIndex } from '../search-index.ts';
import { withAutoId } from './helpers.ts';

// Replies a sending device received (POST /device/v1/replies) and automatic 退订.
//
// sync_reply: one row per (device, the phone's message id): the unique index is what makes an upload
// repeated after a lost answer change nothing. The company and owner are the device owner's at the time,
// so the list's data scope (as the tasks': company for administrators, owner for anyone else) is read off
// the row; the device's name is kept as it was, the code may be deleted later. Times are epoch ms.
//
// sync_blacklist.source: how a number came onto the list ('manual', 'upload', 'reply'); rows already
// there were typed or uploaded by a person, which of the two is not known: 'manual'.
//
// The 退订 keywords: a 系统环境变量 operators edit (added here once, so one deleted stays deleted: the
// default then applies; modules/sending/replies/keywords.ts).
//
// sync_batch_device_time: a reply is linked to the last task its device sent to the number (in the
// device's fresh batches of the last 30 days: modules/sending/replies/record.ts). Nothing looked numbers up by
// phone before, and an index of sent numbers by phone was measured to cost every report too much: a
// number's entry lands at a random place of it, 4 µs → 50 µs per number made sent (SQLite, 1M numbers,
// transactions of 200). A batch row is written once per pull; this index costs that insert only.
export async function up(db: Kysely<any>): Promise<void> {
  await withAutoId(db, db.schema.createTable('sync_reply'), 'id')
    .addColumn('deptId', 'integer')
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('authCodeId', 'integer', (c) => c.notNull())
    .addColumn('machineCode', 'varchar(64)', (c) => c.notNull())
    .addColumn('machineName', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('messageId', 'varchar(64)', (c) => c.notNull())
    .addColumn('phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('content', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('receivedAt', 'bigint', (c) => c.notNull())
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .addColumn('taskId', 'integer')
    .addColumn('unsubscribed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sync_reply_message').unique().on('sync_reply').columns(['machineCode', 'messageId']).execute();
  // the list, newest first, in each data scope; and by number
  await db.schema.createIndex('sync_reply_time').on('sync_reply').columns(['receivedAt', 'id']).execute();
  await db.schema.createIndex('sync_reply_dept_time').on('sync_reply').columns(['deptId', 'receivedAt', 'id']).execute();
  await db.schema.createIndex('sync_reply_user_time').on('sync_reply').columns(['userId', 'receivedAt', 'id']).execute();
  await db.schema.createIndex('sync_reply_phone').on('sync_reply').columns(['phone', 'receivedAt', 'id']).execute();
  await createSearchIndex(db, 'sync_reply', 'id', ['content']);

  await db.schema.alterTable('sync_blacklist').addColumn('source', 'varchar(16)', (c) => c.notNull().defaultTo('manual')).execute();

  await db.schema.createIndex('sync_batch_device_time').on('sync_batch').columns(['machineCode', 'addTime']).execute();

  const now = Date.now();
  await db.insertInto('sys_variable')
    .values({
      varLable: messages.reply.keywordsLabel, varName: UNSUBSCRIBE_KEYWORDS_VARIABLE, varValue: DEFAULT_UNSUBSCRIBE_KEYWORDS,
      deptId: null, addUser: 'system', editUser: 'system', addTime: now, editTime: now,
    })
    .onConflict((oc) => oc.column('varName').doNothing())
    .execute();
}
