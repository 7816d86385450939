import { messages, UploadKind } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import type { NumberInput } from './upload-slicing.ts';

// A number file stored by /upload/files (kind 'numbers', checked as text there), found again by the
// calls that read one: /sync/uploadTaskData, /sync/uploadBlacklist. Only its uploader may use it.

/** The caller's own stored number file as a byte stream. Someone else's file is refused. */
export async function openOwnNumberFile(ctx: AppContext, caller: Access, fileNo: string): Promise<AsyncIterable<Uint8Array>> {
  const bytes = await ctx.files.read((await ownNumberFile(ctx, caller, fileNo)).filePath);
  if (!bytes) throw notFound(messages.upload.fileNotFound);
  return bytes.stream;
}

/**
 * The caller's own stored number file as the number import reads it (same checks as openOwnNumberFile):
 * its path when the store is this host's disk (a worker thread reads it itself), else its stream.
 */
export async function ownNumberFileInput(ctx: AppContext, caller: Access, fileNo: string): Promise<{ input: NumberInput; size: number }> {
  const upload = await ownNumberFile(ctx, caller, fileNo);
  const local = ctx.files.localPath(upload.filePath);
  if (local) {
    if (!(await ctx.files.exists(upload.filePath))) throw notFound(messages.upload.fileNotFound);
    return { input: { path: local }, size: upload.size };
  }
  const bytes = await ctx.files.read(upload.filePath);
  if (!bytes) throw notFound(messages.upload.fileNotFound);
  return { input: bytes.stream, size: bytes.size };
}

async function ownNumberFile(ctx: AppContext, caller: Access, fileNo: string) {
  const upload = await ctx.db.selectFrom('sys_upload').select(['filePath', 'userId', 'kind', 'size']).where('fileNo', '=', fileNo).executeTakeFirst();
  if (!upload) throw notFound(messages.upload.fileNotFound);
  if (upload.userId !== caller.userId) throw forbidden();
  if (upload.kind !== UploadKind.numbers) throw new AppError(messages.upload.notNumberFile);
  return upload;
}
