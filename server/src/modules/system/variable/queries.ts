import type { Kysely, SelectQueryBuilder } from 'kysely';
import { formatDateTime, variableSortFields, type Variable, type VariableListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';

const sortColumns = sortColumnsOf(variableSortFields);

export async function listVariables(db: Kysely<Database>, query: VariableListQuery) {
  const filtered = db.selectFrom('sys_variable');
  const searches: ListSearch[] = [];
  if (query.varLable) searches.push(contains(db, 'sys_variable', 'varLable', query.varLable));
  if (query.varName) searches.push(contains(db, 'sys_variable', 'varName', query.varName));
  const { rows, ...paged } = await listPage(db, filtered, allColumns, query, {
    sortColumns, defaultSort: ['editTime', 'desc'], tieBreaker: 'varId', searches,
  });
  return { rows: rows.map(toVariable), ...paged };
}

const allColumns = (qb: SelectQueryBuilder<Database, 'sys_variable', {}>) => qb.selectAll();

function toVariable(row: SelectedRow<typeof allColumns>): Variable {
  return { ...row, addTime: formatDateTime(row.addTime), editTime: formatDateTime(row.editTime) };
}
