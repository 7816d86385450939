import fs from 'node:fs';
import { messages, UploadKind } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { absolutePathOf } from '../../../infra/file-storage.ts';

// A number file stored by /upload/files (kind 'numbers', checked as text there), found again by the
// calls that read one: /sync/uploadTaskData, /sync/uploadBlacklist. Only its uploader may use it.

/** The caller's own stored number file as a byte stream. Someone else's file is refused. */
export async function openOwnNumberFile(ctx: AppContext, caller: Access, fileNo: string): Promise<fs.ReadStream> {
  return fs.createReadStream(await ownNumberFilePath(ctx, caller, fileNo), { highWaterMark: 1 << 18 });
}

/** Where the caller's own stored number file lies on disk (same checks as openOwnNumberFile). */
export async function ownNumberFilePath(ctx: AppContext, caller: Access, fileNo: string): Promise<string> {
  const upload = await ctx.db.selectFrom('sys_upload').selectAll().where('fileNo', '=', fileNo).executeTakeFirst();
  if (!upload) throw notFound(messages.upload.fileNotFound);
  if (upload.userId !== caller.userId) throw forbidden();
  if (upload.kind !== UploadKind.numbers) throw new AppError(messages.upload.notNumberFile);
  const file = absolutePathOf(ctx, upload.filePath);
  if (!file || !fs.existsSync(file)) throw notFound(messages.upload.fileNotFound);
  return file;
}
