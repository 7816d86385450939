// Worker-thread entry of a number upload (started by upload-slicing.ts): an UploadSlicer over the
// stored file it reads itself, or over the chunks the main thread posts (each answered with
// 'consumed'). Slices are posted as they fill, at most `credit` of them ahead of the inserts the main
// thread reports ('inserted'); then the summary. A thrown error ends the worker and reaches the main
// thread as its 'error' event.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { UploadSlicer } from './upload-slices.ts';
import { READ_BYTES, type FromSlicer, type ToSlicer, type WorkerInput } from './upload-slicing.ts';

const { options, path, credit } = workerData as WorkerInput;
const port = parentPort!;
const post = (message: FromSlicer) => port.postMessage(message);

let ahead = 0; // slices posted and not yet inserted
let onInserted: (() => void) | null = null;
const slicer = new UploadSlicer(options, (slice) => {
  ahead += 1;
  port.postMessage({ type: 'slice', slice } satisfies FromSlicer, [slice.list.buffer as ArrayBuffer]);
});

port.on('message', (message: ToSlicer) => {
  if (message.type === 'inserted') {
    ahead -= 1;
    onInserted?.();
  } else if (message.type === 'chunk') {
    slicer.write(message.bytes);
    post({ type: 'consumed' });
  } else {
    post({ type: 'done', summary: slicer.end() }); // the main thread then ends this worker
  }
});

if (path !== null) {
  for await (const chunk of fs.createReadStream(path, { highWaterMark: READ_BYTES })) {
    slicer.write(chunk as Buffer);
    while (ahead >= credit) await new Promise<void>((resolve) => (onInserted = resolve));
  }
  post({ type: 'done', summary: slicer.end() });
}
