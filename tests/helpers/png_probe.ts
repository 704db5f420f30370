/**
 * Renders the SVG read from stdin with `PngRenderer` and prints `{png, read}` as JSON: the PNG in base64 (as MCP
 * image content carries it) and what a direct read of the file named by the first argument gave (a file of the
 * npm cache, which the sandboxed server must not need to read). Run by tests under the server's permissions,
 * from source and as a bundle.
 */
import { PngRenderer } from "../../src/engine/screen/mod.ts";

let read = "allowed";
try {
  Deno.readFileSync(Deno.args[0]);
} catch (error) {
  read = error instanceof Error ? error.name : String(error);
}
const svg = await new Response(Deno.stdin.readable).text();
const png = await new PngRenderer().render(svg);
console.log(JSON.stringify({ png: png.toBase64(), read }));
