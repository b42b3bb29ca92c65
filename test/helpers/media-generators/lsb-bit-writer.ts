/** Packs values least-significant bit first, as GIF's LZW stream and WebP's VP8L bitstream do. */
export class LsbBitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, bitCount: number): void {
    for (let bit = 0; bit < bitCount; bit++) {
      this.current |= ((value >>> bit) & 1) << this.used;
      if (++this.used === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
  }

  /** The bytes written so far, the last one zero-padded. */
  finish(): Buffer {
    return Buffer.from(this.used > 0 ? [...this.bytes, this.current] : this.bytes);
  }
}
