import { useMatches } from 'react-router';
import type { ConsoleRoute } from '@huiyun/contract';

/** Each console route carries its contract entry as the router handle. */
export type RouteHandle = { route: ConsoleRoute };

export function useCurrentRoute(): ConsoleRoute | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.route) return handle.route;
  }
  return undefined;
}
