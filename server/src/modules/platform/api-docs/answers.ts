import type { z } from 'zod';

// What a route answers, as route-docs.ts names it: the envelope with the contract's data schema, a list
// page of the contract's row schema, the envelope with its message alone, or something not JSON (a file,
// a page, a gateway's own reply). openapi.ts turns it into the operation's responses.

export type Answer =
  | { kind: 'data'; schema: z.ZodType }
  | { kind: 'items'; item: z.ZodType }
  | { kind: 'list'; row: z.ZodType }
  | { kind: 'message' }
  | { kind: 'other'; contentType: string; description: string };

/** `{ success, msg, errorInfo, data }`: data is the schema. */
export const data = (schema: z.ZodType): Answer => ({ kind: 'data', schema });
/** `{ success, msg, errorInfo, data: item[] }`: every item at once (choices, a tree), no paging. */
export const items = (item: z.ZodType): Answer => ({ kind: 'items', item });
/** `{ success, msg, errorInfo, data: row[], total, totalBounded?, next? }`: a list page. */
export const list = (row: z.ZodType): Answer => ({ kind: 'list', row });
/** `{ success, msg, errorInfo }`: the message says what was done. */
export const message: Answer = { kind: 'message' };
export const other = (contentType: string, description: string): Answer => ({ kind: 'other', contentType, description });

/** A list screen's 导出: the rows of the same filters as an Excel sheet. */
export const xlsx = other('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '导出的 Excel 文件（与列表相同的筛选条件）');
/** A stored file, sent as it was stored (its own type). */
export const storedFile = other('application/octet-stream', '存储的文件原样返回（Content-Type 按文件类型）');
/** 导出号码 of a task: one number a line. */
export const numbersText = other('text/plain', '任务号码的文本文件，每行一个号码');
export const html = other('text/html', 'HTML 页面');
export const gatewayAck = other('text/plain', '按该支付网关要求的格式应答（成功 / 失败的确认文本或 JSON）');

/** The refusals a route may answer beyond those derived from its access and input (openapi.ts refusalsOf). */
export type Refusal = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 503;

/** Each refusal's meaning; all answer the Failure envelope with the Chinese message. */
export const refusalTexts: Record<Refusal, string> = {
  400: '请求有误：msg 说明哪个字段或哪条业务规则（中文），不要原样重试',
  401: '未登录或会话已过期；设备：令牌无效或授权码已失效；终端：签名校验失败',
  403: '没有该操作的权限（或该文件不属于本设备）',
  404: '记录不存在或不在本账号的数据范围内',
  409: '状态冲突（名称或编号已被占用、正在处理中、订单状态不允许）',
  413: '上传的文件或请求体过大',
  415: '请求体类型不支持：须为 application/json（或表单）',
  429: '失败次数过多，msg 说明几分钟后再试',
  502: '支付网关未应答（订单已关闭），稍后再试',
  503: '数据库或 Redis 暂不可用，稍后重试',
};
