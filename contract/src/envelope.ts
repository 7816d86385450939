// The one answer shape of every API call (PRODUCT §2). msg and errorInfo carry the same text so
// readers of either field work.
export type Envelope<T = unknown> = {
  success: boolean;
  msg: string;
  errorInfo: string;
  data?: T;
  total?: number;
};

export type Page<T> = { data: T[]; total: number };
