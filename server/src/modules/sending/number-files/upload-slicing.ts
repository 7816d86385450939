// Runs an UploadSlicer over a number file, in this thread or on a worker thread, handing each slice to
// `onSlice` (the insert) and answering the summary.
//
// On a worker, with node:sqlite, the point is overlap: the inserts run synchronously on this thread,
// the parsing on the other core. Two things keep the worker fed:
//   - a stored file is read by the worker itself: this thread, busy inserting, would read (and post)
//     the next chunks only between statements, which starved the worker (measured: this thread idle
//     ≈ 0.9 s of a 1M-number upload, waiting for slices);
//   - the worker runs ahead by at most CREDIT slices: each insert done is acknowledged, which lets it
//     parse one more. So memory stays bounded whatever the file (CREDIT slices on each side).
// Any other byte stream (tests, a generated file) is posted to the worker chunk by chunk, at most
// READ_AHEAD chunks not yet parsed. Any failure (reading, the worker, an insert) ends the worker and
// rejects, so the caller's transaction rolls back.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { UploadSlicer, type NumberSlice, type SlicerOptions, type SlicerSummary } from './upload-slices.ts';

/** A number file: a stored file's path, or its bytes as a stream. */
export type NumberInput = { path: string } | AsyncIterable<Uint8Array>;

export type WorkerInput = { options: SlicerOptions; path: string | null; credit: number };
export type ToSlicer = { type: 'chunk'; bytes: Uint8Array } | { type: 'end' } | { type: 'inserted' };
export type FromSlicer = { type: 'slice'; slice: NumberSlice } | { type: 'consumed' } | { type: 'done'; summary: SlicerSummary };

/** Bytes per read of a stored file: below V8's large-object size, so a chunk's text is young garbage. */
export const READ_BYTES = 1 << 16;
/** Slices the worker may have posted and not seen inserted. */
const CREDIT = 2;
/** Chunks posted to the worker and not yet parsed (streams other than a stored file). */
const READ_AHEAD = 8;

const WORKER_FILE = new URL('./upload-worker.ts', import.meta.url);

/** A stream of the input's bytes. */
export function bytesOf(input: NumberInput): AsyncIterable<Uint8Array> {
  return 'path' in input ? fs.createReadStream(input.path, { highWaterMark: READ_BYTES }) : input;
}

export async function sliceInThread(
  input: NumberInput,
  options: SlicerOptions,
  onSlice: (slice: NumberSlice) => Promise<void>,
): Promise<SlicerSummary> {
  const ready: NumberSlice[] = [];
  const slicer = new UploadSlicer(options, (slice) => ready.push(slice));
  for await (const chunk of bytesOf(input)) {
    checkBytes(chunk);
    slicer.write(chunk);
    for (const slice of ready.splice(0)) await onSlice(slice);
  }
  const summary = slicer.end();
  for (const slice of ready.splice(0)) await onSlice(slice);
  return summary;
}

export async function sliceInWorker(
  input: NumberInput,
  options: SlicerOptions,
  onSlice: (slice: NumberSlice) => Promise<void>,
): Promise<SlicerSummary> {
  const path = 'path' in input ? input.path : null;
  const worker = new Worker(WORKER_FILE, { workerData: { options, path, credit: CREDIT } satisfies WorkerInput });
  const post = (message: ToSlicer) => worker.postMessage(message);
  const slices: NumberSlice[] = [];
  let summary: SlicerSummary | null = null;
  let failure: unknown = null;
  let finished = false;
  let posted = 0;
  let consumed = 0;
  let waiters: (() => void)[] = [];
  const wake = () => {
    for (const resolve of waiters.splice(0)) resolve();
  };
  const changed = () => new Promise<void>((resolve) => waiters.push(resolve));
  const fail = (error: unknown) => {
    failure ??= error;
    wake();
  };

  worker.on('message', (message: FromSlicer) => {
    if (message.type === 'slice') slices.push(message.slice);
    else if (message.type === 'consumed') consumed += 1;
    else summary = message.summary;
    wake();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (summary === null) fail(new Error(`number upload worker stopped (exit code ${code})`));
  });

  if (path === null) {
    const pump = async () => {
      for await (const chunk of input as AsyncIterable<Uint8Array>) {
        if (finished) return;
        checkBytes(chunk);
        while (!finished && posted - consumed >= READ_AHEAD) await changed();
        if (finished) return;
        post({ type: 'chunk', bytes: chunk });
        posted += 1;
      }
      post({ type: 'end' });
    };
    pump().catch(fail);
  }

  try {
    for (;;) {
      const slice = slices.shift();
      if (slice) {
        await onSlice(slice);
        post({ type: 'inserted' });
        continue;
      }
      if (failure !== null) throw failure;
      if (summary !== null) return summary;
      await changed();
    }
  } finally {
    finished = true;
    wake();
    await worker.terminate();
  }
}

function checkBytes(chunk: unknown): asserts chunk is Uint8Array {
  if (!(chunk instanceof Uint8Array)) throw new TypeError('number files are read as bytes: do not set an encoding on the stream');
}
