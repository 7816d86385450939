// GET|PATCH /settings (fact sheet §3, MessagesSettings.kt): snake_case sections, merged by PATCH (there is no
// PUT). The fake acts on messages.processing_order (LIFO by default, as the app), limit_period/limit_value,
// send_interval_min/_max and webhooks.signing_key; other keys are kept and answered back.

export const LIMIT_PERIODS = { Disabled: 0, PerMinute: 60_000, Per30Minutes: 1_800_000, PerHour: 3_600_000, PerDay: 86_400_000 } as const;
export type LimitPeriod = keyof typeof LIMIT_PERIODS;

export type PhoneSettings = {
  messages: {
    processing_order: 'FIFO' | 'LIFO'; limit_period: LimitPeriod; limit_value: number | null;
    send_interval_min: number | null; send_interval_max: number | null; sim_selection_mode: string; log_lifetime_days: number | null;
    [key: string]: unknown;
  };
  webhooks: { internet_required: boolean; retry_count: number; signing_key: string; [key: string]: unknown };
  [section: string]: Record<string, unknown>;
};

export const defaultSettings = (signingKey: string, retryCount: number): PhoneSettings => ({
  messages: {
    processing_order: 'LIFO', limit_period: 'Disabled', limit_value: null,
    send_interval_min: null, send_interval_max: null, sim_selection_mode: 'OSDefault', log_lifetime_days: null,
  },
  webhooks: { internet_required: true, retry_count: retryCount, signing_key: signingKey },
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalCount = (v: unknown) => v === undefined || v === null || (Number.isInteger(v) && (v as number) >= 0);

/** Applies a PATCH body; answers an error message (400) and changes nothing when a known key has a wrong value. */
export function patchSettings(settings: PhoneSettings, body: unknown): string | undefined {
  if (!isObject(body) || !Object.values(body).every(isObject)) return 'settings must be an object of sections';
  const m = (body.messages ?? {}) as Record<string, unknown>;
  if (m.processing_order !== undefined && m.processing_order !== 'FIFO' && m.processing_order !== 'LIFO') return 'messages.processing_order must be FIFO or LIFO';
  if (m.limit_period !== undefined && !(typeof m.limit_period === 'string' && m.limit_period in LIMIT_PERIODS)) return `messages.limit_period must be one of ${Object.keys(LIMIT_PERIODS).join(', ')}`;
  for (const key of ['limit_value', 'send_interval_min', 'send_interval_max', 'log_lifetime_days']) {
    if (!optionalCount(m[key])) return `messages.${key} must be a whole number ≥ 0`;
  }
  const w = (body.webhooks ?? {}) as Record<string, unknown>;
  if (w.retry_count !== undefined && !(Number.isInteger(w.retry_count) && (w.retry_count as number) >= 0)) return 'webhooks.retry_count must be a whole number ≥ 0';
  if (w.signing_key !== undefined && (typeof w.signing_key !== 'string' || w.signing_key === '')) return 'webhooks.signing_key must be a non-empty string';
  for (const [section, values] of Object.entries(body)) settings[section] = { ...(settings[section] ?? {}), ...(values as Record<string, unknown>) };
  return undefined;
}

/** What GET /settings answers: the signing key is a secret and is not read back. */
export const settingsJson = (s: PhoneSettings) => ({ ...s, webhooks: { ...s.webhooks, signing_key: undefined } });
