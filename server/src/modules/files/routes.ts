import fastifyMultipart, { type MultipartFile, type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  downloadFileQuery, exportTaskQuery, messages, Perm, uploadFilesFields, uploadTaskDataRequest, UploadKind,
} from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { callerOf } from '../../http/access-check.ts';
import { describeTarget } from '../../http/audit.ts';
import { ok } from '../../http/envelope.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import { parse } from '../../http/validate.ts';
import { exportTaskNumbers } from '../task/export-numbers.ts';
import { uploadTaskData } from '../task/upload-numbers.ts';
import { sendStoredFile } from './send-file.ts';
import { loadDownloadable, uploadFile } from './service.ts';
import { contentDisposition, uploadMaxBytes } from './storage.ts';

// Files (SPEC §7.1) and the task area's number upload / export (SPEC §7.8):
//   POST /upload/files            multipart `file` (+ `kind`), stored → [{fileNo, fileName, filePath}]
//   GET  /download/file?filePath  a stored file the caller may see
//   POST /sync/uploadTaskData     {taskId, fileNo, fileName, fileUrl}: the numbers into the task
//   GET|POST /sync/exportTask     ?taskId&exportType(&token): the task's numbers as a streamed .txt
//
// The multipart token (PRODUCT §2: header, Bearer, query or body): a form field counts when it comes
// BEFORE the file part (as a browser's FormData sends fields appended first, e.g. the original
// front end's {userId, token}). A preValidation hook reads the fields up to the first file into
// request.body, so the access check (preHandler) finds the token there; the file itself is then
// streamed to disk by the handler, never buffered.

const audit = (action: string) => ({ module: messages.upload.title, action });

declare module 'fastify' {
  interface FastifyRequest {
    pendingFile?: { part: MultipartFile; rest: AsyncIterator<Multipart> };
  }
}

export function fileRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    // Registered in this plugin only: the other areas keep refusing multipart bodies.
    await app.register(fastifyMultipart, { throwFileSizeLimit: false });

    // Number files go up for a task (上传号码) or for the do-not-contact list (黑名单 上传号码).
    app.post('/upload/files', {
      config: { access: { anyOf: [Perm.taskUpload, Perm.blacklistSave] }, audit: audit(messages.upload.actionUpload) },
      preValidation: (request) => readFieldsBeforeFile(request, uploadMaxBytes(ctx)),
    }, async (request) => {
      const pending = request.pendingFile;
      if (!pending) throw new AppError(messages.upload.fileRequired);
      const fields = { ...(request.query as object), ...(request.body as object) } as Record<string, unknown>;
      const { kind } = parse(uploadFilesFields, { kind: fields.kind });
      if (kind !== UploadKind.numbers && !callerOf(request).permissions.has(Perm.taskUpload)) throw forbidden();
      describeTarget(request, `${kind} ${pending.part.filename ?? ''}`);
      const item = await uploadFile(ctx, callerOf(request), kind, { fileName: pending.part.filename ?? '', content: pending.part.file });
      await drain(pending.rest);
      return ok(messages.upload.uploaded, [item]);
    });

    app.get('/download/file', { config: { access: 'login' } }, async (request, reply) => {
      // A missing or over-long path is as unknown as any other: 404, like a path that is not stored.
      const query = downloadFileQuery.safeParse(request.query ?? {});
      if (!query.success) throw notFound(messages.upload.fileNotFound);
      return sendStoredFile(reply, await loadDownloadable(ctx, callerOf(request), query.data.filePath));
    });

    app.post('/sync/uploadTaskData', {
      config: { access: { permission: Perm.taskUpload }, audit: audit(messages.upload.actionUploadNumbers) },
    }, async (request) => {
      const input = parse(uploadTaskDataRequest, request.body);
      describeTarget(request, `taskId ${input.taskId} fileNo ${input.fileNo}`);
      const { encoding: _encoding, ...result } = await uploadTaskData(ctx, callerOf(request), input);
      return ok(messages.upload.dataUploaded, result);
    });

    const exportTask = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
      const input = parse(exportTaskQuery, { ...(request.query as object), ...((request.body as object) ?? {}) });
      const { fileName, body } = await exportTaskNumbers(ctx, callerOf(request), input);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', contentDisposition('attachment', fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(body);
    };
    app.get('/sync/exportTask', { config: { access: { permission: Perm.taskExport } } }, exportTask);
    app.post('/sync/exportTask', { config: { access: { permission: Perm.taskExport } } }, exportTask);
  };
}

/** Reads the multipart fields that come before the first file into request.body; keeps the file part waiting. */
async function readFieldsBeforeFile(request: FastifyRequest, maxBytes: number): Promise<void> {
  if (!request.isMultipart()) return; // the handler refuses it, after the access check
  const rest = request.parts({ limits: { fileSize: maxBytes + 1, fields: 20, fieldSize: 4096, parts: 40 } })[Symbol.asyncIterator]();
  const fields: Record<string, unknown> = {};
  for (;;) {
    const next = await rest.next();
    if (next.done) break;
    const part = next.value;
    if (part.type === 'file') {
      request.pendingFile = { part, rest };
      break;
    }
    if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  request.body = fields;
}

/** Reads what follows the stored file (late fields, extra files are ignored) so the request ends cleanly. */
async function drain(rest: AsyncIterator<Multipart>): Promise<void> {
  try {
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      if (next.value.type === 'file') next.value.file.resume();
    }
  } catch {
    // a limit on what follows the file: it is ignored anyway
  }
}
