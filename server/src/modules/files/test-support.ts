import { randomBytes } from 'node:crypto';
import type { TestApp } from '../../test/harness.ts';

// Helpers of the files / number upload / export tests (not used by the server).

export type Part = { name: string; value: string } | { name: string; fileName: string; content: Uint8Array | string; contentType?: string };

/** A multipart/form-data body with its content-type header, parts in the order given. */
export function multipart(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----huiyun${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(Buffer.from(
        `Content-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ));
      chunks.push(typeof part.content === 'string' ? Buffer.from(part.content) : Buffer.from(part.content));
      chunks.push(Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /upload/files with one file (and optional fields before it); `token` in the header unless null. */
export async function uploadVia(
  t: TestApp,
  token: string | null,
  file: { fileName: string; content: Uint8Array | string },
  options: { kind?: string; fieldsBefore?: Record<string, string>; fieldsAfter?: Record<string, string>; query?: string } = {},
) {
  const parts: Part[] = [];
  for (const [name, value] of Object.entries(options.fieldsBefore ?? {})) parts.push({ name, value });
  if (options.kind) parts.push({ name: 'kind', value: options.kind });
  parts.push({ name: 'file', fileName: file.fileName, content: file.content });
  for (const [name, value] of Object.entries(options.fieldsAfter ?? {})) parts.push({ name, value });
  const { payload, contentType } = multipart(parts);
  const raw = await t.app.inject({
    method: 'POST',
    url: `/upload/files${options.query ?? ''}`,
    headers: { 'content-type': contentType, ...(token ? { token } : {}) },
    payload,
  });
  return { status: raw.statusCode, body: raw.json(), raw };
}

/** Uploads a number file and answers its fileNo (fails the test otherwise). */
export async function uploadNumbers(t: TestApp, token: string, content: Uint8Array | string, fileName = 'numbers.txt'): Promise<string> {
  const answer = await uploadVia(t, token, { fileName, content });
  if (!answer.body.success) throw new Error(`upload failed: ${answer.body.msg}`);
  return answer.body.data[0].fileNo as string;
}

/** The columns of a task row at their SPEC §9 defaults. */
export const TASK_DEFAULTS = {
  showType: 1, content: '', imgUrl: '', fileNo: '', fileName: '', qrUrl: 'http://', singleSendNumDay: 300, batchSendNum: 10, batchSendMaxNum: 10, intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0, isRandomNum: 0, randomPosition: 0,
};

/** A task row straight in the database (the task screen's own calls are tested elsewhere). */
export async function insertTask(t: TestApp, values: { taskName: string; userId: number; deptId: number | null; taskStatus?: number }): Promise<number> {
  const now = Date.now();
  const row = await t.ctx.db
    .insertInto('sync_task')
    .values({ ...TASK_DEFAULTS, taskName: values.taskName, userId: values.userId, deptId: values.deptId, taskStatus: values.taskStatus ?? 0, addTime: now, editTime: now })
    .returning('taskId')
    .executeTakeFirstOrThrow();
  return row.taskId;
}

export async function insertCompany(t: TestApp, deptNo: string): Promise<number> {
  const now = Date.now();
  const row = await t.ctx.db
    .insertInto('sys_dept')
    .values({ deptName: `公司${deptNo}`, deptNo, parentId: 0, addUser: 'test', editUser: 'test', addTime: now, editTime: now })
    .returning('deptId')
    .executeTakeFirstOrThrow();
  return row.deptId;
}
