/**
 * Exact-length reads from a stream of byte pieces of any size (a Readable, an async or sync iterable),
 * pulling a piece only when a read needs it, so memory stays at about one chunk and the source is
 * paced by the reads.
 */
export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export class ByteReader {
  private readonly source: AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  private pieces: Buffer[] = [];
  private buffered = 0;
  private ended = false;

  constructor(source: ByteSource) {
    this.source = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  }

  /** Pulls pieces until `n` bytes are buffered or the source ends. */
  private async fill(n: number): Promise<void> {
    while (this.buffered < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) {
        this.ended = true;
      } else {
        const piece: unknown = next.value;
        if (!(piece instanceof Uint8Array))
          throw new TypeError("the source must yield bytes (Uint8Array or Buffer), not strings");
        if (piece.length === 0) continue;
        this.pieces.push(Buffer.from(piece.buffer, piece.byteOffset, piece.length));
        this.buffered += piece.length;
      }
    }
  }

  /** The next `n` bytes, fewer only when the source ends first. */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    const wanted = Math.min(n, this.buffered);
    const first = this.pieces[0];
    if (first !== undefined && first.length >= wanted) return this.take(wanted);
    const out = Buffer.allocUnsafe(wanted);
    let filled = 0;
    while (filled < wanted) filled += this.take(wanted - filled).copy(out, filled);
    return out;
  }

  /** Up to `n` bytes from the first piece, without copying. */
  private take(n: number): Buffer {
    const first = this.pieces[0]!;
    const out = first.length <= n ? first : first.subarray(0, n);
    if (out === first) this.pieces.shift();
    else this.pieces[0] = first.subarray(n);
    this.buffered -= out.length;
    return out;
  }

  /** Whether every byte has been read; waits for the source to say so. */
  async atEnd(): Promise<boolean> {
    await this.fill(1);
    return this.buffered === 0;
  }

  /** The bytes not yet read, as they come: for copying the rest of a file unchanged. */
  async *rest(): AsyncGenerator<Buffer> {
    while (!(await this.atEnd())) yield this.take(this.buffered);
  }

  /** Stops the source early (a Readable is destroyed), as leaving a for-await loop would. */
  async close(): Promise<void> {
    this.pieces = [];
    this.buffered = 0;
    if (!this.ended) {
      this.ended = true;
      await this.source.return?.();
    }
  }
}
