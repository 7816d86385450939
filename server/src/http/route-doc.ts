import type { z } from 'zod';

// What a route reads and answers, declared on the route itself (`config: { access, doc }`) beside who may
// call it: its JSON body, query string and path as the contract's zod schemas its handler parses, and its
// answer as the contract's answer schema (@huiyun/contract/responses) inside the envelope. The access
// check's onRoute hook keeps it with the route (app.declaredRoutes); the OpenAPI document
// (modules/platform/api-docs) is generated from the declared routes, and a route without it fails its test.
//
//   app.post('/api/Variable/save', { config: { access: { permission: Perm.variableSave },
//     doc: { tag: 'variable', body: variableSave, answer: answers.data(r.systemSaved.variable) } } }, …)
//
// A list route (http/list-routes.ts) says only its tag and row schema; its query and its export's answer
// follow from registerList. A route registered for GET and POST documents its body: on GET it is the query string.

/** What a route answers: the envelope with a data schema, a list page of a row schema, the message alone, or something not JSON. */
export type Answer =
  | { kind: 'data'; schema: z.ZodType }
  | { kind: 'items'; item: z.ZodType }
  | { kind: 'list'; row: z.ZodType }
  | { kind: 'message' }
  | { kind: 'other'; contentType: string; description: string };

/** The refusals a route may answer beyond those derived from its access and input (api-docs openapi.ts refusalsOf). */
export type Refusal = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 503;

export type RouteDoc = {
  /** The area (modules/<wing>/<area>/) the route belongs to: the document's tag. */
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Path parameters (:id); without it each is documented as a string. */
  params?: z.ZodType;
  /** What the schemas cannot say (a multipart upload, a gateway's own format). */
  note?: string;
  /** The body is a multipart/form-data file upload (field `file`) instead of JSON. */
  upload?: true;
  /** What a success answers (answers below). */
  answer: Answer;
  /** Refusals beyond those its access and input imply: 409, 429, 502 … */
  refuses?: Refusal[];
  /** Answers while the process runs, whatever its dependencies (/livez): no 503. */
  live?: true;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route reads and answers, for the API document. */
    doc?: RouteDoc;
  }
}

const other = (contentType: string, description: string): Answer => ({ kind: 'other', contentType, description });

export const answers = {
  /** `{ success, msg, errorInfo, data }`: data is the schema. */
  data: (schema: z.ZodType): Answer => ({ kind: 'data', schema }),
  /** `{ success, msg, errorInfo, data: item[] }`: every item at once (choices, a tree), no paging. */
  items: (item: z.ZodType): Answer => ({ kind: 'items', item }),
  /** `{ success, msg, errorInfo, data: row[], total, totalBounded?, next? }`: a list page. */
  list: (row: z.ZodType): Answer => ({ kind: 'list', row }),
  /** `{ success, msg, errorInfo }`: the message says what was done. */
  message: { kind: 'message' } as Answer,
  other,
  /** A list screen's 导出: the rows of the same filters as an Excel sheet. */
  xlsx: other('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '导出的 Excel 文件（与列表相同的筛选条件）'),
  /** A stored file, sent as it was stored (its own type). */
  storedFile: other('application/octet-stream', '存储的文件原样返回（Content-Type 按文件类型）'),
  /** 导出号码 of a task: one number a line. */
  numbersText: other('text/plain', '任务号码的文本文件，每行一个号码'),
  html: other('text/html', 'HTML 页面'),
  gatewayAck: other('text/plain', '按该支付网关要求的格式应答（成功 / 失败的确认文本或 JSON）'),
};
