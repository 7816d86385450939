import { randomUUID } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { fill, messages, type UploadKind, type UploadResultItem } from '@huiyun/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../db/errors.ts';

// Stored files (SPEC §7.1), the storage every area uses (files' upload/download routes, a task's QR image,
// the number files, the devices' downloads): infra, so that no area imports another for it. Every file the
// console keeps has a sys_upload row and its bytes in the file store (ctx.files, infra/file-store.ts: this
// host's DATA_DIR/uploads or an S3-compatible bucket) under its storage key (sys_upload.filePath), made
// here — <yyyy>/<mm>/<fileNo><ext>, fileNo a random 32-hex id — and never taken from a client.
// /download/file only serves keys that are a sys_upload row, so a path the client makes up (../,
// absolute, anything not stored) is never opened. A store shows a key only once all of its bytes are
// written, and the row is written after that, so a process killed mid-upload leaves no row and at most a
// leftover the store sweeps after the next start.

/** Largest upload in bytes (UPLOAD_MAX_MB, validated with the rest of the configuration). */
/** A stored file's row (sys_upload), as the download rules read it. */
export type StoredFileRow = { fileNo: string; filePath: string; kind: string; userId: number | null; deptId: number | null };

export const uploadMaxBytes = (ctx: AppContext) => ctx.config.uploadMaxMb * 1024 * 1024;


/** The link the console shows for a stored file (the same form the task area stores in imgUrl). */
export const downloadUrlOf = (filePath: string) => `/download/file?filePath=${encodeURIComponent(filePath)}`;

const FORBIDDEN_NAME_CHARS = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;

/** The original name reduced to its last path segment without control or reserved characters, ≤ 255 characters. */
export function sanitizeFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(FORBIDDEN_NAME_CHARS, '').replace(/^[\s.]+|[\s.]+$/g, '');
  if (!cleaned) return 'file';
  if (cleaned.length <= 255) return cleaned;
  const ext = extensionOf(cleaned);
  return cleaned.slice(0, 255 - ext.length) + ext;
}

/** '.txt' of 'a.TXT'; '' when there is none or it is not a plain short extension. */
export function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? `.${match[1].toLowerCase()}` : '';
}

/** A storage key is relative, '/'-separated, made of safe segments; anything else is not one of ours. */
export function isStorageKey(filePath: string): boolean {
  if (filePath.length === 0 || filePath.length > 255) return false;
  return filePath.split('/').every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(segment) && !segment.includes('..'));
}


const CONTENT_TYPES: Record<string, string> = {
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
};

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extensionOf(name)] ?? 'application/octet-stream';
}

/** Content-Disposition with an ASCII fallback and the real name per RFC 5987 / RFC 6266. */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'file';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export type StoreFileInput = {
  /** The bytes: a stream (streamed to disk, never held whole) or a buffer. */
  content: AsyncIterable<Uint8Array> | Readable | Uint8Array;
  /** The original name; sanitized before it is kept. */
  fileName: string;
  kind: UploadKind;
  userId: number | null;
  deptId: number | null;
  /** Refuse more than this many bytes (default UPLOAD_MAX_MB). */
  maxBytes?: number;
  /** Looks at the first bytes (up to 4 KB) before anything is kept; throws to refuse the file. */
  inspectHead?: (head: Uint8Array) => void;
  /** Refuse an empty file (default true). */
  refuseEmpty?: boolean;
};

const HEAD_BYTES = 4096;

/**
 * Streams a file into the file store under <yyyy>/<mm>/<fileNo><ext> and records it in sys_upload. On any
 * refusal or failure nothing is kept: the store shows nothing under the key and no row is written.
 */
