import { z } from 'zod';
import { task as taskTexts, upload as m } from './messages.ts';
import { TaskExportType } from './enums.ts';
import type { CarrierKey } from './carriers.ts';
import { idOf, optionalText, typedText } from './fields.ts';
import type * as syncAnswers from './responses/sync.ts';

// Files (SPEC §7.1) and the number upload / export of the task list (SPEC §7.8, PRODUCT §4).

/** What a stored file is: a number list, a task image, a task file, a generated QR image. */
export const UploadKind = { numbers: 'numbers', image: 'image', file: 'file', qr: 'qr' } as const;
export type UploadKind = (typeof UploadKind)[keyof typeof UploadKind];

/** The kinds a client may send to /upload/files (QR images are stored by the server only). */
export const clientUploadKinds = [UploadKind.numbers, UploadKind.image, UploadKind.file] as const;

/** Extensions /upload/files takes per kind ('file' takes any, size-limited). */
export const numberFileExtensions = ['.txt'] as const;
export const imageExtensions = ['.png', '.jpg', '.jpeg', '.gif', '.webp'] as const;

/** The form fields of /upload/files besides `file` (also accepted in the query). */
export const uploadFilesFields = z.object({
  kind: z.preprocess((v) => (v == null || v === '' ? UploadKind.numbers : v), z.enum(clientUploadKinds, { error: m.badKind })),
});

/** One item of the Upload result (SPEC §3): filePath is the storage key /download/file takes. */
export type UploadResultItem = z.output<typeof syncAnswers.uploadResultItem>;

/** /download/file?filePath= */
export const downloadFileQuery = z.object({
  filePath: typedText(m.fileNotFound).trim().min(1, m.fileNotFound).max(255, m.fileNotFound),
});

const taskIdField = idOf(m.taskRequired);

/** A stored number file named in a request: fileNo names the upload; fileName and fileUrl are informative. */
export const numberFileFields = z.object({
  fileNo: typedText(m.fileNoRequired).trim().min(1, m.fileNoRequired).max(40, m.fileNoRequired),
  fileName: optionalText(255),
  fileUrl: optionalText(500),
});

/** /sync/uploadTaskData {taskId, fileNo, fileName, fileUrl}. */
export const uploadTaskDataRequest = z.object({ taskId: taskIdField, ...numberFileFields.shape });
export type UploadTaskDataRequest = z.infer<typeof uploadTaskDataRequest>;

/** An invalid token of a number list with its 1-based line. */
export type InvalidLine = z.output<typeof syncAnswers.invalidLine>;

/** What one number upload did (answer data of /sync/uploadTaskData). */
export type UploadTaskDataResult = z.output<typeof syncAnswers.uploadTaskDataResult>;


export const exportTaskQuery = z.object({
  taskId: taskIdField,
  exportType: z.preprocess(
    (v) => (v == null || v === '' ? TaskExportType.unsent : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z.union([z.literal(TaskExportType.all), z.literal(TaskExportType.unsent), z.literal(TaskExportType.sent)], { error: m.exportTypeInvalid }),
  ),
});
export type ExportTaskQuery = z.infer<typeof exportTaskQuery>;

/** The suffix of the export file name: '<taskName>-全部|未发送|已发送.txt'. */
export function exportTypeLabel(type: ExportTaskQuery['exportType']): string {
  return type === TaskExportType.all ? taskTexts.exportAll : type === TaskExportType.sent ? taskTexts.exportSent : taskTexts.exportUnsent;
}
