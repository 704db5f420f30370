/**
 * A PNG file from scanlines handed over band by band: 8-bit indexed (with a palette) or RGB, one IDAT chunk. The
 * zlib stream comes from the web-standard CompressionStream("deflate"), which deflates each band synchronously
 * when it is written (measured: about 1 ms per 64 KiB), so the caller decides how long each slice of work is.
 */
export class PngEncoder {
  readonly #writer: WritableStreamDefaultWriter<BufferSource>;
  readonly #deflated: Promise<ArrayBuffer>;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly palette: number[] | null,
  ) {
    const stream = new CompressionStream("deflate");
    this.#writer = stream.writable.getWriter();
    this.#deflated = new Response(stream.readable).arrayBuffer();
  }

  /** Deflates scanlines (each starting with its filter byte), top to bottom. */
  async write(scanlines: Uint8Array<ArrayBuffer>): Promise<void> {
    await this.#writer.write(scanlines);
  }

  /** Ends the zlib stream and returns the whole file. */
  async finish(): Promise<Uint8Array> {
    await this.#writer.close();
    const idat = new Uint8Array(await this.#deflated);
    const header = new Uint8Array(13);
    const view = new DataView(header.buffer);
    view.setUint32(0, this.width);
    view.setUint32(4, this.height);
    header.set([8, this.palette ? 3 : 2, 0, 0, 0], 8); // bit depth 8; colour type indexed or RGB; defaults
    const chunks = [chunk("IHDR", header)];
    if (this.palette) {
      const rgb = new Uint8Array(this.palette.length * 3);
      this.palette.forEach((c, i) => rgb.set([c >> 16, c >> 8 & 255, c & 255], i * 3));
      chunks.push(chunk("PLTE", rgb));
    }
    chunks.push(chunk("IDAT", idat), chunk("IEND", new Uint8Array()));
    const file = new Uint8Array(8 + chunks.reduce((n, c) => n + c.length, 0));
    file.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let at = 8;
    for (const c of chunks) {
      file.set(c, at);
      at += c.length;
    }
    return file;
  }
}

/** Length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

// CRC-32 (ISO 3309, as PNG uses it) of every byte value: a constant table, built once.
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
  return n;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 255] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
