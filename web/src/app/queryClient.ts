// The one QueryClient setup: a failed load is told to the user here, once, for every screen
// (react-admin reports errors in its controller, not in each view).
import { QueryCache, QueryClient, type QueryMeta } from '@tanstack/react-query';
import { messages } from '@huiyun/contract';
import { errorText } from '../api/client.ts';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** The screen's text for a failure the server did not word (SPEC §8); default 加载失败. */
      errorText?: string;
      /** The screen shows this query's failure its own way (or not at all): no toast. */
      silent?: boolean;
    };
  }
}

/** The toast text of a failed query, or null when there is none to show. */
export function queryErrorText(error: unknown, meta: QueryMeta | undefined): string | null {
  if (meta?.silent) return null;
  return errorText(error, meta?.errorText ?? messages.common.loadFailed);
}

/** showError: how a text reaches the user (the antd message of the App). */
export function createQueryClient(showError: (text: string) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        const text = queryErrorText(error, query.meta);
        if (text) showError(text);
      },
    }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
