// A typed client of SMSGate's Local Server API on one phone (../shared/data/sms-devices.md §1), over
// Node's built-in fetch. Not the npm `android-sms-gateway` client: its types lag the app (its Message
// has no textMessage, its settings are camelCase where the phone speaks snake_case, its failed payload
// names `error` where the phone sends `reason`), two of its methods call routes the phone does not
// have, and it needs a hand-written HTTP adapter anyway — so it would save nothing but add wrong types.

export type SmsState = 'Pending' | 'Processed' | 'Sent' | 'Delivered' | 'Failed' | 'Cancelling' | 'Cancelled';

export type SmsRecipient = { phoneNumber: string; state: SmsState; error?: string | null };
export type SmsMessage = {
  id: string;
  deviceId?: string;
  state: SmsState;
  recipients: SmsRecipient[];
  /** Each state reached, with its time. */
  states?: Partial<Record<SmsState, string>>;
};
export type PhoneDevice = { id: string; name: string; simCards?: { simNumber: number; phoneNumber?: string; carrierName?: string }[] };
export type InboxEntry = { id: string; type?: string; sender: string; contentPreview: string; createdAt: string };
export type SendRequest = { id: string; text: string; phone: string; simNumber: number };
export type WebhookEvent = 'sms:sent' | 'sms:delivered' | 'sms:failed' | 'sms:received';

/** The phone answered, but not as asked (4xx other than what a caller handles, 5xx). */
export class PhoneError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The phone did not answer at all (refused, unreachable, timed out). */
export class PhoneUnreachable extends Error {}

export type PhoneConnection = { url: string; user: string; password: string };

/** Each call gives up after this long: a phone on Wi-Fi that does not answer in 10 s counts as not answering. */
const TIMEOUT_MS = 10_000;

export class SmsGateClient {
  readonly url: string;
  private readonly authorization: string;

  constructor(connection: PhoneConnection) {
    this.url = connection.url.replace(/\/+$/, '');
    this.authorization = `Basic ${Buffer.from(`${connection.user}:${connection.password}`).toString('base64')}`;
  }

  /**
   * Whether the phone answers GET /health at all — a 500 ("fail": only failed sends lately) is a sick phone,
   * not a dead one — and its battery level when the answer names one (check `battery:level`).
   */
  async health(): Promise<{ up: boolean; battery?: number }> {
    try {
      const response = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      const text = await response.text();
      return { up: true, battery: batteryOf(text) };
    } catch {
      return { up: false };
    }
  }

  async device(): Promise<PhoneDevice> {
    const answer = await this.call<PhoneDevice[] | PhoneDevice>('GET', '/device');
    const first = Array.isArray(answer) ? answer[0] : answer;
    if (!first?.id) throw new PhoneError(200, 'GET /device answered no device id');
    return first;
  }

  /** Sends one text to one number under our id. Answers the message, or `duplicate` when the id is known (409). */
  async send(request: SendRequest): Promise<{ message: SmsMessage } | { duplicate: true } | { refused: string }> {
    const body = {
      id: request.id, textMessage: { text: request.text }, phoneNumbers: [request.phone], simNumber: request.simNumber, withDeliveryReport: true,
    };
    const { status, data } = await this.request('POST', '/messages', body);
    if (status === 409) return { duplicate: true };
    // 400: the phone refused this message (an invalid number, a text it cannot send): a failed number, not a broken bridge.
    if (status === 400) return { refused: messageOf(data) || 'HTTP 400' };
    if (status >= 300) throw new PhoneError(status, `POST /messages: ${messageOf(data) || `HTTP ${status}`}`);
    return { message: data as SmsMessage };
  }

  /** The message's state, or null when the phone does not know the id (404). */
  async message(id: string): Promise<SmsMessage | null> {
    const { status, data } = await this.request('GET', `/messages/${encodeURIComponent(id)}`);
    if (status === 404) return null;
    if (status >= 300) throw new PhoneError(status, `GET /messages/${id}: ${messageOf(data) || `HTTP ${status}`}`);
    return data as SmsMessage;
  }

  /** Cancels a message still Pending; true when the phone accepted the cancel. */
  async cancel(id: string): Promise<boolean> {
    const { status } = await this.request('DELETE', `/messages/${encodeURIComponent(id)}`);
    return status < 300;
  }

  async inbox(): Promise<InboxEntry[]> {
    return this.call<InboxEntry[]>('GET', '/inbox');
  }

  async patchSettings(settings: unknown): Promise<void> {
    await this.call('PATCH', '/settings', settings);
  }

  async settings(): Promise<Record<string, unknown>> {
    return this.call<Record<string, unknown>>('GET', '/settings');
  }

  /** Registers (or replaces, same id) one webhook. */
  async registerWebhook(id: string, url: string, event: WebhookEvent): Promise<void> {
    await this.call('POST', '/webhooks', { id, url, event });
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { status, data } = await this.request(method, path, body);
    if (status >= 300) throw new PhoneError(status, `${method} ${path}: ${messageOf(data) || `HTTP ${status}`}`);
    return data as T;
  }

  private async request(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        method,
        headers: { authorization: this.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as Error).cause ? String((error as Error).cause) : (error as Error).message;
      throw new PhoneUnreachable(`${method} ${this.url}${path}: ${cause}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401) throw new PhoneError(401, `${method} ${path}: the phone refused the user name or password (401)`);
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = text;
    }
    return { status: response.status, data };
  }
}

function messageOf(data: unknown): string {
  if (typeof data === 'string') return data.slice(0, 200);
  if (data && typeof data === 'object' && 'message' in data) return String((data as { message: unknown }).message).slice(0, 200);
  return '';
}

function batteryOf(text: string): number | undefined {
  try {
    const level = (JSON.parse(text) as { checks?: Record<string, { observedValue?: unknown }> }).checks?.['battery:level']?.observedValue;
    return typeof level === 'number' && level >= 0 && level <= 100 ? Math.round(level) : undefined;
  } catch {
    return undefined;
  }
}
