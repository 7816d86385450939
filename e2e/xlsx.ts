import fs from 'node:fs';
import type { Download } from '@playwright/test';
import ExcelJS from 'exceljs';

/** A downloaded .xlsx read as its first sheet's rows of cell text (row 0 the headers). */
export async function readDownloadedXlsx(download: Download): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(fs.readFileSync((await download.path())!) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  return Array.from({ length: sheet.rowCount }, (_, i) => (sheet.getRow(i + 1).values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
}

/** The column headed `title` of a sheet read by readDownloadedXlsx, below its header. */
export function columnOf(sheet: string[][], title: string): string[] {
  const at = sheet[0]!.indexOf(title);
  if (at < 0) throw new Error(`no column ${title} in ${JSON.stringify(sheet[0])}`);
  return sheet.slice(1).map((row) => row[at] ?? '');
}
