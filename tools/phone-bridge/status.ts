// What one phone SIM's device did, updated live, and its one-line status and summary: plain
// functions of the numbers, so they are tested alone.

export type Phase = 'starting' | 'settling' | 'sending' | 'waiting' | 'phoneDown' | 'limited' | 'refused' | 'stopped';

export type PhoneStats = {
  name: string;
  machineCode: string;
  phase: Phase;
  /** The server's wait message, the phone's trouble, or what the device is doing. */
  note: string;
  batches: number;
  /** POST /messages accepted (202), and answered 409 (already known: its state was asked instead). */
  posted: number;
  duplicates: number;
  /** Refused by the phone (400): reported failed. */
  refused: number;
  sent: number;
  failed: number;
  delivered: number;
  undelivered: number;
  /** Messages cancelled in the phone because their lease was ending. */
  cancelled: number;
  replies: number;
  /** What the server answered it ignored (repeats, numbers taken by another device after the lease). */
  ignored: number;
  /** Messages still in the phone. */
  inPhone: number;
  lastError: string;
};

export function newPhoneStats(name: string): PhoneStats {
  return {
    name, machineCode: '', phase: 'starting', note: '', batches: 0, posted: 0, duplicates: 0, refused: 0, sent: 0, failed: 0,
    delivered: 0, undelivered: 0, cancelled: 0, replies: 0, ignored: 0, inPhone: 0, lastError: '',
  };
}

const PHASE_LABEL: Record<Phase, string> = {
  starting: '连接中', settling: '核对上次未完成', sending: '发送中', waiting: '等待', phoneDown: '手机无响应', limited: '限额已满', refused: '激活失败', stopped: '已停止',
};

export function formatStatus(s: PhoneStats): string {
  const parts = [
    `${s.name} [${PHASE_LABEL[s.phase]}${s.note ? `: ${s.note}` : ''}]`,
    `sent ${s.sent}`, `failed ${s.failed}`, `delivered ${s.delivered}`, `undelivered ${s.undelivered}`,
    `in phone ${s.inPhone}`, `replies ${s.replies}`, `batches ${s.batches}`,
  ];
  if (s.duplicates) parts.push(`409 ${s.duplicates}`);
  if (s.cancelled) parts.push(`cancelled ${s.cancelled}`);
  if (s.lastError) parts.push(`last error: ${s.lastError}`);
  return parts.join(' · ');
}

export function formatSummary(all: PhoneStats[], seconds: number): string {
  const sum = (key: keyof PhoneStats) => all.reduce((a, s) => a + (s[key] as number), 0);
  const lines = [
    `Ran ${seconds.toFixed(0)} s with ${all.length} phone SIM(s):`,
    ...all.map((s) => `  ${s.name} (${s.machineCode || 'not activated'}): sent ${s.sent}, failed ${s.failed}, delivered ${s.delivered}, `
      + `undelivered ${s.undelivered}, replies ${s.replies}, batches ${s.batches}, 409 ${s.duplicates}, cancelled ${s.cancelled}, left in phone ${s.inPhone}`
      + `${s.lastError ? `; last error: ${s.lastError}` : ''}`),
    `  total: sent ${sum('sent')}, failed ${sum('failed')}, delivered ${sum('delivered')}, undelivered ${sum('undelivered')}, replies ${sum('replies')}`,
  ];
  return lines.join('\n');
}
