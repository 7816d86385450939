import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  exportTaskQuery, messages, Perm, taskIdRequest, taskListQuery, taskQrRequest, taskSave, taskStatusChange, taskTestSave, uploadTaskDataRequest,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { contentDisposition } from '../../../infra/file-storage.ts';
import { exportTaskNumbers } from './export-numbers.ts';
import { generateQrImage } from './qr.ts';
import { listTasks } from './queries.ts';
import { changeTaskStatus, deleteTask, saveTask, saveTestNumber } from './service.ts';
import { uploadTaskData } from './upload-numbers.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.task;
const audit = (action: string) => ({ module: m.title, action });

// 任务列表 (SPEC §2.14, §7.8), with the task's number upload and export. Task-area calls take JSON or
// form bodies (PRODUCT §2); the list is also offered as GET, which reads the query string.
//   POST /sync/uploadTaskData     {taskId, fileNo, fileName, fileUrl}: the numbers of a stored number file into the task
//   GET|POST /sync/exportTask     ?taskId&exportType(&token): the task's numbers as a streamed .txt
// Who sees which task: task-access.ts.
export function taskRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.taskList,
      query: taskListQuery,
      list: '/sync/queryTaskInfoList',
      doc: { tag: 'task', row: r.taskRow },
      methods: ['GET', 'POST'],
      load: (request, query) => listTasks(ctx.db, callerOf(request), query, ctx.now()),
    });

    app.post('/sync/saveTaskInfo', { config: { access: { permission: Perm.taskSave }, doc: { tag: 'task', body: taskSave, answer: answers.data(r.syncSaved.task) }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(taskSave, request.body);
      describeTarget(request, input.taskId ? `taskId ${input.taskId} ${input.taskName}` : input.taskName);
      const taskId = await saveTask(ctx, callerOf(request), input);
      return ok(m.saved, { taskId });
    });

    app.post('/sync/pauseStartTaskInfo', { config: { access: { permission: Perm.taskPause }, doc: { tag: 'task', body: taskStatusChange, answer: answers.message }, audit: audit(m.actionPauseStart) } }, async (request) => {
      const input = parse(taskStatusChange, request.body);
      describeTarget(request, `taskId ${input.taskId} → ${input.taskStatus}`);
      await changeTaskStatus(ctx, callerOf(request), input);
      return ok(m.pauseStartOk);
    });

    app.post('/sync/deleteTaskInfo', { config: { access: { permission: Perm.taskDelete }, doc: { tag: 'task', body: taskIdRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { taskId } = parse(taskIdRequest, request.body);
      describeTarget(request, `taskId ${taskId}`);
      await deleteTask(ctx, callerOf(request), taskId);
      return ok(m.deleted);
    });

    app.post('/sync/saveTest', { config: { access: { permission: Perm.taskInsertTest }, doc: { tag: 'task', body: taskTestSave, answer: answers.message }, audit: audit(m.actionInsertTest) } }, async (request) => {
      const input = parse(taskTestSave, request.body);
      describeTarget(request, `taskId ${input.taskId}`);
      await saveTestNumber(ctx, callerOf(request), input);
      return ok(m.testSaved);
    });

    app.post('/sync/generateQRCodeImage', { config: { access: { permission: Perm.taskSave }, doc: { tag: 'task', body: taskQrRequest, answer: answers.data(r.qrImagePath) }, audit: audit(m.actionGenerateQr) } }, async (request) => {
      const { qrUrl } = parse(taskQrRequest, request.body);
      describeTarget(request, qrUrl);
      return ok(m.qrGenerated, await generateQrImage(ctx, callerOf(request), qrUrl));
    });

    // The upload is logged under 文件上传 (messages.upload), as it always was.
    app.post('/sync/uploadTaskData', {
      config: { access: { permission: Perm.taskUpload }, doc: { tag: 'task', body: uploadTaskDataRequest, answer: answers.data(r.uploadTaskDataResult) }, audit: { module: messages.upload.title, action: messages.upload.actionUploadNumbers } },
    }, async (request) => {
      const input = parse(uploadTaskDataRequest, request.body);
      describeTarget(request, `taskId ${input.taskId} fileNo ${input.fileNo}`);
      const { encoding: _encoding, ...result } = await uploadTaskData(ctx, callerOf(request), input);
      return ok(messages.upload.dataUploaded, result);
    });

    const exportTask = async (request: FastifyRequest, reply: FastifyReply) => {
      const input = parse(exportTaskQuery, { ...(request.query as object), ...((request.body as object) ?? {}) });
      const { fileName, body } = await exportTaskNumbers(ctx, callerOf(request), input);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', contentDisposition('attachment', fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(body);
    };
    app.get('/sync/exportTask', { config: { access: { permission: Perm.taskExport }, doc: { tag: 'task', query: exportTaskQuery, answer: answers.numbersText } } }, exportTask);
    app.post('/sync/exportTask', { config: { access: { permission: Perm.taskExport }, doc: { tag: 'task', body: exportTaskQuery, answer: answers.numbersText } } }, exportTask);
  };
}
