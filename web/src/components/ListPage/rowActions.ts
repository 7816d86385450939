/**
 * How a row's actions fit its 操作 cell: up to three show as links; a row with more shows the first
 * two and a 更多 dropdown holding the rest, so the column stays narrow and covers nothing at 1366 px.
 */
export const MAX_INLINE_ACTIONS = 3;
const INLINE_WHEN_GROUPED = 2;

export function splitRowActions<A>(actions: A[]): { inline: A[]; more: A[] } {
  if (actions.length <= MAX_INLINE_ACTIONS) return { inline: actions, more: [] };
  return { inline: actions.slice(0, INLINE_WHEN_GROUPED), more: actions.slice(INLINE_WHEN_GROUPED) };
}

// A small link button: 14 px a character plus 7 px padding each side; 4 px between buttons; the
// cell's own padding 16 px each side; the 更多 link carries a 12 px arrow and its gap.
const CHAR_PX = 14;
const BUTTON_PAD_PX = 14;
const GAP_PX = 4;
const CELL_PAD_PX = 32;
const ARROW_PX = 16;
const buttonPx = (label: string) => label.length * CHAR_PX + BUTTON_PAD_PX;

/** The width of one row's 操作 cell, from the labels of the actions that row shows. */
export function actionsCellWidth(labels: string[], moreLabel: string): number {
  const { inline, more } = splitRowActions(labels);
  const shown = [...inline.map(buttonPx), ...(more.length > 0 ? [buttonPx(moreLabel) + ARROW_PX] : [])];
  return shown.reduce((sum, px) => sum + px, 0) + GAP_PX * Math.max(0, shown.length - 1) + CELL_PAD_PX;
}

/** The 操作 column's width: the widest cell of the rows shown (at least room for its title). */
export function actionsColumnWidth(rowsLabels: string[][], moreLabel: string, title: string): number {
  const titlePx = title.length * CHAR_PX + CELL_PAD_PX;
  return Math.max(titlePx, ...rowsLabels.map((labels) => actionsCellWidth(labels, moreLabel)));
}

/** A column without a width takes at least this much of the table's minimum width. */
export const DEFAULT_COLUMN_PX = 120;
/** The row-selection checkbox column. */
export const SELECTION_COLUMN_PX = 32;

/**
 * The table's minimum width: the columns' widths (a column without one counts DEFAULT_COLUMN_PX).
 * Wider screens spread the spare room over the columns without a width; narrower ones scroll.
 */
export function minimumTableWidth(widths: (number | string | undefined)[], selectable: boolean): number {
  const columns = widths.reduce<number>((sum, w) => sum + (typeof w === 'number' ? w : DEFAULT_COLUMN_PX), 0);
  return columns + (selectable ? SELECTION_COLUMN_PX : 0);
}
