import { useEffect, useState, type RefObject } from 'react';

/**
 * The element's inner width, followed with a ResizeObserver so drawings use the room there is. `fallback`
 * until measured, and in environments without layout (tests).
 */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback: number, min = 0): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      if (el.clientWidth > 0) setWidth(Math.max(min, Math.floor(el.clientWidth)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, min]);
  return width;
}
