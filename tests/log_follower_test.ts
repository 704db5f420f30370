import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { LogFollower } from "../src/engine/output/follower.ts";
import { segmentPath } from "../src/engine/output/rotation.ts";
import { until } from "./helpers/harness.ts";

Deno.test("LogFollower reads a flood by polling without the directory watch, loses no byte across a rotation, and follows events again once quiet", async () => {
  const dir = await Deno.makeTempDir({ prefix: "twflood" });
  const follower = new LogFollower(dir);
  const log = join(dir, "p.log");
  try {
    let segment = await Deno.open(segmentPath(log, 0), { write: true, create: true, append: true });
    const received: Uint8Array[] = [];
    let size = 0;
    const handle = follower.follow(log, 0, (bytes) => {
      received.push(bytes.slice()); // lent: copied
      size += bytes.length;
    }, { borrow: true });
    const written: string[] = [];
    let offset = 0;
    let sawPolling = false;
    let rotated = false;
    let pollingWrites = 0; // writes since the watch closed: the rotation happens while polling
    let rotatedWrites = 0;
    const started = performance.now();
    // Writes of 8 KiB every millisecond or so (a flood) for at least 2 s, and on a slow machine
    // until the rotation came while polling and the flood went on after it (at most 15 s).
    const flooding = () => {
      const elapsed = performance.now() - started;
      return elapsed < 2000 || (elapsed < 15_000 && rotatedWrites < 50);
    };
    for (let i = 0; flooding(); i++) {
      const line = `line ${i} ${"x".repeat(8000)}\n`;
      if (!rotated && pollingWrites > 50) {
        segment.close();
        segment = await Deno.open(segmentPath(log, offset), { write: true, create: true, append: true });
        rotated = true;
      }
      await segment.write(new TextEncoder().encode(line));
      written.push(line);
      offset += line.length;
      if (!follower.watching) sawPolling = true;
      if (sawPolling) pollingWrites++;
      if (rotated) rotatedWrites++;
      await new Promise((r) => setTimeout(r, 1));
    }
    await until(() => size, (n) => n === offset);
    ok(sawPolling, "a flood closes the directory watch");
    ok(rotated);
    // Quiet again: events come back, and a single line is read promptly.
    await until(() => follower.watching, (w) => w, 5000);
    await segment.write(new TextEncoder().encode("END\n"));
    written.push("END\n");
    await until(() => size, (n) => n === offset + 4, 5000);
    const text = new TextDecoder().decode(new Uint8Array(received.flatMap((b) => [...b])));
    assertEquals(text === written.join(""), true, "every byte once, in order");
    assertEquals(handle.offset, offset + 4);
    segment.close();
    handle.close();
  } finally {
    follower.close();
    await Deno.remove(dir, { recursive: true });
  }
});
