import { matchPath, useLocation } from 'react-router';
import { consoleRoutes, subScreenRoutes, type ConsoleRoute, type SubScreenRoute } from '@huiyun/contract';

export type ScreenRoute = ConsoleRoute | SubScreenRoute;

/** Every screen the router shows inside the layout: the console routes and their sub-screens. */
export const screenRoutes: ScreenRoute[] = [...consoleRoutes, ...subScreenRoutes];

/** The contract's entry of the screen shown, matched as the router matches a path (in any case, a trailing slash allowed). */
export function useCurrentRoute(): ScreenRoute | undefined {
  const { pathname } = useLocation();
  return screenRoutes.find((route) => matchPath(route.url, pathname));
}
