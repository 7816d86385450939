import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fill, messages } from '@huiyun/contract';
import { startTestApp } from '../../../test/harness.ts';
import { admin, adminA, adminB, dataDir, demo, t, user1, user1Id, user2, user2Id, useSendingCast } from '../../../test/sending-cast.ts';
import { contentDisposition, looksBinary, sanitizeFileName, storeFile } from '../../../infra/file-storage.ts';
import { multipart, uploadVia } from '../../../test/uploads.ts';
import { insertTask } from '../../../test/rows.ts';

const m = messages.upload;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2dd5e6b0000000049454e44ae426082', 'hex');

useSendingCast('files');

const uploadsDir = () => path.join(dataDir, 'uploads');
function storedFiles(): string[] {
  if (!fs.existsSync(uploadsDir())) return [];
  return (fs.readdirSync(uploadsDir(), { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(uploadsDir(), f)).isFile());
}
const uploadRows = async () => (await t.ctx.db.selectFrom('sys_upload').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
const download = (token: string | null, filePath: string) =>
  t.app.inject({ method: 'GET', url: `/download/file?filePath=${encodeURIComponent(filePath)}`, headers: token ? { token } : {} });

describe('POST /upload/files', () => {
  it('stores a number file under uploads/<yyyy>/<mm>/ and answers the Upload result', async () => {
    const answer = await uploadVia(t, user1, { fileName: '客户号码.txt', content: '13800138000\n13900139000\n' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, msg: m.uploaded });
    expect(answer.body.data).toHaveLength(1);
    const item = answer.body.data[0];
    expect(item).toEqual({ fileNo: expect.stringMatching(/^[0-9a-f]{32}$/), fileName: '客户号码.txt', filePath: expect.any(String) });
    const now = new Date();
    expect(item.filePath).toBe(`${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${item.fileNo}.txt`);
    expect(fs.readFileSync(path.join(uploadsDir(), item.filePath), 'utf8')).toBe('13800138000\n13900139000\n');
    const row = await t.ctx.db.selectFrom('sys_upload').selectAll().where('fileNo', '=', item.fileNo).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ fileName: '客户号码.txt', filePath: item.filePath, kind: 'numbers', userId: user1Id, deptId: 1 });
    expect(Number(row.size)).toBe(24);
  });

  it('takes the token from a form field before the file, or from the query', async () => {
    const viaField = await uploadVia(t, null, { fileName: 'a.txt', content: '13800138000' }, { fieldsBefore: { userId: String(user1Id), token: user1 } });
    expect(viaField.body.success).toBe(true);
    const viaQuery = await uploadVia(t, null, { fileName: 'a.txt', content: '13800138000' }, { query: `?token=${user1}` });
    expect(viaQuery.body.success).toBe(true);
    // a token that only follows the file cannot be checked before the file is read: refused, nothing kept
    const before = storedFiles().length;
    const late = await uploadVia(t, null, { fileName: 'a.txt', content: '13800138000' }, { fieldsAfter: { token: user1 } });
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ success: false, msg: messages.common.loginRequired });
    expect(storedFiles()).toHaveLength(before);
  });

  it('refuses what a kind does not take, with its message, keeping nothing', async () => {
    const beforeFiles = storedFiles().length;
    const beforeRows = await uploadRows();
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]);
    const cases: [{ fileName: string; content: Uint8Array | string }, string | undefined, string][] = [
      [{ fileName: 'numbers.csv', content: '13800138000' }, undefined, m.txtOnly],
      [{ fileName: 'numbers', content: '13800138000' }, 'numbers', m.txtOnly],
      [{ fileName: 'numbers.xlsx', content: zip }, 'numbers', m.txtOnly],
      [{ fileName: 'renamed.txt', content: zip }, 'numbers', m.notText],
      [{ fileName: 'picture.txt', content: PNG }, 'numbers', m.notText],
      [{ fileName: 'nul.txt', content: Buffer.from('13800138000\0\0\0\u0001\u0002\u0003garbage') }, 'numbers', m.notText],
      [{ fileName: 'empty.txt', content: '' }, 'numbers', m.emptyFile],
      [{ fileName: 'photo.bmp', content: 'BM....' }, 'image', m.imageOnly],
      [{ fileName: 'fake.png', content: 'not a png at all' }, 'image', m.imageOnly],
      [{ fileName: 'a.txt', content: 'x' }, 'qr', m.badKind],
      [{ fileName: 'a.txt', content: 'x' }, 'script', m.badKind],
    ];
    for (const [file, kind, message] of cases) {
      const answer = await uploadVia(t, user1, file, { kind });
      expect(answer.status, `${file.fileName} as ${kind}`).toBe(400);
      expect(answer.body).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect(storedFiles()).toHaveLength(beforeFiles);
    expect(await uploadRows()).toBe(beforeRows);
  });

  it('reads UTF-16 and GBK number files as text', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('13800138000\r\n张三\r\n', 'utf16le')]);
    expect((await uploadVia(t, user1, { fileName: 'u16.txt', content: utf16 })).body.success).toBe(true);
    const bomless = Buffer.from('13800138000\r\n13900139000\r\n', 'utf16le');
    expect((await uploadVia(t, user1, { fileName: 'u16.txt', content: bomless })).body.success).toBe(true);
    const gbk = Buffer.from([0xd5, 0xc5, 0xc8, 0xfd, 0x20, 0x31, 0x33, 0x38, 0x30, 0x30, 0x31, 0x33, 0x38, 0x30, 0x30, 0x30, 0x0a]); // 张三 13800138000
    expect((await uploadVia(t, user1, { fileName: 'gbk.TXT', content: gbk })).body.success).toBe(true);
  });

  it('takes images and any file for their kinds', async () => {
    const image = await uploadVia(t, user1, { fileName: 'logo.PNG', content: PNG }, { kind: 'image' });
    expect(image.body).toMatchObject({ success: true, data: [{ fileName: 'logo.PNG', filePath: expect.stringMatching(/\.png$/) }] });
    const any = await uploadVia(t, user1, { fileName: '报价单.pdf', content: '%PDF-1.4 whatever' }, { kind: 'file' });
    expect(any.body).toMatchObject({ success: true, data: [{ fileName: '报价单.pdf' }] });
    const kindInQuery = await uploadVia(t, user1, { fileName: 'logo.gif', content: Buffer.from('GIF89a....') }, { query: '?kind=image' });
    expect(kindInQuery.body.success).toBe(true);
    const row = await t.ctx.db.selectFrom('sys_upload').select('kind').where('fileNo', '=', kindInQuery.body.data[0].fileNo).executeTakeFirstOrThrow();
    expect(row.kind).toBe('image');
  });

  it('keeps only the last segment of the name, without control or reserved characters', async () => {
    const answer = await uploadVia(t, user1, { fileName: '..\\..\\windows\\evil<1>.txt', content: '13800138000' });
    expect(answer.body.data[0].fileName).toBe('evil1.txt');
    expect(answer.body.data[0].filePath).not.toContain('..');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('...')).toBe('file');
    expect(sanitizeFileName(`${'长'.repeat(300)}.txt`)).toHaveLength(255);
  });

  it('refuses a file over UPLOAD_MAX_MB with its message and keeps no part of it', async () => {
    const previous = t.ctx.config.uploadMaxMb;
    t.ctx.config.uploadMaxMb = 1;
    try {
      const beforeFiles = storedFiles().length;
      const beforeRows = await uploadRows();
      const big = Buffer.alloc(1024 * 1024 + 10, '1');
      for (const kind of ['numbers', 'file']) {
        const answer = await uploadVia(t, user1, { fileName: 'big.txt', content: big }, { kind });
        expect(answer.status).toBe(413);
        expect(answer.body).toMatchObject({ success: false, msg: fill(m.tooLarge, { max: 1 }) });
      }
      expect(storedFiles()).toHaveLength(beforeFiles);
      expect(await uploadRows()).toBe(beforeRows);
      // exactly the limit is fine
      const exact = await uploadVia(t, user1, { fileName: 'exact.txt', content: Buffer.alloc(1024 * 1024, '1') });
      expect(exact.body.success).toBe(true);
    } finally {
      t.ctx.config.uploadMaxMb = previous;
    }
  });

  it('streams files larger than the JSON body limit', async () => {
    const content = Buffer.alloc(5 * 1024 * 1024, '13800138000\n');
    const answer = await uploadVia(t, user1, { fileName: 'five-mb.txt', content });
    expect(answer.body.success).toBe(true);
    expect(fs.statSync(path.join(uploadsDir(), answer.body.data[0].filePath)).size).toBe(content.length);
  });

  it('writes under a partial name until the file is whole; a start sweeps the partial files of dead uploads', async () => {
    const whole = () => storedFiles().filter((f) => !f.endsWith('.part'));
    const before = whole();
    const content = new PassThrough();
    const storing = storeFile(t.ctx, { content, fileName: 'slow.txt', kind: 'numbers', userId: user1Id, deptId: 1 });
    content.write('13800138000\n');
    await vi.waitFor(() => expect(storedFiles().filter((f) => f.endsWith('.part'))).toHaveLength(1), { timeout: 10_000 });
    expect(whole()).toEqual(before);
    content.end('13900139000\n');
    const stored = await storing;
    expect(storedFiles().filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(fs.readFileSync(path.join(uploadsDir(), stored.filePath), 'utf8')).toBe('13800138000\n13900139000\n');

    // what a process killed mid-upload leaves: a partial file, no row; one still being written is kept
    const dead = path.join(uploadsDir(), '2020', '01', 'deadbeef.txt.part');
    const live = path.join(uploadsDir(), '2020', '01', 'cafebabe.txt.part');
    fs.mkdirSync(path.dirname(dead), { recursive: true });
    fs.writeFileSync(dead, '1380013');
    fs.writeFileSync(live, '1390013');
    const longAgo = new Date(Date.now() - 24 * 60 * 60_000);
    fs.utimesSync(dead, longAgo, longAgo);
    const restarted = await startTestApp({ DATA_DIR: dataDir });
    try {
      // swept in the background after the start
      await vi.waitFor(() => expect(fs.existsSync(dead)).toBe(false), { timeout: 10_000 });
      expect(fs.existsSync(live)).toBe(true);
    } finally {
      await restarted.close();
      fs.rmSync(live);
    }
  });

  it('refuses a request without a file, a caller without the permission, and no login', async () => {
    const noFile = multipart([{ name: 'kind', value: 'numbers' }]);
    const empty = await t.app.inject({ method: 'POST', url: '/upload/files', headers: { 'content-type': noFile.contentType, token: user1 }, payload: noFile.payload });
    expect(empty.json()).toMatchObject({ success: false, msg: m.fileRequired });
    const json = await t.call('POST', '/upload/files', { token: user1, body: { file: '13800138000' } });
    expect(json.body).toMatchObject({ success: false, msg: m.fileRequired });
    const denied = await uploadVia(t, demo, { fileName: 'a.txt', content: '13800138000' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ success: false, msg: messages.common.forbidden });
    const anonymous = await uploadVia(t, null, { fileName: 'a.txt', content: '13800138000' });
    expect(anonymous.status).toBe(401);
  });
});

