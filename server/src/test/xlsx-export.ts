import ExcelJS from 'exceljs';
import { expect } from 'vitest';

type ExportAnswer = { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer };

/**
 * An export answer read as its first sheet's rows of cell values (row 0 the headers), after checking it
 * is an .xlsx download — named `title`.xlsx when a title is given.
 */
export async function readXlsxExport(raw: unknown, title?: string): Promise<unknown[][]> {
  const answer = raw as ExportAnswer;
  expect(answer.statusCode).toBe(200);
  expect(String(answer.headers['content-type'])).toContain('spreadsheetml');
  if (title) expect(String(answer.headers['content-disposition'])).toContain(encodeURIComponent(`${title}.xlsx`));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  return Array.from({ length: sheet.rowCount }, (_, i) => (sheet.getRow(i + 1).values as unknown[]).slice(1));
}
