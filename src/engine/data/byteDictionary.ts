const EMPTY_SLOT = -1;
const INITIAL_SLOTS = 1024;
const INITIAL_ARENA = 64 * 1024;

/**
 * Codes of distinct byte strings in order of first appearance: a text column's dictionary while a CSV is read, so a
 * value seen before is found from its bytes without making a string of it. Open addressing on an FNV-1a hash; the
 * distinct values' bytes are kept end to end in one array.
 */
export class ByteDictionary {
  size = 0;
  private slots = new Int32Array(INITIAL_SLOTS).fill(EMPTY_SLOT);
  private hashes = new Int32Array(INITIAL_SLOTS / 2);
  /** Value `code` is `arena[offsets[code], offsets[code + 1])`. */
  private offsets = new Int32Array(INITIAL_SLOTS / 2 + 1);
  private arena = new Uint8Array(INITIAL_ARENA);

  /** The code of `bytes[start, end)`, adding it as the next code (`size` before the call) when new. */
  code(bytes: Uint8Array, start: number, end: number): number {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const code = this.slots[slot];
      if (code === EMPTY_SLOT) return this.append(slot, hash, bytes, start, end);
      if (this.hashes[code] === hash && this.holds(code, bytes, start, end)) return code;
    }
  }

  private holds(code: number, bytes: Uint8Array, start: number, end: number): boolean {
    const from = this.offsets[code];
    if (this.offsets[code + 1] - from !== end - start) return false;
    const arena = this.arena;
    for (let i = start, j = from; i < end; i++, j++) if (arena[j] !== bytes[i]) return false;
    return true;
  }

  private append(slot: number, hash: number, bytes: Uint8Array, start: number, end: number): number {
    const code = this.size++;
    if (code === this.hashes.length) {
      this.hashes = resized(this.hashes, code * 2);
      this.offsets = resized(this.offsets, code * 2 + 1);
    }
    const from = this.offsets[code];
    const to = from + end - start;
    if (to > this.arena.length) this.arena = resized(this.arena, Math.max(to, this.arena.length * 2));
    this.arena.set(bytes.subarray(start, end), from);
    this.offsets[code + 1] = to;
    this.hashes[code] = hash;
    this.slots[slot] = code;
    if (this.size * 2 > this.slots.length) this.rehash();
    return code;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY_SLOT);
    const mask = slots.length - 1;
    for (let code = 0; code < this.size; code++) {
      let slot = this.hashes[code] & mask;
      while (slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      slots[slot] = code;
    }
    this.slots = slots;
  }
}

/** A copy of a typed array at another length (longer ones end in zeros). */
export function resized<T extends Float64Array | Int32Array | Int16Array | Uint8Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}
