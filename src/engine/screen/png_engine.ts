/**
 * The rasteriser behind `PngRenderer`, imported only on the first PNG. resvg's WebAssembly and the two DejaVu
 * Sans Mono faces (3.1 MiB) come in through the module graph as byte imports, never by file reads: the sandboxed
 * server may not read Deno's npm cache, `deno bundle` inlines them into its one file (decoded only when this module
 * is first imported; a dynamic `import()` of the bytes themselves would be copied index by index, 5 s), and
 * `deno compile` embeds them. Byte imports need `"unstable": ["raw-imports"]` in deno.json (Deno 2.9). Wasm source
 * imports are stable but `deno bundle` cannot parse them; docs/snapshots.md has the comparison and the figures.
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "bytes" };
import monoRegular from "dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf" with { type: "bytes" };
import monoBold from "dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf" with { type: "bytes" };

export type Rasterise = (svg: string) => Uint8Array;

const FAMILY = "DejaVu Sans Mono";

/** Instantiates resvg (about 20 ms) and returns a function that turns an SVG into PNG bytes at its own size. */
export async function loadRasteriser(): Promise<Rasterise> {
  try {
    await initWasm(resvgWasm);
  } catch (error) {
    // The package keeps one instance per process and refuses a second initWasm: another renderer loaded it.
    if (!(error instanceof Error && error.message.startsWith("Already initialized"))) throw error;
  }
  // No system fonts: the sandbox cannot read them, and a screen must look the same on every machine.
  const font = {
    loadSystemFonts: false,
    fontBuffers: [monoRegular, monoBold],
    defaultFontFamily: FAMILY,
    monospaceFamily: FAMILY,
  };
  return (svg) => {
    const resvg = new Resvg(svg, { font });
    try {
      const image = resvg.render();
      try {
        return image.asPng();
      } finally {
        image.free();
      }
    } finally {
      resvg.free();
    }
  };
}
