import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

// 导出: the current list with its filters as an .xlsx, written by exceljs's streaming writer so a
// large export never sits whole in memory.
export type XlsxColumn<T> = { header: string; key: keyof T & string; width?: number };

/** The most rows one export writes when a list loads them as one page; a streamed export has no cap. */
export const EXPORT_MAX_ROWS = 100_000;

/** Rows a sheet holds before the export goes on in the next one (Excel opens at most 1,048,576 a sheet). */
export const SHEET_MAX_ROWS = 1_000_000;

/**
 * Writes the rows as they come (an iterable, or an async one read page by page) and waits whenever the
 * client has not taken what was written, so memory stays flat however many rows there are. More than
 * SHEET_MAX_ROWS rows go on in sheets named "<name> (2)", "<name> (3)", ….
 */
export function sendXlsx<T extends Record<string, unknown>>(
  reply: FastifyReply,
  fileName: string,
  columns: XlsxColumn<T>[],
  rows: Iterable<T> | AsyncIterable<T>,
  options: { sheetMaxRows?: number } = {},
): FastifyReply {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  const sheetMaxRows = options.sheetMaxRows ?? SHEET_MAX_ROWS;
  const addSheet = (n: number) => {
    const name = n === 1 ? fileName.slice(0, 31) : `${fileName.slice(0, 24)} (${n})`;
    const sheet = workbook.addWorksheet(name);
    sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
    sheet.getRow(1).font = { bold: true };
    return sheet;
  };
  void (async () => {
    let sheets = 1;
    let sheet = addSheet(sheets);
    let inSheet = 0;
    for await (const row of rows) {
      if (inSheet === sheetMaxRows) {
        sheet.commit();
        sheet = addSheet(++sheets);
        inSheet = 0;
      }
      sheet.addRow(columns.map((c) => row[c.key] ?? '')).commit();
      inSheet++;
      // the zip writer pipes into `stream`: when the client is slower, wait until it has taken the rest
      if (inSheet % 500 === 0 && stream.writableNeedDrain) await once(stream, 'drain');
      if (stream.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => stream.destroy(error as Error));
  const encoded = encodeURIComponent(`${fileName}.xlsx`);
  return reply
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encoded}`)
    .send(stream);
}