export async function storeFile(ctx: AppContext, input: StoreFileInput): Promise<UploadResultItem & { size: number }> {
  const fileName = sanitizeFileName(input.fileName);
  const fileNo = randomUUID().replaceAll('-', '');
  const now = new Date(ctx.now());
  const filePath = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${fileNo}${extensionOf(fileName)}`;
  const limiter = new LimitAndInspect(input.maxBytes ?? uploadMaxBytes(ctx), input.inspectHead);
  const source = input.content instanceof Readable ? input.content : Readable.from(input.content instanceof Uint8Array ? [input.content] : input.content);
  source.once('error', (error) => limiter.destroy(error));
  limiter.once('error', () => source.destroy()); // a refusal stops the upload's stream, as a pipeline would
  source.pipe(limiter);
  await ctx.files.write(filePath, limiter, contentTypeOf(fileName));
  try {
    if (limiter.bytes === 0 && input.refuseEmpty !== false) throw new AppError(messages.upload.emptyFile);
    await ctx.db
      .insertInto('sys_upload')
      .values({ fileNo, fileName, filePath, kind: input.kind, size: limiter.bytes, userId: input.userId, deptId: input.deptId, addTime: ctx.now() })
      .execute();
  } catch (error) {
    await ctx.files.remove(filePath).catch(() => undefined); // the refusal or the database's failure is the answer
    throw error;
  }
  return { fileNo, fileName, filePath, size: limiter.bytes };
}

/** Deletes a stored file and its row (nothing happens for an unknown key). */
export async function removeStoredFile(ctx: AppContext, filePath: string): Promise<void> {
  await ctx.db.deleteFrom('sys_upload').where('filePath', '=', filePath).execute();
  if (isStorageKey(filePath)) await ctx.files.remove(filePath);
}

/** Counts bytes (refusing past the limit) and hands the first 4 KB to the inspector before passing anything on. */
class LimitAndInspect extends Transform {
  /** Bytes passed so far (not `size`: the S3 uploader reads a body's `size` as its length, known in advance). */
  bytes = 0;
  private head: Buffer[] | null;
  private headBytes = 0;
  private readonly maxBytes: number;
  private readonly inspect?: (head: Uint8Array) => void;

  constructor(maxBytes: number, inspect?: (head: Uint8Array) => void) {
    super();
    this.maxBytes = maxBytes;
    this.inspect = inspect;
    this.head = inspect ? [] : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(new AppError(fill(messages.upload.tooLarge, { max: Math.round((this.maxBytes / 1024 / 1024) * 100) / 100 }), 413));
      return;
    }
    if (!this.head) {
      done(null, chunk);
      return;
    }
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes >= HEAD_BYTES) this.releaseHead(done);
    else done();
  }

  override _flush(done: TransformCallback): void {
    if (this.head) this.releaseHead(done);
    else done();
  }

  private releaseHead(done: TransformCallback): void {
    const held = Buffer.concat(this.head!);
    this.head = null;
    try {
      if (held.length > 0) this.inspect!(held.subarray(0, HEAD_BYTES));
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, held);
  }
}

/** For number files: a text file in UTF-8, GBK or UTF-16 (with or without BOM), not a binary. */
export function assertTextHead(head: Uint8Array): void {
  if (looksBinary(head)) throw new AppError(messages.upload.notText);
}

const MAGIC: number[][] = [
  [0x50, 0x4b, 0x03, 0x04], // zip, xlsx, docx
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0xd0, 0xcf, 0x11, 0xe0], // doc, xls
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  [0x52, 0x61, 0x72, 0x21], // Rar!
  [0x1f, 0x8b], // gzip
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x4d, 0x5a], // MZ (exe)
];

export function looksBinary(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return false; // UTF-16 BOM
  if (MAGIC.some((magic) => magic.every((byte, i) => head[i] === byte))) return true;
  // BOM-less UTF-16: NULs on one side of most byte pairs (as the number-file parser decides).
  let evenNuls = 0;
  let oddNuls = 0;
  let control = 0;
  for (let i = 0; i < head.length; i += 1) {
    const b = head[i];
    if (b === 0) {
      if (i % 2 === 0) evenNuls += 1;
      else oddNuls += 1;
    } else if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) {
      control += 1;
    }
  }
  const pairs = head.length >> 1;
  const utf16 = (oddNuls * 4 > pairs && oddNuls > evenNuls * 2) || (evenNuls * 4 > pairs && evenNuls > oddNuls * 2);
  if (utf16) return false;
  if (evenNuls + oddNuls > 0) return true;
  return control * 10 > head.length;
}
