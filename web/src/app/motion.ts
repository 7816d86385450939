/**
 * An operator who asks the system for less motion (prefers-reduced-motion: reduce) gets the console without
 * antd's animations and click waves: dialogs, menus and toasts appear at once. Read once at start.
 */
export const prefersReducedMotion: boolean =
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