describe('GET /download/file', () => {
  let numbersPath: string;
  let imagePath: string;
  let imageFileNo: string;
  beforeAll(async () => {
    numbersPath = (await uploadVia(t, user1, { fileName: '客户 号码(1).txt', content: '13800138000\n' })).body.data[0].filePath;
    const image = (await uploadVia(t, user1, { fileName: 'banner.png', content: PNG }, { kind: 'image' })).body.data[0];
    imagePath = image.filePath;
    imageFileNo = image.fileNo;
  });

  it('serves the owner its file with the content type and the original name (RFC 5987)', async () => {
    const answer = await download(user1, numbersPath);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('13800138000\n');
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="__ __(1).txt"; filename*=UTF-8''${encodeURIComponent('客户 号码').replace(/[()]/g, '')}%281%29.txt`);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    const image = await download(user1, imagePath);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toMatch(/^inline; /);
    expect(image.rawPayload.equals(PNG)).toBe(true);
    // the token may ride in the query (an <img src> or a browser navigation)
    const viaQuery = await t.app.inject({ method: 'GET', url: `/download/file?filePath=${encodeURIComponent(imagePath)}&token=${user1}` });
    expect(viaQuery.statusCode).toBe(200);
  });

  it('serves administrators whose scope holds the file, refuses other users and other companies', async () => {
    expect((await download(admin, numbersPath)).statusCode).toBe(200);
    expect((await download(adminA, numbersPath)).statusCode).toBe(200);
    for (const token of [user2, adminB]) {
      const refused = await download(token, numbersPath);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ success: false, msg: messages.common.forbidden });
    }
    expect((await download(null, numbersPath)).statusCode).toBe(401);
  });

  it('serves a task image to whoever can see the task, never a number list', async () => {
    expect((await download(user2, imagePath)).statusCode).toBe(403);
    await insertTask(t, { taskName: 'files_with_image', userId: user2Id, deptId: 1 }).then((taskId) =>
      t.ctx.db.updateTable('sync_task').set({ fileNo: imageFileNo, imgUrl: `/download/file?filePath=${encodeURIComponent(imagePath)}` }).where('taskId', '=', taskId).execute(),
    );
    expect((await download(user2, imagePath)).statusCode).toBe(200);
    const numbersNo = (await t.ctx.db.selectFrom('sys_upload').select('fileNo').where('filePath', '=', numbersPath).executeTakeFirstOrThrow()).fileNo;
    await insertTask(t, { taskName: 'files_with_numbers', userId: user2Id, deptId: 1 }).then((taskId) =>
      t.ctx.db.updateTable('sync_task').set({ fileNo: numbersNo }).where('taskId', '=', taskId).execute(),
    );
    expect((await download(user2, numbersPath)).statusCode).toBe(403);
  });

  it('refuses paths that are not a stored file: traversal, absolute, made up', async () => {
    fs.writeFileSync(path.join(dataDir, 'secret.txt'), 'secret');
    const attempts = [
      '../secret.txt', '..%2Fsecret.txt', '../../etc/passwd', '/etc/passwd', 'C:\\Windows\\win.ini', `${path.dirname(numbersPath)}/../../../secret.txt`,
      `${numbersPath}/..`, './/' + numbersPath, numbersPath.replace('/', '\\'), '2020/01/00000000000000000000000000000000.txt', '', 'huiyun.db', '....//secret.txt',
      `${uploadsDir()}/${numbersPath}`,
    ];
    for (const filePath of attempts) {
      const answer = await download(admin, filePath);
      expect(answer.statusCode, filePath).toBe(404);
      expect(answer.json()).toMatchObject({ success: false, msg: m.fileNotFound });
      expect(answer.body).not.toContain('secret');
    }
    const raw = await t.app.inject({ method: 'GET', url: '/download/file?filePath=../secret.txt', headers: { token: admin } });
    expect(raw.statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'GET', url: '/download/file', headers: { token: admin } });
    expect(missing.json()).toMatchObject({ success: false, msg: m.fileNotFound });
  });

  it('answers 404 when the row exists but the file is gone', async () => {
    const gone = (await uploadVia(t, user1, { fileName: 'gone.txt', content: '13800138000' })).body.data[0].filePath;
    fs.rmSync(path.join(uploadsDir(), gone));
    expect((await download(user1, gone)).statusCode).toBe(404);
  });
});

describe('storage helpers', () => {
  it('writes Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('attachment', '任务A-未发送.txt')).toBe(
      `attachment; filename="__A-___.txt"; filename*=UTF-8''%E4%BB%BB%E5%8A%A1A-%E6%9C%AA%E5%8F%91%E9%80%81.txt`,
    );
    expect(contentDisposition('inline', 'a"b.png')).toBe(`inline; filename="a_b.png"; filename*=UTF-8''a%22b.png`);
  });

  it('tells text from binaries', () => {
    expect(looksBinary(Buffer.from('13800138000\r\n'))).toBe(false);
    expect(looksBinary(Buffer.from('13800138000\n', 'utf16le'))).toBe(false);
    expect(looksBinary(Buffer.from('\u4e01\u4e02\n1', 'utf16le'))).toBe(false);
    expect(looksBinary(PNG)).toBe(true);
    expect(looksBinary(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toBe(true);
  });
});
