import type { Readable } from 'node:stream';
import { imageExtensions, messages, numberFileExtensions, UploadKind, type UploadResultItem } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { ownsOrAdministers, type Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { assertTextHead, extensionOf, isStorageKey, storeFile, type StoredFileRow } from '../../../infra/file-storage.ts';

/** Kinds a client may upload, with what each accepts. */
type ClientKind = typeof UploadKind.numbers | typeof UploadKind.image | typeof UploadKind.file;

/**
 * One file of /upload/files: 'numbers' takes .txt text only (extension, then the first bytes: a
 * binary is refused), 'image' png/jpg/gif/webp, 'file' anything; all within UPLOAD_MAX_MB.
 */
export async function uploadFile(
  ctx: AppContext,
  caller: Access,
  kind: ClientKind,
  file: { fileName: string; content: Readable },
): Promise<UploadResultItem> {
  const ext = extensionOf(file.fileName);
  if (kind === UploadKind.numbers && !(numberFileExtensions as readonly string[]).includes(ext)) throw new AppError(messages.upload.txtOnly);
  if (kind === UploadKind.image && !(imageExtensions as readonly string[]).includes(ext)) throw new AppError(messages.upload.imageOnly);
  const stored = await storeFile(ctx, {
    content: file.content,
    fileName: file.fileName,
    kind,
    userId: caller.userId,
    deptId: caller.deptId,
    inspectHead: kind === UploadKind.numbers ? assertTextHead : kind === UploadKind.image ? assertImageHead : undefined,
  });
  return { fileNo: stored.fileNo, fileName: stored.fileName, filePath: stored.filePath };
}

function assertImageHead(head: Uint8Array): void {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  const image =
    starts(0x89, 0x50, 0x4e, 0x47) // PNG
    || starts(0xff, 0xd8, 0xff) // JPEG
    || starts(0x47, 0x49, 0x46, 0x38) // GIF8
    || (starts(0x52, 0x49, 0x46, 0x46) && head[8] === 0x57 && head[9] === 0x45 && head[10] === 0x42 && head[11] === 0x50); // RIFF….WEBP
  if (!image) throw new AppError(messages.upload.imageOnly);
}


/**
 * A rule of another area by which a caller may see a stored file it neither uploaded nor administers
 * (the task's image or file: modules/sending/tasks/task-files.ts). Given to fileRoutes by modules/index.ts, so
 * this generic area imports none of the areas that attach files.
 */
export type AttachedFileRule = (ctx: AppContext, caller: Access, file: StoredFileRow) => Promise<boolean>;

/**
 * Who may download a stored file (GET /download/file):
 *   1. its owner (the account that uploaded or generated it);
 *   2. an administrator whose data scope holds the file's company (deptId) — 1 and 2: ownsOrAdministers;
 *   3. anyone an attachment rule lets see it (a task's image / file, shown to whoever sees the task);
 *      never a number file.
 * Anything else — a path that is not a stored file's key ('../../', absolute, made up) — is 404; a stored
 * file the caller may not see is 403.
 */
export async function loadDownloadable(ctx: AppContext, caller: Access, filePath: string, attached: readonly AttachedFileRule[]) {
  const file = await loadStoredFile(ctx, filePath);
  if (!(await maySee(ctx, caller, file, attached))) throw forbidden();
  return file;
}

/** A file this product stored, by its storage key; anything else (../, absolute, unknown) is 404. */
export async function loadStoredFile(ctx: AppContext, filePath: string) {
  if (!isStorageKey(filePath)) throw notFound(messages.upload.fileNotFound);
  const row = await ctx.db.selectFrom('sys_upload').selectAll().where('filePath', '=', filePath).executeTakeFirst();
  if (!row) throw notFound(messages.upload.fileNotFound);
  return row;
}
export type StoredFile = Awaited<ReturnType<typeof loadStoredFile>>;

async function maySee(ctx: AppContext, caller: Access, file: StoredFileRow, attached: readonly AttachedFileRule[]) {
  if (ownsOrAdministers(caller, file)) return true;
  if (file.kind === UploadKind.numbers) return false;
  for (const rule of attached) if (await rule(ctx, caller, file)) return true;
  return false;
}
