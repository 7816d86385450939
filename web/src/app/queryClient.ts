import { QueryClient } from '@tanstack/react-query';

/** The console's one query cache; provided by the signed-in layout (the login page needs none). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
