import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { sendXlsx, sheetColumns, zipInputOf } from './xlsx.ts';

// The streamed writer on its own: rows from an async source, sheets rolled over at the cap.

async function* numbers(n: number) {
  for (let i = 1; i <= n; i++) yield { no: i, name: `行${i}` };
}

it('writes an async source in order and goes on in a new sheet past the cap', async () => {
  const app = Fastify();
  app.get('/x', (_request, reply) => sendXlsx(reply, '交易订单', [{ header: '序号', key: 'no' }, { header: '名称', key: 'name' }], numbers(7), { sheetMaxRows: 3 }));
  const answer = await app.inject({ method: 'GET', url: '/x' });
  expect(answer.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
  expect(workbook.worksheets.map((w) => w.name)).toEqual(['交易订单', '交易订单 (2)', '交易订单 (3)']);
  const values = workbook.worksheets.map((w) => Array.from({ length: w.rowCount }, (_, i) => (w.getRow(i + 1).values as unknown[]).slice(1)));
  expect(values.map((rows) => rows[0])).toEqual([['序号', '名称'], ['序号', '名称'], ['序号', '名称']]);
  expect(values.flatMap((rows) => rows.slice(1).map((r) => r[0]))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  await app.close();
});

it('still finds the zip input it waits on in exceljs (an upgrade that moves it fails here, not in memory)', async () => {
  const { PassThrough } = await import('node:stream');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new PassThrough(), useStyles: true });
  const sheet = workbook.addWorksheet('x');
  sheet.addRow([1]).commit();
  const input = zipInputOf(sheet);
  expect(input).toBeDefined();
  expect(typeof input!._writableState?.needDrain).toBe('boolean');
  expect(typeof input!.once).toBe('function');
});

it('heads each sheet column with the text of its name, in the order given, from the first texts that have it', () => {
  const screen = { orderNo: '订单号', title: '交易订单' };
  const common = { orderNo: '别的订单号', editTime: '修改时间' };
  type Row = { orderNo: string; editTime: string; success: string };
  expect(sheetColumns<Row>([screen, common], { editTime: 20, orderNo: 28, success: 8 }, { success: '结果' })).toEqual([
    { header: '修改时间', key: 'editTime', width: 20 },
    { header: '订单号', key: 'orderNo', width: 28 },
    { header: '结果', key: 'success', width: 8 },
  ]);
  expect(() => sheetColumns<Row>(screen, { editTime: 20 })).toThrow('sheet column editTime: no header text');
});
