// The last output of a browser terminal's shell, numbered by byte offset since the shell began,
// so a browser that reconnects gets exactly what it missed (from the offset it had reached), and
// a new page gets the recent screen. Bounded: only the last `capacity` bytes are kept.
export class OutputRing {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Offset just past the last byte appended (bytes the shell has written in all). */
  end = 0;

  constructor(readonly capacity = 256 * 1024) {}

  /** Offset of the oldest byte still kept. */
  get start() {
    return this.end - this.size;
  }

  append(chunk: Buffer) {
    if (!chunk.length) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.end += chunk.length;
    while (this.size - this.chunks[0]!.length >= this.capacity) this.size -= this.chunks.shift()!.length;
    if (this.size > this.capacity) {
      // Keep only the tail of the oldest chunk.
      const cut = this.size - this.capacity;
      this.chunks[0] = this.chunks[0]!.subarray(cut);
      this.size -= cut;
    }
  }

  /** What was written from `offset` on, and whether part of it is no longer kept. An offset
   *  past the end (a client's claim that cannot be true) reads as everything kept. */
  since(offset: number): { data: Buffer; from: number; lost: boolean } {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > this.end) offset = this.start;
    const lost = offset < this.start;
    const from = Math.max(offset, this.start);
    const all = Buffer.concat(this.chunks);
    return { data: all.subarray(from - this.start), from, lost };
  }
}
