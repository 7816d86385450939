import type { Selectable } from 'kysely';
import type { PayConfig } from '@huiyun/contract';
import type { Database } from '../db/schema.ts';

// The contract's shapes and the tables agree on the keys they share, checked by `npm run typecheck`
// (nothing runs this file). Most areas need no check here: a save writes its schema's output through
// Kysely's typed insert and update (each field held to its column), and a list maps the row Kysely infers
// from the schema (db/list/paging.ts SelectedRow) into the contract's type, so a column renamed or retyped
// on one side fails in the module itself. What remains is a mapper that converts on the way out, which no
// type sees through; each check names the keys it converts (times → text, fen → yuan, 0/1 → boolean).

type Shared<A, B> = keyof A & keyof B;
/** The shared keys where a value of `From` (undefined aside: a key left out) does not fit `Into`. */
type Misfits<From, Into> = { [K in Shared<From, Into>]-?: Exclude<From[K], undefined> extends Into[K] ? never : K }[Shared<From, Into>];
/** true when they agree; otherwise a type naming the keys that do not, so the assignment of true fails. */
type Agree<From, Into, Converted extends PropertyKey = never> = [Exclude<Misfits<From, Into>, Converted>] extends [never]
  ? true
  : { misfits: Exclude<Misfits<From, Into>, Converted> };

type Row<T extends keyof Database> = Selectable<Database[T]>;
type Times = 'addTime' | 'editTime';

export const rowChecks = {
  // toPayConfig reads its text columns through String() (a secret masked, a null as ''), which hides a retyped column
  payConfig: [true satisfies Agree<Row<'pay_config'>, PayConfig, Times | 'gateway'>],
};
