import { matchPath, useLocation } from 'react-router';
import { consoleRoutes, subScreenRoutes, type ConsoleRoute, type SubScreenRoute } from '@huiyun/contract';

export type ScreenRoute = ConsoleRoute | SubScreenRoute;

const screenRoutes: ScreenRoute[] = [...consoleRoutes, ...subScreenRoutes];

/** The contract's entry of the screen shown, matched as the router matches it (case and a trailing slash aside). */
export function useCurrentRoute(): ScreenRoute | undefined {
  const { pathname } = useLocation();
  return screenRoutes.find((route) => matchPath(route.url, pathname));
}
