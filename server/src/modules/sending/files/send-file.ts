import type { FastifyReply } from 'fastify';
import { messages, UploadKind } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { notFound } from '../../../http/errors.ts';
import type { StoredFile } from './service.ts';
import { contentDisposition, contentTypeOf } from '../../../infra/file-storage.ts';

/**
 * Streams a stored file from the file store through this server (after the caller's rights were checked):
 * images and QR codes inline, anything else as an attachment; never cached. A row whose bytes are gone is 404.
 */
export async function sendStoredFile(ctx: AppContext, reply: FastifyReply, file: StoredFile) {
  const bytes = await ctx.files.read(file.filePath);
  if (!bytes) throw notFound(messages.upload.fileNotFound);
  const inline = file.kind === UploadKind.image || file.kind === UploadKind.qr;
  return reply
    .header('content-type', contentTypeOf(file.fileName))
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-length', String(bytes.size))
    .send(bytes.stream);
}
