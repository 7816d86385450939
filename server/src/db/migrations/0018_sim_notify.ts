import type { Kysely } from 'kysely';

// The simulator gateway keeps, like a real gateway, which paid notifications the merchant has
// acknowledged, so one not yet acknowledged when the server stopped (a crash, a deploy) is sent again
// after the start instead of waiting for the order sweeper to ask.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pay_sim_payment').addColumn('acknowledged', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('pay_sim_payment_unacknowledged').on('pay_sim_payment').columns(['status', 'acknowledged']).execute();
}
