import http from 'node:http';
import https from 'node:https';
import {
  DEVICE_API_PREFIX,
  type DeviceActivateBody, type DeviceActivation, type DeviceDeliveryResult, type DeviceRepliesResult, type DeviceHeartbeatRequest, type DevicePull, type DeviceReportResult, type Envelope,
} from '@huiyun/contract';

// A typed client of the device protocol (docs/device-protocol.md) over node:http. Node's global agent
// keeps connections alive and opens as many per origin as there are calls in flight, so N simulated
// devices hold about N sockets and reuse them. Not fetch: it cost the simulator about twice the CPU per
// call, on the machine the benchmark shares with the server and its database (docs/performance.md).

/** What a device sends in a report; the result reason is optional on the wire. */
export type ReportBody = { batchId: string; results: { id: number; status: 'sent' | 'failed'; reason?: string }[] };
/** `state`: a short note shown in 设备列表 (the phone bridge's 限额已满, 手机无响应). */
export type HeartbeatBody = Partial<Pick<DeviceHeartbeatRequest, 'battery' | 'signal' | 'appVersion' | 'state'>>;
/** Delivery outcomes of numbers this device reported sent (POST /device/v1/delivery); the reason is optional on the wire. */
export type DeliveryBody = { results: { id: number; status: 'delivered' | 'undelivered'; reason?: string }[] };
/** SMS the device's phone received (POST /device/v1/replies); receivedAt epoch ms. */
export type RepliesBody = { replies: { messageId: string; phone: string; content: string; receivedAt: number }[] };

/** A refusal the device must not retry as is (4xx): 400 fix the request, 401 activate again, 403 give up. */
export class DeviceApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Thrown when the caller's signal ends a call (or its backoff) before an answer. */
export class StoppedError extends Error {
  constructor() {
    super('stopped');
  }
}

export type RetryPolicy = { firstDelayMs: number; maxDelayMs: number };
/** The protocol's backoff: 1 s, 2 s, 4 s … at most 60 s, for as long as the server is unreachable or failing. */
export const PROTOCOL_RETRY: RetryPolicy = { firstDelayMs: 1000, maxDelayMs: 60_000 };

export type CallName = 'activate' | 'pull' | 'report' | 'heartbeat' | 'delivery' | 'replies';

export type DeviceClientOptions = {
  retry?: RetryPolicy;
  /** Ends waiting backoffs and in-flight calls (they then throw StoppedError). */
  signal?: AbortSignal;
  /** Each answered call (any status) with its round trip, for latency figures. */
  onAnswer?: (call: CallName, ms: number) => void;
  /** Each network error or 5xx before its backoff. */
  onRetry?: (call: CallName, reason: string) => void;
};

export class DeviceClient {
  readonly baseUrl: string;
  private readonly options: DeviceClientOptions;
  /** The token of the last activation; every other call sends it. */
  token: string | undefined;

  constructor(baseUrl: string, options: DeviceClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.options = options;
  }

  // `giveUp` ends the backoff of a call that has nothing to deliver (a device stopping need not wait
  // for a server that is down); a call in flight is never cut by it, so no answer is thrown away.

  async activate(request: DeviceActivateBody, giveUp?: AbortSignal): Promise<DeviceActivation> {
    const activation = await this.call<DeviceActivation>('activate', request, { withToken: false, giveUp });
    this.token = activation.deviceToken;
    return activation;
  }

  pull(giveUp?: AbortSignal): Promise<DevicePull> {
    return this.call('pull', {}, { giveUp });
  }

  /** Reports are idempotent on the server, so a report is retried until it gets an answer. */
  report(body: ReportBody): Promise<DeviceReportResult> {
    return this.call('report', body);
  }

  /** Delivery reports are idempotent on the server too (a number's outcome counts once), so retried like reports. */
  delivery(body: DeliveryBody): Promise<DeviceDeliveryResult> {
    return this.call('delivery', body);
  }

  heartbeat(body: HeartbeatBody = {}, giveUp?: AbortSignal): Promise<{ serverTime: number }> {
    return this.call('heartbeat', body, { giveUp });
  }

  /** Idempotent per (device, messageId), so retried until answered. */
  replies(body: RepliesBody): Promise<DeviceRepliesResult> {
    return this.call('replies', body);
  }

  private async call<T>(name: CallName, body: unknown, how: { withToken?: boolean; giveUp?: AbortSignal } = {}): Promise<T> {
    const { retry = PROTOCOL_RETRY, signal, onAnswer, onRetry } = this.options;
    const { withToken = true, giveUp } = how;
    const backoffSignal = () => (giveUp && signal ? AbortSignal.any([giveUp, signal]) : (giveUp ?? signal));
    const url = new URL(`${this.baseUrl}${DEVICE_API_PREFIX}/${name}`);
    const payload = JSON.stringify(body);
    for (let delay = retry.firstDelayMs; ; delay = Math.min(delay * 2, retry.maxDelayMs)) {
      if (signal?.aborted) throw new StoppedError();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (withToken && this.token) headers.authorization = `Bearer ${this.token}`;
      const started = performance.now();
      let response: Answer;
      let envelope: Envelope<T> | undefined;
      try {
        response = await post(url, payload, headers, signal);
        envelope = parseJson(response.text) as Envelope<T> | undefined;
      } catch (error) {
        if (signal?.aborted) throw new StoppedError();
        onRetry?.(name, (error as Error).cause ? String((error as Error).cause) : (error as Error).message);
        await pause(delay, backoffSignal());
        continue;
      }
      onAnswer?.(name, performance.now() - started);
      if (response.status >= 500 || !envelope) {
        onRetry?.(name, `HTTP ${response.status}${envelope?.msg ? ` ${envelope.msg}` : ''}`);
        await pause(delay, backoffSignal());
        continue;
      }
      if (response.status >= 300 || !envelope.success) throw new DeviceApiError(response.status, envelope.msg || `HTTP ${response.status}`);
      return envelope.data as T;
    }
  }
}

type Answer = { status: number; text: string };

/** One POST with a JSON body; answers the status and the body's text. A signal that ends destroys the call. */
function post(url: URL, payload: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(payload)) }, signal,
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or throws StoppedError as soon as the signal ends. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new StoppedError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StoppedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
