/**
 * The median of some figures; of an even number of them, the lower of the
 * two in the middle, so it is always a figure some run gave (a Lighthouse
 * score stays a score a run had).
 */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
