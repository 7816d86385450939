import fs from 'node:fs';
import type { FastifyReply } from 'fastify';
import { UploadKind } from '@huiyun/contract';
import type { StoredFile } from './service.ts';
import { contentDisposition, contentTypeOf } from '../../../infra/file-storage.ts';

/** Streams a stored file: images and QR codes inline, anything else as an attachment; never cached. */
export function sendStoredFile(reply: FastifyReply, file: StoredFile) {
  const inline = file.kind === UploadKind.image || file.kind === UploadKind.qr;
  return reply
    .header('content-type', contentTypeOf(file.fileName))
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-length', String(fs.statSync(file.absolute).size))
    .send(fs.createReadStream(file.absolute));
}
