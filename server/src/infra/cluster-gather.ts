import cluster, { type Worker } from 'node:cluster';

// One answer from every server process (SERVER_WORKERS, main.ts): a process asks the primary over IPC, the
// primary asks each process that listens, and hands the answers back — so whichever process a scrape or a
// snapshot reaches answers for all of them. A topic is what each process answers (its metrics, its figures);
// each registers its own at start (before it listens). Outside a cluster the one process answers alone.
//
// worker → primary  { huiyun: 'gather', id, topic }
// primary → each    { huiyun: 'collect', id, topic }        each → primary { huiyun: 'collected', id, answer | error }
// primary → worker  { huiyun: 'gathered', id, topic, answers }   (ids are a topic's own)

/** How long the primary waits for the processes' answers; one that is late is left out of this answer. */
const COLLECT_MS = 2_000;
/** How long a process waits for the primary; past it, it answers for itself alone. */
const GATHER_MS = 3_000;

type Message =
  | { huiyun: 'gather'; id: number; topic: string }
  | { huiyun: 'collect'; id: number; topic: string }
  | { huiyun: 'collected'; id: number; answer?: unknown; error?: string }
  | { huiyun: 'gathered'; id: number; topic: string; answers: unknown[] };

const isMessage = (value: unknown): value is Message => typeof value === 'object' && value !== null && typeof (value as { huiyun?: unknown }).huiyun === 'string';

export type Gathering<T> = {
  /** Every process's answer (this one's included), in no particular order. */
  all: () => Promise<T[]>;
  stop: () => void;
};

/** What this process answers on `topic`, and how it asks all processes for theirs. */
export function clusterGathering<T>(topic: string, answer: () => Promise<T>): Gathering<T> {
  if (!cluster.isWorker) return { all: async () => [await answer()], stop: () => {} };
  let nextId = 0;
  const waiting = new Map<number, (answers: unknown[]) => void>();
  const onMessage = (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.huiyun === 'collect' && message.topic === topic) {
      answer().then(
        (value) => process.send?.({ huiyun: 'collected', id: message.id, answer: value } satisfies Message),
        (error: unknown) => process.send?.({ huiyun: 'collected', id: message.id, error: String(error) } satisfies Message),
      );
    } else if (message.huiyun === 'gathered' && message.topic === topic) {
      waiting.get(message.id)?.(message.answers);
    }
  };
  process.on('message', onMessage);
  return {
    all: () => new Promise<T[]>((resolve) => {
      const id = nextId++;
      const alone = setTimeout(() => {
        waiting.delete(id);
        void answer().then((value) => resolve([value]), () => resolve([]));
      }, GATHER_MS);
      waiting.set(id, (answers) => {
        clearTimeout(alone);
        waiting.delete(id);
        resolve(answers as T[]);
      });
      process.send?.({ huiyun: 'gather', id, topic } satisfies Message);
    }),
    stop: () => void process.off('message', onMessage),
  };
}

/** The primary's side (main.ts): answers each process's gather from every process that listens. */
export function serveGatherings(): void {
  const listening = new Set<number>();
  cluster.on('listening', (worker) => listening.add(worker.id));
  cluster.on('exit', (worker) => listening.delete(worker.id));
  let nextId = 0;
  const collecting = new Map<number, (worker: Worker, message: Extract<Message, { huiyun: 'collected' }>) => void>();
  cluster.on('message', (from, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.huiyun === 'collected') return collecting.get(message.id)?.(from, message);
    if (message.huiyun !== 'gather') return;
    const id = nextId++;
    const asked = [...listening].map((workerId) => cluster.workers?.[workerId]).filter((w): w is Worker => !!w?.isConnected());
    const answers: unknown[] = [];
    let pending = asked.length;
    const reply = () => {
      clearTimeout(late);
      collecting.delete(id);
      if (from.isConnected()) from.send({ huiyun: 'gathered', id: message.id, topic: message.topic, answers } satisfies Message);
    };
    const late = setTimeout(reply, COLLECT_MS);
    collecting.set(id, (_worker, collected) => {
      if (collected.error === undefined) answers.push(collected.answer);
      if (--pending === 0) reply();
    });
    for (const worker of asked) worker.send({ huiyun: 'collect', id, topic: message.topic } satisfies Message);
    if (pending === 0) reply();
  });
}
