import { Pacer } from "./pacer.ts";

/** One scale of the generated glyph atlas (src/vendor/glyph_atlas.ts, made by scripts/gen_glyphs.ts). */
export interface AtlasData {
  readonly cellWidth: number;
  readonly cellHeight: number;
  /** Thickness of underline and strike-through, in pixels. */
  readonly line: number;
  /** First pixel row of the underline and of the strike-through line in a cell. */
  readonly underline: number;
  readonly strike: number;
  /** Code points with a glyph, as hex ranges ("20-7e,a0-17f"), regular and bold. */
  readonly regular: string;
  readonly bold: string;
  /** Base64 of deflated 4-bit coverage, two pixels a byte: the three boxes, the regular glyphs, the bold ones. */
  readonly data: string;
}

/** Glyph numbers of the replacement boxes: a narrow cell, and the left and right half of a wide one. */
export const MISSING = 0, WIDE_LEFT = 1, WIDE_RIGHT = 2;

/** Glyph bitmaps of one scale, decoded: coverage 0–15 for every pixel of every glyph. */
export class GlyphAtlas {
  readonly cellWidth: number;
  readonly cellHeight: number;
  readonly line: number;
  readonly underline: number;
  readonly strike: number;
  /** Pixels of glyph n start at n × cellWidth × cellHeight. */
  readonly levels: Uint8Array;
  readonly #regular: Map<number, number>;
  readonly #bold: Map<number, number>;

  private constructor(data: AtlasData, levels: Uint8Array) {
    ({
      cellWidth: this.cellWidth,
      cellHeight: this.cellHeight,
      line: this.line,
      underline: this.underline,
      strike: this.strike,
    } = data);
    this.levels = levels;
    const regular = codePoints(data.regular);
    this.#regular = new Map(regular.map((cp, i) => [cp, 3 + i]));
    this.#bold = new Map(codePoints(data.bold).map((cp, i) => [cp, 3 + regular.length + i]));
  }

  /** Inflates and unpacks the bitmaps: 2–10 ms of work at 1× (10 while the code is still cold), in slices. */
  static async load(data: AtlasData, pacer = new Pacer()): Promise<GlyphAtlas> {
    const packed = Uint8Array.fromBase64(data.data); // skips the line breaks
    const inflated = new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate")));
    const bytes = new Uint8Array(await inflated.arrayBuffer());
    const levels = new Uint8Array(bytes.length * 2);
    for (let i = 0; i < bytes.length; i++) {
      levels[2 * i] = bytes[i] >> 4;
      levels[2 * i + 1] = bytes[i] & 15;
      if (i % 16384 === 0) await pacer.breathe();
    }
    return new GlyphAtlas(data, levels);
  }

  /** The glyph for a code point (bold falls back to regular), or -1 when the atlas has none. */
  glyph(codePoint: number, bold: boolean): number {
    return (bold ? this.#bold.get(codePoint) : undefined) ?? this.#regular.get(codePoint) ?? -1;
  }
}

function codePoints(ranges: string): number[] {
  const out: number[] = [];
  for (const range of ranges.split(",")) {
    const [start, end = start] = range.split("-").map((hex) => parseInt(hex, 16));
    for (let cp = start; cp <= end; cp++) out.push(cp);
  }
  return out;
}
