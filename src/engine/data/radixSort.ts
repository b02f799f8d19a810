/** Below this many values the built-in sort is faster than four counting passes over 65,536 buckets. */
const RADIX_FROM = 1 << 16;
const DIGITS = 4;
const BUCKETS = 1 << 16;

/**
 * Sorts numbers (no NaN) ascending in place, in the order Float64Array.prototype.sort gives (−0 before 0), by an LSD
 * radix sort of their bits: four passes of 16 bits, linear in the count, where the comparison sort of a column of
 * millions of values takes most of a dataset's health scan and summary.
 */
export function sortNumbers(values: Float64Array): Float64Array {
  const n = values.length;
  if (n < RADIX_FROM) return values.sort();
  const words: Uint32Array = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  // Each double's bits as an unsigned key that sorts like the number: negative ones flipped, positive ones with the
  // sign bit set (little-endian: the low word first).
  for (let i = 0; i < 2 * n; i += 2) {
    const high = words[i + 1];
    if (high & 0x80000000) {
      words[i] = ~words[i];
      words[i + 1] = ~high;
    } else {
      words[i + 1] = (high | 0x80000000) >>> 0;
    }
  }
  const counts = new Uint32Array(DIGITS * BUCKETS);
  for (let i = 0; i < 2 * n; i += 2) {
    counts[words[i] & 0xffff]++;
    counts[BUCKETS + (words[i] >>> 16)]++;
    counts[2 * BUCKETS + (words[i + 1] & 0xffff)]++;
    counts[3 * BUCKETS + (words[i + 1] >>> 16)]++;
  }
  let from: Uint32Array = words;
  let to: Uint32Array = new Uint32Array(2 * n);
  for (let digit = 0; digit < DIGITS; digit++) {
    const offset = digit * BUCKETS;
    let total = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const count = counts[offset + b];
      counts[offset + b] = total;
      total += count;
    }
    const word = digit >> 1;
    const shift = (digit & 1) * 16;
    for (let i = 0; i < 2 * n; i += 2) {
      const at = 2 * counts[offset + ((from[i + word] >>> shift) & 0xffff)]++;
      to[at] = from[i];
      to[at + 1] = from[i + 1];
    }
    [from, to] = [to, from];
  }
  // An even number of passes leaves the keys back in `words`; they become numbers again.
  for (let i = 0; i < 2 * n; i += 2) {
    const high = words[i + 1];
    if (high & 0x80000000) {
      words[i + 1] = (high & 0x7fffffff) >>> 0;
    } else {
      words[i] = ~words[i];
      words[i + 1] = ~high;
    }
  }
  return values;
}
