/** `COPY … TO STDOUT` through pg's client: a submittable that hands each CopyData chunk to `onData`. */
export class CopyOut {
  private readonly text: string;
  private readonly onData: (chunk: Buffer) => void;
  private settle!: { resolve: () => void; reject: (error: unknown) => void };
  private failed: unknown;
  readonly done: Promise<void>;
  constructor(text: string, onData: (chunk: Buffer) => void) {
    this.text = text;
    this.onData = onData;
    this.done = new Promise((resolve, reject) => void (this.settle = { resolve, reject }));
  }
  submit(connection: { query: (text: string) => void }) {
    connection.query(this.text);
  }
  handleCopyData(message: { chunk: Buffer }) {
    this.onData(message.chunk);
  }
  handleCommandComplete() {}
  handleError(error: unknown) {
    this.failed = error;
  }
  handleReadyForQuery() {
    if (this.failed) this.settle.reject(this.failed);
    else this.settle.resolve();
  }
  then(resolve: () => void, reject: (error: unknown) => void) {
    return this.done.then(resolve, reject);
  }
}
