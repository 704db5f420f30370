import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { decode } from "fast-png";
import type { TestServer } from "./harness.ts";

/** A decoded PNG (independent decoder: fast-png) with each pixel as 0xRRGGBB. */
export interface Image {
  width: number;
  height: number;
  /** IHDR colour type: 3 indexed (with a palette), 2 RGB. */
  colourType: number;
  at(x: number, y: number): number;
}

/** Checks the signature and the IHDR size, then decodes indexed or RGB pixels. */
export function readPng(png: Uint8Array): Image {
  assertEquals([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assertEquals(new TextDecoder().decode(png.subarray(12, 16)), "IHDR");
  const header = new DataView(png.buffer, png.byteOffset + 16, 8);
  const image = decode(png, { checkCrc: true });
  assertEquals({ width: image.width, height: image.height }, {
    width: header.getUint32(0),
    height: header.getUint32(4),
  });
  const { data, palette } = image;
  const channels = image.channels ?? 3;
  return {
    width: image.width,
    height: image.height,
    colourType: png[25],
    at(x, y) {
      const i = y * image.width + x;
      const [r, g, b] = palette
        ? palette[data[i]]
        : [data[i * channels], data[i * channels + 1], data[i * channels + 2]];
      return r << 16 | g << 8 | b;
    },
  };
}

/** Calls snapshot_pane for a PNG: the result must be JSON text plus MCP image content; returns both, decoded. */
export async function snapshotPng(server: TestServer, args: Record<string, unknown>) {
  const result = await server.result("snapshot_pane", { ...args, format: "png" });
  const [text, image] = result.content;
  assert(result.isError !== true && text?.type === "text", JSON.stringify(result).slice(0, 400));
  assert(
    image?.type === "image" && image.mimeType === "image/png",
    `content types: ${result.content.map((c) => c.type)}`,
  );
  const fields = JSON.parse(text.text) as Record<string, unknown>;
  assertEquals(result.structuredContent, fields);
  assertEquals(fields.content, undefined); // the picture travels once, as the image
  const png = Uint8Array.fromBase64(image.data);
  return { fields, png, image: readPng(png) };
}
