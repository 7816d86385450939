// The one API client: token header, the answer envelope, the session-expiry rule (SPEC §4).
import { messages, type Envelope, type Page } from '@huiyun/contract';
import { getToken } from '../shared/session.ts';

export class ApiError extends Error {
  /** HTTP status, 0 when the server could not be reached or did not answer JSON. */
  readonly status: number;
  /** True when the client already told the user (session expiry); screens then stay silent. */
  readonly handled: boolean;
  constructor(message: string, status: number, handled = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.handled = handled;
  }
}

type SessionExpiredHandler = (serverMessage: string) => void;
let onSessionExpired: SessionExpiredHandler | null = null;

/** The layout registers what happens when the server says the session is gone (HTTP 401). */
export function setSessionExpiredHandler(handler: SessionExpiredHandler | null): void {
  onSessionExpired = handler;
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** The screen's failure text for network errors / non-JSON answers (SPEC §8). */
  failText?: string;
  /** Login answers 401 for bad credentials: never treat that as an expired session. */
  skipSessionExpiry?: boolean;
};

/** A success envelope's data, total and text; `totalBounded` when a list's count stopped at a bound; a full list page's `next`. */
export type Answer<T> = { data: T; total: number; msg: string; totalBounded?: true; next?: string };

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, query } = options;
  const failText = options.failText ?? messages.common.serverBusy;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.token = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  let envelope: unknown;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    envelope = await response.json();
  } catch {
    throw new ApiError(failText, 0);
  }
  return readEnvelope<T>(response.status, envelope, { failText, token, skipSessionExpiry: options.skipSessionExpiry });
}

/** A page of a list screen (ListPage's fetcher): the rows, the total, and the flag of a bounded count (共 1,000+ 条). */
export async function requestPage<Row>(path: string, options: RequestOptions): Promise<Page<Row>> {
  const answer = await request<Row[]>(path, options);
  const page: Page<Row> = { data: answer.data ?? [], total: answer.total };
  if (answer.totalBounded) page.totalBounded = true;
  if (answer.next) page.next = answer.next;
  return page;
}

type ReadContext = {
  failText: string;
  /** The token the call was sent with: a 401 ends the session only when there was one. */
  token: string | null;
  skipSessionExpiry?: boolean;
};

/**
 * The one reader of an answer envelope, for request(), download() and uploadFile() alike: a non-envelope
 * is the screen's failure text; HTTP 401 is the session-expiry rule (SPEC §4: tell once, log out);
 * success false is the server's text (or the screen's). Answers the data of a success envelope.
 */
export function readEnvelope<T>(status: number, envelope: unknown, context: ReadContext): Answer<T> {
  if (!isEnvelope<T>(envelope)) throw new ApiError(context.failText, status);
  const text = envelope.msg || envelope.errorInfo || '';
  if (status === 401 && !context.skipSessionExpiry) {
    const handled = onSessionExpired !== null && context.token !== null;
    if (handled) onSessionExpired?.(text || messages.common.sessionExpired);
    throw new ApiError(text || messages.common.sessionExpired, 401, handled);
  }
  if (!envelope.success) throw new ApiError(text || context.failText, status);
  const answer: Answer<T> = { data: envelope.data as T, total: envelope.total ?? 0, msg: text };
  if (envelope.totalBounded) answer.totalBounded = true;
  if (typeof envelope.next === 'string') answer.next = envelope.next;
  return answer;
}

function isEnvelope<T>(value: unknown): value is Envelope<T> {
  return typeof value === 'object' && value !== null && typeof (value as Envelope<T>).success === 'boolean';
}

/** The text to show for a failed call, or null when the client already told the user. */
export function errorText(error: unknown, fallback: string): string | null {
  if (error instanceof ApiError) return error.handled ? null : error.message;
  return fallback;
}

/** The file name a Content-Disposition header gives (RFC 5987 filename* first). */
function fileNameOf(disposition: string | null, fallback: string): string {
  const encoded = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return disposition?.match(/filename="?([^";]+)"?/i)?.[1] ?? fallback;
}

/**
 * Posts the body and saves the answer as a file (exports). A JSON answer is a refusal envelope:
 * it is treated exactly like request()'s (messages, session expiry).
 */
export async function download(path: string, options: RequestOptions & { fileName: string }): Promise<void> {
  const failText = options.failText ?? messages.common.serverBusy;
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { ...(token ? { token } : {}), 'Content-Type': 'application/json' },
      body: JSON.stringify(options.body ?? {}),
    });
  } catch {
    throw new ApiError(failText, 0);
  }
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    // A file never comes as JSON: this is a refusal (or, oddly, a success without a file).
    const envelope: unknown = await response.json().catch(() => null);
    const answer = readEnvelope(response.status, envelope, { failText, token });
    throw new ApiError(answer.msg || failText, response.status);
  }
  if (!response.ok) throw new ApiError(failText, response.status);
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileNameOf(response.headers.get('content-disposition'), options.fileName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
