import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../db/schema.ts';
import { DeviceClient } from '../../../tools/device-simulator/device-client.ts';
import { phoneNumbers } from './devices.ts';
import { ADMIN_PASSWORD } from './harness.ts';

// A real server's sending half driven over HTTP, as an operator and the devices do: the super administrator's
// login, file uploads, and a task made the console's way, for tests that run a server process.

/** The super administrator's token on the server at `url`. */
export async function loginOverHttp(url: string): Promise<string> {
  const answer = await (await fetch(`${url}/sync/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: 'admin', passwd: ADMIN_PASSWORD }) })).json() as { data: { token: string } };
  return answer.data.token;
}

/** Posts a file to /upload/files as `kind`; answers its fileNo and storage key. */
export async function uploadOverHttp(url: string, token: string, kind: string, fileName: string, content: Buffer): Promise<{ fileNo: string; filePath: string }> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', new Blob([content]), fileName);
  const answer = await (await fetch(`${url}/upload/files`, { method: 'POST', headers: { token }, body: form })).json() as { success: boolean; msg: string; data: { fileNo: string; filePath: string }[] };
  expect(answer.success, answer.msg).toBe(true);
  return answer.data[0]!;
}

export async function postOverHttp(url: string, token: string, route: string, body: unknown): Promise<{ success: boolean; msg: string; data?: { taskId?: number } }> {
  return (await fetch(`${url}${route}`, { method: 'POST', headers: { token, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as never;
}

export type SendingTaskOverHttp = {
  url: string;
  db: Kysely<Database>;
  token: string;
  machineCodes: string[];
  numbers: number;
  /** The authorization codes start with it (A-Z 0-9). */
  codePrefix: string;
  /** Seconds between two numbers of a batch (the task's 发送间隔). */
  intervalSeconds?: number;
};

/**
 * A task with an image and `numbers` numbers, made as an operator makes one (the devices activated first:
 * a task goes only to its owner's active devices), and the codes its devices activate with.
 */
export async function sendingTaskOverHttp(o: SendingTaskOverHttp): Promise<{ taskId: number; codes: string[] }> {
  const now = Date.now();
  const codes = o.machineCodes.map((_, i) => `${o.codePrefix}${i}${now.toString(36).toUpperCase()}`);
  await o.db.insertInto('sync_auth_code').values(codes.map((authCode) => ({
    authCode, authUserId: 1, dueNum: 1_000_000, dueDateNum: 30, dueDate: now + 30 * 86_400_000, addUserId: 1, deptId: 1, addTime: now, editTime: now,
  }))).execute();
  for (const [i, authCode] of codes.entries()) await new DeviceClient(o.url).activate({ authCode, machineCode: o.machineCodes[i]!, machineName: o.machineCodes[i]! });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 7)]);
  const image = await uploadOverHttp(o.url, o.token, 'image', 'poster.png', png);
  const saved = await postOverHttp(o.url, o.token, '/sync/saveTaskInfo', {
    taskName: `${o.codePrefix} 发送`, showType: 3, content: o.codePrefix, imgUrl: `/download/file?filePath=${encodeURIComponent(image.filePath)}`,
    singleSendNumDay: 100_000, batchSendNum: 10, batchSendMaxNum: 20, intervalSeconds: o.intervalSeconds ?? 0, machineCodeList: o.machineCodes.join(','),
  });
  expect(saved.success, saved.msg).toBe(true);
  const numberFile = await uploadOverHttp(o.url, o.token, 'numbers', 'send.txt', Buffer.from(phoneNumbers(o.numbers).join('\n')));
  const imported = await postOverHttp(o.url, o.token, '/sync/uploadTaskData', { taskId: saved.data!.taskId, fileNo: numberFile.fileNo, fileName: 'send.txt', fileUrl: '' });
  expect(imported.success, imported.msg).toBe(true);
  return { taskId: saved.data!.taskId!, codes };
}
