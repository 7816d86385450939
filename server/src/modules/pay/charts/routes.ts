import type { FastifyInstance } from 'fastify';
import { Perm, salesChartsQuery, type SalesChartsOptions } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { ok } from '../../../http/envelope.ts';
import { parse } from '../../../http/validate.ts';
import { inDeptScope } from '../../../db/scope.ts';
import { deptChoices } from '../../system/dept/index.ts';
import { rankCache } from './rank-cache.ts';
import { salesCharts } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

// 数据可视化 (/charts/statistics): read only, inside the caller's data scope.
export function salesChartsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const access = { permission: Perm.salesChartsList };
    const ranks = rankCache(ctx.config.chartsRankCacheMs, ctx.now);

    app.post('/api/Charts/statistics', { config: { access, doc: { tag: 'sales-charts', body: salesChartsQuery, answer: answers.data(r.salesCharts) } } }, async (request) => {
      const query = parse(salesChartsQuery, request.body);
      return ok('', await salesCharts(ctx.db, ranks, callerOf(request).deptScope, query, ctx.now()));
    });

    // the 公司 and 终端 filters' choices
    app.post('/api/Charts/options', { config: { access, doc: { tag: 'sales-charts', answer: answers.data(r.salesChartsOptions) } } }, async (request) => {
      const scope = callerOf(request).deptScope;
      const options: SalesChartsOptions = {
        depts: await deptChoices(ctx.db, scope),
        machines: await ctx.db.selectFrom('pay_machine').select(['machineNo', 'machineName', 'deptId']).where(inDeptScope('deptId', scope)).orderBy('machineNo').execute(),
      };
      return ok('', options);
    });
  };
}
