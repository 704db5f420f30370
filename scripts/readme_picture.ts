/**
 * The README's picture, docs/tour.png: a pane after an agent's first minute, drawn by tmuxwright's
 * own snapshot_pane renderer (png, dark theme) from a real server on a private tmux socket.
 *
 *   deno run -A scripts/readme_picture.ts
 */
import { TestServer } from "../tests/helpers/harness.ts";

const OUT = new URL("../docs/tour.png", import.meta.url).pathname;

await using server = await TestServer.start();
const pane = await server.call<{ pane_id: string }>("create_pane", { name: "work", cwd: "/tmp" });
await server.tmux("resize-window", "-t", pane.pane_id, "-x", "80", "-y", "8");
// The first step (prompt and files) is cleared away; the rest is what the picture shows.
const setup = [
  "PS1='\\[\\e[36m\\]agent\\[\\e[0m\\]:\\w$ '",
  "mkdir -p /tmp/shop && cd /tmp/shop",
  "echo 'print(f\"{2 + 40} in stock\")' > stock.py",
  "printf 'def add(cart, item):\\n    cart.append(item)\\n\\ndef total(cart):\\n    return sum(cart)\\n' > cart.py",
  "echo 'printf \"\\\\033[32m✓\\\\033[0m 12 passed  \\\\033[31m✗\\\\033[0m 1 failed: total() of an empty cart\\\\n\"; exit 1' > test.sh",
  "clear",
].join("; ");
const steps = [setup, "python3 stock.py", "sh test.sh", "grep -n 'def total' cart.py"];
for (const command of steps) {
  const result = await server.call<{ exit_code: number }>("execute_command", { pane_id: pane.pane_id, command });
  console.log(`exit ${result.exit_code}: ${command.slice(0, 60)}`);
}
await new Promise((resolve) => setTimeout(resolve, 500)); // the prompt after the last command
const snapshot = await server.result("snapshot_pane", { pane_id: pane.pane_id, format: "png", scale: 2 });
const image = snapshot.content.find((block) => block.type === "image");
if (image?.type !== "image") throw new Error("snapshot_pane returned no image");
const png = Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0));
await Deno.writeFile(OUT, png);
console.log(`${OUT}: ${png.length} bytes`);
