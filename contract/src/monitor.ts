import { z } from 'zod';
import { common, monitor as m } from './messages.ts';
import { optionalText, pageQuery, typedText } from './fields.ts';
import { LogResult } from './enums.ts';
import { remembered } from './remembered.ts';
import type * as systemAnswers from './responses/system.ts';

// 系统监控: 在线用户, 操作日志 and 登录日志 — their filters, rows and the helpers both sides share.


// Days are Asia/Shanghai days (UTC+8 all year), whatever the server's or browser's own zone.
const SHANGHAI_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Epoch ms of 00:00 Asia/Shanghai on the day 'YYYY-MM-DD'; undefined for anything else. */
export function shanghaiDayStart(day: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, date);
  const back = new Date(utc);
  // 2026-02-30 would roll over to March: not a day.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== date) return undefined;
  return utc - SHANGHAI_OFFSET_MS;
}

/**
 * The instants a day filter covers: from 00:00 of beginDay up to (not including) 24:00 of endDay,
 * Shanghai time. Either end may be open.
 */
export function shanghaiDayRange(beginDay: string, endDay: string): { from?: number; before?: number } {
  const from = beginDay ? shanghaiDayStart(beginDay) : undefined;
  const endStart = endDay ? shanghaiDayStart(endDay) : undefined;
  return { from, before: endStart === undefined ? undefined : endStart + DAY_MS };
}

const dayFilter = z.preprocess(
  (v) => (v == null ? '' : v),
  typedText(m.badDate).trim().refine((v) => v === '' || shanghaiDayStart(v) !== undefined, m.badDate),
);

/** '' (all), 1 (成功) or 0 (失败); form bodies send them as strings. */
const resultFilter = z.preprocess(
  (v) => (v === '' || v == null ? undefined : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.union([z.literal(LogResult.success), z.literal(LogResult.failure)], { error: common.badParameter }).optional(),
);

const dateOrderOk = (q: { beginTime: string; endTime: string }) => !q.beginTime || !q.endTime || q.beginTime <= q.endTime;

// operLogModules (the 模块 choices of 操作日志) are in operLogModules.ts, away from this file's zod schemas.

export const operLogListQuery = pageQuery
  .extend({
    userName: optionalText(64),
    /** Equality: one of operLogModules (any other text finds nothing). */
    module: optionalText(64),
    success: resultFilter,
    beginTime: dayFilter,
    endTime: dayFilter,
  })
  .refine(dateOrderOk, { message: m.dateOrder, path: ['endTime'] });
export type OperLogListQuery = z.infer<typeof operLogListQuery>;

export const loginLogListQuery = pageQuery
  .extend({
    userName: optionalText(64),
    ip: optionalText(64),
    success: resultFilter,
    beginTime: dayFilter,
    endTime: dayFilter,
  })
  .refine(dateOrderOk, { message: m.dateOrder, path: ['endTime'] });
export type LoginLogListQuery = z.infer<typeof loginLogListQuery>;

export const onlineListQuery = pageQuery.extend({
  userName: optionalText(64),
  ip: optionalText(64),
});
export type OnlineListQuery = z.infer<typeof onlineListQuery>;

export const forceLogoutRequest = z.object({
  sessionId: typedText(m.sessionIdRequired, { invalid: m.sessionGone }).trim().min(1, m.sessionIdRequired).regex(/^[0-9a-f]{64}$/, m.sessionGone),
});

export const operLogSortFields = ['operTime', 'userName', 'module', 'action', 'costMs'] as const;
export const loginLogSortFields = ['loginTime', 'userName', 'ip'] as const;
export const onlineSortFields = ['userName', 'ip', 'loginTime', 'lastSeenAt'] as const;
export type OnlineSortField = (typeof onlineSortFields)[number];

export type OperLog = z.output<typeof systemAnswers.operLogRow>;

export type LoginLog = z.output<typeof systemAnswers.loginLogRow>;

export type OnlineSession = z.output<typeof systemAnswers.onlineSession>;

const browsers: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/HeadlessChrome\/(\d+)/, 'HeadlessChrome'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  [/(?:MSIE |Trident\/.*rv:)(\d+)/, 'IE'],
];

const systems: [RegExp, (v: string) => string][] = [
  [/Windows NT 10\.0/, () => 'Windows 10'],
  [/Windows NT 6\.3/, () => 'Windows 8.1'],
  [/Windows NT 6\.2/, () => 'Windows 8'],
  [/Windows NT 6\.1/, () => 'Windows 7'],
  [/Windows/, () => 'Windows'],
  [/(?:iPhone|iPad|iPod).*? OS (\d+)/, (v) => `iOS ${v}`],
  [/Mac OS X/, () => 'macOS'],
  [/Android (\d+)/, (v) => `Android ${v}`],
  [/CrOS/, () => 'ChromeOS'],
  [/Linux/, () => 'Linux'],
];

/** A readable short form of a User-Agent header: 'Chrome 120 / Windows 10', 'curl 8', or 未知. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').trim();
  return ua ? describeRemembered(ua) : m.unknownClient;
}

/**
 * The short forms of the last 256 User-Agents described: a log holds a few distinct ones in millions of
 * rows, and each 登录日志 row is described (the regexes were 1.3 % of the server's time serving its pages).
 */
const describeRemembered = remembered(256, (ua: string) => describe(ua));

function describe(ua: string): string {
  let browser = '';
  for (const [pattern, name] of browsers) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  let system = '';
  for (const [pattern, name] of systems) {
    const match = pattern.exec(ua);
    if (match) {
      system = name(match[1] ?? '');
      break;
    }
  }
  if (!browser && !system) {
    // A tool such as curl/8.5.0 or okhttp/4.12: its name and major version.
    const tool = /^([A-Za-z][\w.-]*)\/(\d+)/.exec(ua);
    return tool ? `${tool[1]} ${tool[2]}` : ua.slice(0, 40);
  }
  return [browser, system].filter(Boolean).join(' / ');
}
