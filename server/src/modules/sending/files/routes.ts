import fastifyMultipart, { type MultipartFile, type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { downloadFileQuery, messages, Perm, uploadFilesFields, UploadKind } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { BackgroundServices } from '../../../http/background-services.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { parse } from '../../../http/validate.ts';
import { sendStoredFile } from './send-file.ts';
import { loadDownloadable, uploadFile, type AttachedFileRule } from './service.ts';
import { uploadMaxBytes } from '../../../infra/file-storage.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

// Files (SPEC §7.1): generic uploads and downloads.
//   POST /upload/files            multipart `file` (+ `kind`), stored → [{fileNo, fileName, filePath}]
//   GET  /download/file?filePath  a stored file the caller may see
// What is read from a stored number file is the task's and the blacklist's business (modules/sending/number-files).
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

/** `attached`: the rules by which other areas let a caller see a file it does not own (see loadDownloadable). */
export function fileRoutes(ctx: AppContext, attached: readonly AttachedFileRule[], services: BackgroundServices) {
  return async (app: FastifyInstance) => {
    // In the background once the app is ready: the walk of the store grows with the files kept and must not
    // hold the start (a close waits for it).
    services.add({
      name: 'partial uploads sweep', startOn: 'ready',
      start: (log) => {
        const sweeping = ctx.files.sweepPartials().then(
          (swept: number) => { if (swept > 0) log.warn({ swept }, 'removed the partial files of uploads cut off by a stop'); },
          (error: unknown) => log.error({ err: error }, 'sweeping partial uploads failed'),
        );
        return { stop: () => sweeping };
      },
    });
    // Registered in this plugin only: the other areas keep refusing multipart bodies.
    await app.register(fastifyMultipart, { throwFileSizeLimit: false });

    // Number files go up for a task (上传号码) or for the do-not-contact list (黑名单 上传号码).
    app.post('/upload/files', {
      config: { access: { anyOf: [Perm.taskUpload, Perm.blacklistSave] }, doc: { tag: 'files', query: uploadFilesFields, upload: true, note: 'multipart/form-data：文件字段 file，kind 也可作为表单字段', answer: answers.items(r.uploadResultItem), refuses: [413, 415] }, audit: audit(messages.upload.actionUpload) },
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

    app.get('/download/file', { config: { access: 'login', doc: { tag: 'files', query: downloadFileQuery, answer: answers.storedFile, refuses: [403, 404] } } }, async (request, reply) => {
      // A missing or over-long path is as unknown as any other: 404, like a path that is not stored.
      const query = downloadFileQuery.safeParse(request.query ?? {});
      if (!query.success) throw notFound(messages.upload.fileNotFound);
      return sendStoredFile(ctx, reply, await loadDownloadable(ctx, callerOf(request), query.data.filePath, attached));
    });
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
