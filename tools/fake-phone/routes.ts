import { randomBytes, timingSafeEqual } from 'node:crypto';
import { messageJson, messageState, STATES, type MessageStore, type State } from './messages.ts';
import type { PhoneBooks } from './books.ts';
import type { SendingLoop } from './engine.ts';
import type { Answer, Handler, Request } from './server.ts';
import { patchSettings, settingsJson, type PhoneSettings } from './settings.ts';
import { smsParts } from './sms-parts.ts';
import { isRefusal, parseSendRequest } from './validate.ts';
import { allowedWebhookUrl, EVENTS, type Webhooks, type WebhookEvent } from './webhooks.ts';

// The Local Server API's routes the fake answers (fact sheet §1, §8): Basic auth on everything but /health;
// errors as {message}; `/message` and `/webhook` are aliases of the plural paths. /__fake/… is not the app's:
// the fake's controls for a test or bench that runs the fakes in another process (controls.ts).

export type InboxEntry = { id: string; type: 'SMS'; sender: string; contentPreview: string; createdAt: string };

export type RouteParts = {
  user: string; password: string; deviceId: string; name: string; version: string;
  sims: { simNumber: number; phoneNumber: string; carrierName: string }[];
  store: MessageStore; books: PhoneBooks; settings: PhoneSettings; loop: SendingLoop; webhooks: Webhooks; inbox: InboxEntry[];
  /** the fake's own controls under /__fake/ (controls.ts), behind the same auth */
  controls: Handler;
};

const json = (status: number, data: unknown, headers: Record<string, string> = {}): Answer => ({
  status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(data),
});
const error = (status: number, message: string) => json(status, { message });

/** A path's id, decoded (a malformed escape is taken as written: it names no message). */
const pathId = (raw: string) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

export const newId = () => randomBytes(16).toString('base64url').slice(0, 21);

