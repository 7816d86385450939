import { useMatches } from 'react-router';
import type { ConsoleRoute, SubScreenRoute } from '@huiyun/contract';

export type ScreenRoute = ConsoleRoute | SubScreenRoute;

/** Each console route carries its contract entry as the router handle. */
export type RouteHandle = { route: ScreenRoute };

export function useCurrentRoute(): ScreenRoute | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.route) return handle.route;
  }
  return undefined;
}
