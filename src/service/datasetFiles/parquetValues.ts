/**
 * Parquet values turned into what the same data written as CSV text reads back as, where a decoder's default would
 * differ: decimals parsed from their digits, 32-bit floats as their shortest decimal, times of day as text,
 * timestamps floored to whole milliseconds (as a CSV date with more digits is read).
 */

/** A decimal's unscaled integer (an int32, int64 or big-endian two's-complement bytes) as the number its digits give. */
export function decimalValue(unscaled: unknown, scale: number): number | null {
  if (unscaled == null) return null;
  const integer = unscaled instanceof Uint8Array ? signedBigInt(unscaled) : BigInt(unscaled as number | bigint);
  return Number(`${integer}e${-scale}`);
}

function signedBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  const bits = BigInt(bytes.length * 8);
  return bytes.length > 0 && bytes[0] & 0x80 ? value - (1n << bits) : value;
}

/** A 32-bit float as the double of its shortest decimal (0.1f is 0.1, not 0.10000000149011612), as a writer prints it. */
export function float32Value(value: unknown): number | null {
  if (value == null) return null;
  const v = value as number;
  if (!Number.isFinite(v)) return v;
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(v.toPrecision(digits));
    if (Math.fround(shortest) === v) return shortest;
  }
  return v;
}

/** A time of day (units of 10^-digits seconds since midnight) as `HH:MM:SS[.fraction]`, as it is written as text. */
export function timeOfDayText(value: unknown, digits: number): string | null {
  if (value == null) return null;
  const units = BigInt(value as number | bigint);
  const perSecond = 10n ** BigInt(digits);
  const seconds = Number(units / perSecond);
  const fraction = (units % perSecond).toString().padStart(digits, '0').replace(/0+$/, '');
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}${fraction ? `.${fraction}` : ''}`;
}

/** Floor division of a count of `per`-ths of a millisecond since the epoch, as a Date. */
function epochDate(count: bigint, per: bigint): Date {
  const ms = count / per - (count % per < 0n ? 1n : 0n);
  return new Date(Number(ms));
}

/** Timestamp parsers for hyparquet: every unit to whole milliseconds, rounded down. */
export const timestampParsers = {
  timestampFromMilliseconds: (ms: bigint) => epochDate(ms, 1n),
  timestampFromMicroseconds: (us: bigint) => epochDate(us, 1000n),
  timestampFromNanoseconds: (ns: bigint) => epochDate(ns, 1_000_000n),
};