export function phoneRoutes(p: RouteParts): Handler {
  const expected = Buffer.from(`Basic ${Buffer.from(`${p.user}:${p.password}`).toString('base64')}`);
  const authorized = (r: Request) => {
    const given = Buffer.from(r.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  return (r) => {
    const path = r.path.replace(/\/+$/, '').replace(/^\/message(?=\/|$)/, '/messages').replace(/^\/webhook(?=\/|$)/, '/webhooks') || '/';
    if (path === '/health' && r.method === 'GET') return health(p);
    if (!authorized(r)) return { ...error(401, 'Unauthorized'), headers: { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="SMSGate"' } };
    if (path.startsWith('/__fake/')) return p.controls({ ...r, path });
    const body = () => {
      try {
        return JSON.parse(r.text) as unknown;
      } catch {
        return undefined;
      }
    };
    const id = /^\/(messages|webhooks)\/([^/]+)$/.exec(path);
    const route = `${r.method} ${id ? `/${id[1]}/:id` : path}`;
    switch (route) {
      case 'GET /device':
        return json(200, [{ id: p.deviceId, name: p.name, simCards: p.sims }]);
      case 'GET /settings':
        return json(200, settingsJson(p.settings));
      case 'PATCH /settings': {
        const refused = patchSettings(p.settings, body());
        return refused ? error(400, refused) : json(200, settingsJson(p.settings));
      }
      case 'POST /messages':
        return postMessage(p, body(), r.query.get('skipPhoneValidation') === 'true');
      case 'GET /messages':
        return listMessages(p, r.query);
      case 'GET /messages/:id': {
        const m = p.store.get(pathId(id![2]!));
        return m ? json(200, messageJson(m)) : error(404, 'Message not found');
      }
      case 'DELETE /messages/:id': {
        const m = p.store.get(pathId(id![2]!));
        if (!m) return error(404, 'Message not found');
        if (messageState(m.recipients) !== 'Pending') return error(409, 'Only a Pending message can be cancelled');
        p.store.setState(m, null, 'Cancelled');
        return { status: 204 };
      }
      case 'GET /inbox':
        return page(p.inbox.slice().reverse(), r.query);
      case 'GET /webhooks':
        return json(200, [...p.webhooks.registrations.values()]);
      case 'POST /webhooks':
        return postWebhook(p, body());
      case 'DELETE /webhooks/:id':
        p.webhooks.registrations.delete(pathId(id![2]!));
        return { status: 204 };
      default:
        return error(404, 'Not found');
    }
  };
}

/** MessagesService.healthCheck: fail when the last hour holds failed sends and nothing else, warn when it holds some. */
function health(p: RouteParts): Answer {
  const since = Date.now() - 3_600_000;
  const recent = p.books.sends.filter((s) => s.at >= since);
  const failed = recent.filter((s) => s.state === 'Failed').length;
  const status = failed > 0 && failed === recent.length ? 'fail' : failed > 0 ? 'warn' : 'pass';
  return json(status === 'fail' ? 500 : 200, {
    status, version: p.version, releaseId: 1,
    checks: { 'messages:failed': { status, observedValue: failed, observedUnit: 'messages', description: 'Failed messages for last hour' } },
  });
}

function postMessage(p: RouteParts, body: unknown, skipPhoneValidation: boolean): Answer {
  const now = Date.now();
  const request = parseSendRequest(body, now);
  if (isRefusal(request)) {
    if (request.status === 409) p.books.conflicts++;
    return error(request.status, request.message);
  }
  if (request.id !== undefined && p.store.has(request.id)) {
    p.books.conflicts++;
    return error(409, `Message with id ${request.id} already exists`);
  }
  const m = p.store.add({
    id: request.id ?? newId(), deviceId: p.deviceId, text: request.text, isData: request.isData,
    parts: request.isData ? [request.text] : smsParts(request.text),
    simNumber: request.simNumber, withDeliveryReport: request.withDeliveryReport, priority: request.priority, skipPhoneValidation,
    validUntil: request.validUntil, scheduleAt: request.scheduleAt, createdAt: now,
    recipients: request.phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Pending' as const, error: null })),
  });
  p.books.accepted++;
  // a new request wakes the sending loop (and cuts its interval short: §9)
  setImmediate(() => p.loop.kick());
  return json(202, messageJson(m));
}

function listMessages(p: RouteParts, q: URLSearchParams): Answer {
  const state = q.get('state');
  if (state !== null && !STATES.includes(state as State)) return error(400, `state must be one of ${STATES.join(', ')}`);
  const date = (name: string) => (q.get(name) === null ? undefined : Date.parse(q.get(name)!));
  const from = date('from');
  const to = date('to');
  if (Number.isNaN(from) || Number.isNaN(to)) return error(400, 'from and to must be dates');
  return page(p.store.list({ ...(state ? { state: state as State } : {}), from, to }).map(messageJson), q);
}

function page<T>(items: T[], q: URLSearchParams): Answer {
  const limit = q.get('limit') === null ? 50 : Number(q.get('limit'));
  const offset = q.get('offset') === null ? 0 : Number(q.get('offset'));
  if (!Number.isInteger(limit) || limit < 1 || limit > 500 || !Number.isInteger(offset) || offset < 0) return error(400, 'limit must be 1..500 and offset ≥ 0');
  return json(200, items.slice(offset, offset + limit), { 'x-total-count': String(items.length) });
}

function postWebhook(p: RouteParts, body: unknown): Answer {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.url !== 'string' || !allowedWebhookUrl(b.url)) return error(400, 'url must be https:// or http://127.0.0.1');
  if (typeof b.event !== 'string' || !EVENTS.includes(b.event as WebhookEvent)) return error(400, `event must be one of ${EVENTS.join(', ')}`);
  if (b.id !== undefined && b.id !== null && (typeof b.id !== 'string' || b.id === '' || b.id.length > 36)) return error(400, 'id must be a string of 1 to 36 characters');
  const registration = p.webhooks.register({ id: typeof b.id === 'string' ? b.id : newId(), url: b.url, event: b.event as WebhookEvent, deviceId: p.deviceId });
  return json(201, registration);
}
