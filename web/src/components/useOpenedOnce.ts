import { useState } from 'react';

/**
 * True from the first time `open` is true on: a lazily loaded dialog is mounted when first opened
 * (its chunk loads then) and stays mounted afterwards, so its closing animation still plays.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
