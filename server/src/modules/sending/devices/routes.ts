import type { FastifyInstance } from 'fastify';
import {
  DEVICE_API_PREFIX, deviceActivateRequest, deviceDeliveryRequest, deviceFileQuery, deviceHeartbeatRequest, deviceListQuery, deviceReportRequest, messages, Perm,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { ok } from '../../../http/envelope.ts';
import { notFound } from '../../../http/errors.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sendStoredFile } from '../files/index.ts';
import { activateDevice } from './activate.ts';
import { recordDeliveries } from './delivery-report.ts';
import { deviceOf } from './device-auth.ts';
import { loadDeviceFile } from './device-file.ts';
import { recordHeartbeat } from './heartbeat.ts';
import { pullBatch } from './pull-batch.ts';
import { listDevices } from './queries.ts';
import { reportResults } from './report-results.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.device;

// The device protocol (docs/device-protocol.md) under /device/v1, with its own device token
// (access 'device'), and the console's device list. Device calls are not in the operation log:
// they are machine traffic, and every number they move keeps its own record (state, batch, time).
export function deviceRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post(`${DEVICE_API_PREFIX}/activate`, { config: { access: 'public', doc: { tag: 'device', body: deviceActivateRequest, answer: answers.data(r.deviceActivation), refuses: [429] } } }, async (request) =>
      ok(m.activated, await activateDevice(ctx, parse(deviceActivateRequest, request.body ?? {}), request.ip)),
    );

    app.post(`${DEVICE_API_PREFIX}/pull`, { config: { access: 'device', doc: { tag: 'device', answer: answers.data(r.devicePull) }, deviceTokenRechecked: true } }, async (request) =>
      ok('', await pullBatch(ctx, deviceOf(request))),
    );

    app.post(`${DEVICE_API_PREFIX}/report`, { config: { access: 'device', doc: { tag: 'device', body: deviceReportRequest, answer: answers.data(r.deviceReportResult) }, deviceTokenRechecked: true } }, async (request) =>
      ok(m.reported, await reportResults(ctx, deviceOf(request), parse(deviceReportRequest, request.body ?? {}))),
    );

    app.post(`${DEVICE_API_PREFIX}/heartbeat`, { config: { access: 'device', doc: { tag: 'device', body: deviceHeartbeatRequest, answer: answers.data(r.deviceHeartbeatAnswer) } } }, async (request) =>
      ok(m.heartbeatOk, await recordHeartbeat(ctx, deviceOf(request), parse(deviceHeartbeatRequest, request.body ?? {}))),
    );

    // Delivery reports (送达 / 未送达) of numbers already reported sent.
    app.post(`${DEVICE_API_PREFIX}/delivery`, { config: { access: 'device', doc: { tag: 'device', body: deviceDeliveryRequest, answer: answers.data(r.deviceDeliveryResult) } } }, async (request) =>
      ok(m.deliveryReported, await recordDeliveries(ctx, deviceOf(request), parse(deviceDeliveryRequest, request.body ?? {}))),
    );

    app.get(`${DEVICE_API_PREFIX}/file`, { config: { access: 'device', doc: { tag: 'device', query: deviceFileQuery, answer: answers.storedFile, refuses: [403, 404] } } }, async (request, reply) => {
      const query = deviceFileQuery.safeParse(request.query ?? {});
      if (!query.success) throw notFound(messages.upload.fileNotFound);
      return sendStoredFile(ctx, reply, await loadDeviceFile(ctx, deviceOf(request), query.data.filePath));
    });

    registerList(app, {
      permission: Perm.authCodeList,
      query: deviceListQuery,
      list: '/sync/queryDeviceList',
      doc: { tag: 'device', row: r.deviceRow },
      load: (request, query) => listDevices(ctx.db, callerOf(request), query, ctx.now()),
    });
  };
}
