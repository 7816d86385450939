// POST /messages checked as the app checks it (fact sheet §1, PostMessageRequest.kt; §9 for a number given
// twice): exactly one content, 1–100 numbers, id ≤ 36, ttl xor validUntil, simNumber 1–3, priority −128..127,
// scheduleAt in the future. The 409 for a duplicate id is the store's, not this file's.

export type SendRequest = {
  id?: string; text: string; isData: boolean; phoneNumbers: string[]; simNumber: number | null;
  withDeliveryReport: boolean; priority: number; validUntil: number | null; scheduleAt: number | null;
};
export type Refusal = { status: 400 | 409; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

export function parseSendRequest(body: unknown, now: number): SendRequest | Refusal {
  if (!isObject(body)) return { status: 400, message: 'Invalid request body' };
  const given = (['textMessage', 'dataMessage', 'message'] as const).filter((k) => body[k] !== undefined && body[k] !== null);
  if (given.length !== 1) return { status: 400, message: 'Exactly one of textMessage, dataMessage or message must be specified' };

  let text: string;
  let isData = false;
  if (given[0] === 'message') {
    if (typeof body.message !== 'string' || body.message === '') return { status: 400, message: 'message must be a non-empty string' };
    text = body.message;
  } else if (given[0] === 'textMessage') {
    const t = body.textMessage;
    if (!isObject(t) || typeof t.text !== 'string' || t.text === '') return { status: 400, message: 'textMessage.text must be a non-empty string' };
    text = t.text;
  } else {
    const d = body.dataMessage;
    if (!isObject(d) || typeof d.data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(d.data)) return { status: 400, message: 'dataMessage.data must be base64' };
    if (!isInt(d.port, 0, 65535)) return { status: 400, message: 'dataMessage.port must be 0..65535' };
    text = d.data;
    isData = true;
  }

  const numbers = body.phoneNumbers;
  if (!Array.isArray(numbers) || numbers.length === 0) return { status: 400, message: 'phoneNumbers must not be empty' };
  if (numbers.length > 100) return { status: 400, message: 'phoneNumbers must hold at most 100 numbers' };
  if (!numbers.every((n) => typeof n === 'string' && n.trim() !== '')) return { status: 400, message: 'phoneNumbers must be strings' };
  if (new Set(numbers).size !== numbers.length) return { status: 409, message: 'Duplicate phone number in phoneNumbers' };

  if (body.id !== undefined && body.id !== null && (typeof body.id !== 'string' || body.id === '' || body.id.length > 36)) {
    return { status: 400, message: 'id must be a string of 1 to 36 characters' };
  }
  if (body.simNumber !== undefined && body.simNumber !== null && !isInt(body.simNumber, 1, 3)) return { status: 400, message: 'simNumber must be 1..3' };
  if (body.priority !== undefined && body.priority !== null && !isInt(body.priority, -128, 127)) return { status: 400, message: 'priority must be -128..127' };
  if (body.withDeliveryReport !== undefined && body.withDeliveryReport !== null && typeof body.withDeliveryReport !== 'boolean') {
    return { status: 400, message: 'withDeliveryReport must be a boolean' };
  }

  const hasTtl = body.ttl !== undefined && body.ttl !== null;
  const hasValidUntil = body.validUntil !== undefined && body.validUntil !== null;
  if (hasTtl && hasValidUntil) return { status: 400, message: 'fields conflict: ttl and validUntil' };
  let validUntil: number | null = null;
  if (hasTtl) {
    if (!isInt(body.ttl, 1, Number.MAX_SAFE_INTEGER)) return { status: 400, message: 'ttl must be a positive number of seconds' };
    validUntil = now + (body.ttl as number) * 1000;
  }
  if (hasValidUntil) {
    validUntil = typeof body.validUntil === 'string' ? Date.parse(body.validUntil) : NaN;
    if (Number.isNaN(validUntil)) return { status: 400, message: 'validUntil must be a date' };
  }
  let scheduleAt: number | null = null;
  if (body.scheduleAt !== undefined && body.scheduleAt !== null) {
    scheduleAt = typeof body.scheduleAt === 'string' ? Date.parse(body.scheduleAt) : NaN;
    if (Number.isNaN(scheduleAt)) return { status: 400, message: 'scheduleAt must be a date' };
    if (scheduleAt <= now) return { status: 400, message: 'scheduleAt must be in the future' };
  }

  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    text, isData, phoneNumbers: numbers as string[],
    simNumber: (body.simNumber as number | undefined) ?? null,
    withDeliveryReport: (body.withDeliveryReport as boolean | undefined) ?? true,
    priority: (body.priority as number | undefined) ?? 0,
    validUntil, scheduleAt,
  };
}

export const isRefusal = (r: SendRequest | Refusal): r is Refusal => 'status' in r;

/** The app checks a number with libphonenumber (mobile only) before sending: here, digits with an optional +, 5 to 15 of them. */
export const plausibleNumber = (n: string) => /^\+?\d{5,15}$/.test(n.replace(/[\s-]/g, ''));
