import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

// 导出: the current list with its filters as an .xlsx, written by exceljs's streaming writer so a
// large export never sits whole in memory. exceljs is loaded by the first export, not as the server
// starts: with its dependencies it is ~450 of the ~1,300 CommonJS modules a start would load.
export type XlsxColumn<T> = { header: string; key: keyof T & string; width?: number };

type SheetTexts = Readonly<Record<string, unknown>>;

/**
 * A sheet's columns in the order of `widths`, each headed by the screen's text of the same name as its
 * key, found in the first of `texts` that has it (`sheetColumns<OperLog>(m, { operId: 10 })` is
 * `[{ header: m.operId, key: 'operId', width: 10 }]`); `headers` heads the columns whose text goes by
 * another name (`{ success: m.result }`). A column with no text fails when the routes are loaded.
 */
export function sheetColumns<T>(
  texts: SheetTexts | readonly SheetTexts[],
  widths: { [K in keyof T & string]?: number },
  headers: { [K in keyof T & string]?: string } = {},
): XlsxColumn<T>[] {
  const sources: readonly SheetTexts[] = Array.isArray(texts) ? texts : [texts];
  return Object.entries(widths).map(([key, width]) => {
    const header = headers[key as keyof T & string] ?? sources.map((source) => source[key]).find((text) => typeof text === 'string');
    if (typeof header !== 'string') throw new Error(`sheet column ${key}: no header text`);
    return { header, key: key as keyof T & string, width: width as number };
  });
}

/** The most rows one export writes when a list loads them as one page; a streamed export has no cap. */
export const EXPORT_MAX_ROWS = 100_000;

/** Rows a sheet holds before the export goes on in the next one (Excel opens at most 1,048,576 a sheet). */
export const SHEET_MAX_ROWS = 1_000_000;

/**
 * The stream the zip reads a sheet's XML from. exceljs writes the XML into it without waiting (its
 * StreamBuf ignores backpressure), so a compressor slower than the rows piled the XML up in memory:
 * +600 MB for 1,000,000 rows. Reached through exceljs internals (4.4: the sheet's `stream` and its
 * `pipes`); xlsx.test.ts fails if an upgrade moves them.
 */
export function zipInputOf(sheet: ExcelJS.Worksheet): ZipInput | undefined {
  return (sheet as unknown as { stream?: { pipes?: ZipInput[] } }).stream?.pipes?.[0];
}

/** archiver's PassThrough comes from the readable-stream package: its state, not Node's newer getters. */
type ZipInput = Writable & { _writableState?: { needDrain?: boolean; length?: number } };

/** Waits while the zip has not taken the XML written, or the client what was zipped. */
async function untilTaken(stream: PassThrough, sheet: ExcelJS.Worksheet): Promise<void> {
  const zipInput = zipInputOf(sheet);
  if (zipInput?._writableState?.needDrain) await once(zipInput, 'drain');
  if (stream.writableNeedDrain) await once(stream, 'drain');
}

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
  const sheetMaxRows = options.sheetMaxRows ?? SHEET_MAX_ROWS;
  void (async () => {
    const { default: excel } = await import('exceljs');
    const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
    const addSheet = (n: number) => {
      const name = n === 1 ? fileName.slice(0, 31) : `${fileName.slice(0, 24)} (${n})`;
      const sheet = workbook.addWorksheet(name);
      sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
      sheet.getRow(1).font = { bold: true };
      return sheet;
    };
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
      if (inSheet % 200 === 0) await untilTaken(stream, sheet);
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
