// The front door of modules/sending/number-files: what other areas, app.ts and the tools may import from it.
export { parseNumberFile, scanNumberText } from './number-file.ts';
export type { NumberFileSummary } from './number-scanner.ts';
export { openOwnNumberFile, ownNumberFileInput } from './stored-number-file.ts';
export type { NumberSlice } from './upload-slices.ts';
export { sliceInThread, sliceInWorker } from './upload-slicing.ts';
export type { NumberInput } from './upload-slicing.ts';
