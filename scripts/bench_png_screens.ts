/** Screens and a loop-lag meter for scripts/bench_png.ts. */
import process from "node:process";
import type { Screen } from "../src/engine/screen/mod.ts";

const state = (width: number, height: number, cursor = { x: 10, y: height - 1, visible: true }) => ({
  cursor,
  mode: null,
  scrollPosition: 0,
  historySize: 0,
  width,
  height,
  alternateScreen: false,
});

/** A busy 200×50 screen: every row full of coloured words (build output, `ls --color`), bold and reverse runs. */
export function busyScreen(): Screen {
  // [text, SGR parameters]: green, bold red, plain, blue, 256-colour, reverse, truecolor, box drawing.
  const words: [string, string][] = [
    ["PASS", "32"],
    ["FAIL", "1;31"],
    ["src/engine/snapshot.ts", "0"],
    ["dir/", "34"],
    ["warn", "38;5;208"],
    [" 42 ", "7"],
    ["ok", "0"],
    ["true", "38;2;10;200;30"],
    ["│", "0"],
    ["──", "0"],
  ];
  const rows: string[] = [];
  for (let y = 0; y < 50; y++) {
    let row = "";
    let width = 0;
    for (let i = y; width + words[i % words.length][0].length + 1 <= 200; i++) { // a full row, never wrapped
      const [text, sgr] = words[i % words.length];
      row += `\x1b[${sgr}m${text}\x1b[0m `;
      width += text.length + 1;
    }
    rows.push(row);
  }
  return { state: state(200, 50), rows };
}

/** A 200×50 screen with three lines on it: a finished test run at a prompt. */
export function sparseScreen(): Screen {
  return {
    state: state(200, 50, { x: 2, y: 2, visible: true }),
    rows: ["$ make test", "\x1b[32mok\x1b[0m 12 tests", "$ "],
  };
}

/** A 200×50 screen of letters in a 24-bit colour gradient: thousands of colours, so the PNG cannot be indexed. */
export function gradientScreen(): Screen {
  const rows = Array.from(
    { length: 50 },
    (_, y) =>
      Array.from(
        { length: 200 },
        (_, x) => `\x1b[38;2;${x + 40};${y * 4 + 40};${(x * y) % 200 + 40}m${"abcdefgh"[x % 8]}`,
      )
        .join("") + "\x1b[0m",
  );
  return { state: state(200, 50), rows };
}

/** Source code in an editor with a 24-bit colour scheme: 24 colours of text, a highlighted cursor line. */
export function editorScreen(): Screen {
  const words = ["const", "value", "=", "await", "render(", "screen,", "{", "theme:", '"dark"', "});", "// why", "42"];
  const rows = Array.from({ length: 50 }, (_, y) => {
    const background = y === 20 ? "\x1b[48;2;42;42;46m" : "";
    let [row, width] = [`\x1b[38;2;110;110;110m${String(y + 1).padStart(4)} `, 5];
    for (let i = y; width + words[i % words.length].length + 1 <= 120; i++) {
      const hue = (i * 7 + y) % 24;
      row += `\x1b[38;2;${80 + hue * 7};${200 - hue * 5};${120 + (hue * 13) % 120}m${words[i % words.length]} `;
      width += words[i % words.length].length + 1;
    }
    return background + row + " ".repeat(200 - width) + "\x1b[0m";
  });
  return { state: state(200, 50), rows };
}

/** The screen as the bytes a program would print: for a real pane that shows it with `cat`. */
export function screenBytes(screen: Screen): string {
  return screen.rows.join("\r\n");
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Runs `work` while a 0 ms timer ticks alongside, and reports how long the event loop went without running it:
 * in wall time (what another caller waits, noise of this shared machine included) and in this process's CPU time
 * (the synchronous work itself, undisturbed by other processes taking the CPU).
 */
export async function withLoopMeter<T>(work: () => Promise<T>) {
  let [lastWall, lastCpu, longestWall, longestCpu, running] = [performance.now(), cpuMs(), 0, 0, true];
  const tick = () => {
    const [wall, cpu] = [performance.now(), cpuMs()];
    longestWall = Math.max(longestWall, wall - lastWall);
    longestCpu = Math.max(longestCpu, cpu - lastCpu);
    [lastWall, lastCpu] = [wall, cpu];
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const started = performance.now();
  const value = await work();
  const elapsed = performance.now() - started;
  running = false;
  tick();
  return { value, elapsed, longestWall, longestCpu };
}

export function stats(samples: number[]): { median: number; max: number } {
  const sorted = samples.toSorted((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
}
