import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { LIST_COUNT_BOUND, type PermissionCode } from '@huiyun/contract';
import type { Listed } from '../db/list/paging.ts';
import { page } from './envelope.ts';
import { answers, type Answer } from './route-doc.ts';
import { parse } from './validate.ts';
import { EXPORT_MAX_ROWS, sendXlsx, type XlsxColumn } from './xlsx.ts';

// A list screen's routes from one query: the paged list (`{ success, data, total }`) and, when the
// screen has 导出, its .xlsx export of the same filters (at most EXPORT_MAX_ROWS rows). Every list
// route is registered here and reads its page through db/list/paging.ts `listPage`, so the list
// machinery changes in one place for all lists. A list's total is exact up to its count's bound
// (LIST_COUNT_BOUND, or a step of SEARCH_COUNT_STEP under a contains filter: contract); beyond it the
// answer is `total: bound + 1, totalBounded: true`. A list's query passes listPage's `Listed` on whole
// (`{ ...listed, rows: listed.rows.map(toX) }`) so the flag reaches the answer.
//
// Use (modules/system/variable/routes.ts):
//
//   registerList(app, {
//     permission: Perm.variableList,
//     query: variableListQuery,                       // the contract's list query (page/limit or pageNum/pageSize)
//     list: '/api/Variable/list',
//     doc: { tag: 'variable', row: r.variableRow },             // for the API document: the area and the contract's row schema
//     load: (request, query) => listVariables(ctx.db, query),   // the module's query, built on listPage
//     export: { url: '/api/Variable/export', fileName: messages.variable.title, columns: exportColumns },
//   });
//
// Options: `methods: ['GET', 'POST']` for a list the public API also offers as GET (a GET reads the
// query string); `export.row` turns a row into what the sheet shows (labels instead of numbers; needed
// when the columns are of another type than the rows); `export.query` adjusts the parsed query of an
// export (e.g. drops a filter the sheet ignores).

type Paged = { page: number; limit: number } | { pageNum: number; pageSize: number };

type ExportSpec<Q, Row, Out> = {
  url: string;
  /**
   * Every row of the filters, read page by page (a keyset walk), for a list that can be far larger than
   * EXPORT_MAX_ROWS (交易订单). Without it, the export is one page of at most EXPORT_MAX_ROWS from load.
   */
  stream?: (request: FastifyRequest, query: Q) => AsyncIterable<Row>;
  /** The sheet's and the file's name (导出 of 变量管理 → 变量管理.xlsx). */
  fileName: string;
  columns: XlsxColumn<Out>[];
  query?: (query: Q) => Q;
  row?: (row: Row) => Out;
};

export type ListRoutes<S extends z.ZodType<Paged>, Row, Out extends Record<string, unknown>> = {
  permission: PermissionCode;
  query: S;
  list: string;
  /**
   * The API document's tag (the area) and the contract's schema of a row (@huiyun/contract/responses); the query
   * and the export's answer follow. The rows `load` answers are typed by the schema's output: a list whose rows
   * drift from the documented row fails the typecheck.
   */
  doc: { tag: string; row: z.ZodType<Row> };
  methods?: ('GET' | 'POST')[];
  load: (request: FastifyRequest, query: z.output<S>) => Promise<Listed<Row>>;
  export?: ExportSpec<z.output<S>, Row, Out>;
};

/**
 * `METHOD url` of every route registerList has made: list-routes.test.ts checks every list route of
 * the app is among them, so a list cannot bypass the machinery (and its bounded count).
 */
const registeredListRoutes = new Set<string>();

export function isRegisteredList(method: string, url: string): boolean {
  return registeredListRoutes.has(`${method} ${url}`);
}

/** Registers the list route and, when given, its export route, both under the list's permission. */
export function registerList<S extends z.ZodType<Paged>, Row, Out extends Record<string, unknown>>(
  app: FastifyInstance,
  spec: ListRoutes<S, Row, Out>,
): void {
  const access = { permission: spec.permission };
  const documented = (answer: Answer) => ({ tag: spec.doc.tag, body: spec.query, answer });
  const methods = spec.methods ?? ['POST'];
  const input = (request: FastifyRequest) => (request.method === 'GET' ? request.query : request.body);
  for (const method of methods) {
    registeredListRoutes.add(`${method} ${spec.list}`);
    if (spec.export) registeredListRoutes.add(`${method} ${spec.export.url}`);
  }

  app.route({
    method: methods,
    url: spec.list,
    config: { access, doc: documented(answers.list(spec.doc.row)) },
    handler: async (request) => {
      const { rows, total, totalBounded, next } = await spec.load(request, parse(spec.query, input(request)));
      // listPage counts up to its bound + 1 rows and says when it stopped there (共 1,000+ 条); a query
      // that drops the flag still has its total past LIST_COUNT_BOUND said as 共 10,000+ 条.
      const answer = !totalBounded && total <= LIST_COUNT_BOUND
        ? page(rows, total)
        : { ...page(rows, Math.min(total, LIST_COUNT_BOUND + 1)), totalBounded: true as const };
      return next ? { ...answer, next } : answer;
    },
  });

  const exported = spec.export;
  if (!exported) return;
  app.route({
    method: methods,
    url: exported.url,
    config: { access, doc: documented(answers.xlsx) },
    handler: async (request, reply) => {
      const parsed = exportAll(parse(spec.query, input(request)));
      const query = exported.query ? exported.query(parsed) : parsed;
      const toOut = exported.row ?? ((row: Row) => row as unknown as Out);
      if (exported.stream) return sendXlsx(reply, exported.fileName, exported.columns, mapAsync(exported.stream(request, query), toOut));
      const { rows } = await spec.load(request, query);
      return sendXlsx(reply, exported.fileName, exported.columns, rows.map(toOut));
    },
  });
}

async function* mapAsync<A, B>(rows: AsyncIterable<A>, map: (row: A) => B): AsyncGenerator<B> {
  for await (const row of rows) yield map(row);
}

/** The same filters and sort, every row (up to EXPORT_MAX_ROWS) on one page. */
function exportAll<Q extends Paged>(query: Q): Q {
  return 'pageNum' in query ? { ...query, pageNum: 1, pageSize: EXPORT_MAX_ROWS, after: undefined } : { ...query, page: 1, limit: EXPORT_MAX_ROWS, after: undefined };
}
