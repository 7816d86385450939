import { randomBytes } from 'node:crypto';
import type { TestApp } from './harness.ts';

// Helpers of the tests that upload files (not used by the server).

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
