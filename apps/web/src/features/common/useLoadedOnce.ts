import { useState } from "react";

/**
 * True from the first render where `loaded` holds, and from then on: a page waits once for what
 * its first paint needs (saved values and the option lists that show them), and a later refetch
 * never blanks it again.
 */
export function useLoadedOnce(loaded: boolean): boolean {
  const [once, setOnce] = useState(loaded);
  if (loaded && !once) setOnce(true);
  return once || loaded;
}
