import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

// 导出: the current list with its filters as an .xlsx, written by exceljs's streaming writer so a
// large export never sits whole in memory.
export type XlsxColumn<T> = { header: string; key: keyof T & string; width?: number };

/** The most rows one export writes; the list's filters narrow anything larger. */
export const EXPORT_MAX_ROWS = 100_000;

export function sendXlsx<T extends Record<string, unknown>>(
  reply: FastifyReply,
  fileName: string,
  columns: XlsxColumn<T>[],
  rows: Iterable<T>,
): FastifyReply {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  const sheet = workbook.addWorksheet(fileName.slice(0, 31));
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  void (async () => {
    for (const row of rows) sheet.addRow(columns.map((c) => row[c.key] ?? '')).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((error) => stream.destroy(error as Error));
  const encoded = encodeURIComponent(`${fileName}.xlsx`);
  return reply
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encoded}`)
    .send(stream);
}
