/**
 * Pattern matching cost (src/patterns) against native RegExp: ns per line over 1e6 short lines
 * that do not match (the common case of a watched pane), per line and as one chunk; compile
 * time; what importing the module and loading the regex engine add to a `deno run`; and the
 * worst case the instruction limit bounds: one adversarial 4,096-character line (the longest a
 * wait or search matches of one line) against patterns of growing size whose automaton gives up.
 *
 *   deno run -A scripts/bench_patterns.ts [--only adversarial]
 */
import { compilePattern, type Pattern, PatternCompiler } from "../src/patterns/mod.ts";

const LINES = 1_000_000;
const ROUNDS = 3;

function makeLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) {
    switch (i % 4) {
      case 0:
        lines.push("y");
        break;
      case 1:
        lines.push(`2026-11-23 05:00:00 INFO worker ${i} processed job ${i * 7}`);
        break;
      case 2:
        lines.push(`   ${i} bytes copied`);
        break;
      default:
        lines.push(`[${i}] GET /api/v1/items 200 3ms`);
    }
  }
  return lines;
}

/** Best of ROUNDS, in ns per line. */
function perLine(lines: string[], test: (line: string) => boolean): number {
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    let hits = 0;
    const started = performance.now();
    for (let i = 0; i < lines.length; i++) if (test(lines[i])) hits++;
    const ms = performance.now() - started;
    if (hits !== 0) throw new Error(`unexpected match (${hits})`);
    best = Math.min(best, ms);
  }
  return (best * 1e6) / lines.length;
}

function perChunk(chunk: string, lines: number, find: (chunk: string) => unknown): number {
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    if (find(chunk)) throw new Error("unexpected match");
    best = Math.min(best, performance.now() - started);
  }
  return (best * 1e6) / lines;
}

const ns = (n: number) => `${n.toFixed(1)} ns`.padStart(9);

async function matching(): Promise<void> {
  const lines = makeLines();
  const chunk = lines.join("\n");
  const cases: { label: string; source: string; regex: boolean; native: RegExp }[] = [
    { label: "literal (regex: false)", source: "listening on port", regex: false, native: /listening on port/ },
    { label: "listening on port \\d+", source: "listening on port \\d+", regex: true, native: /listening on port \d+/ },
    { label: "(?i)error", source: "(?i)error", regex: true, native: /error/i },
    { label: "^>>> $", source: "^>>> $", regex: true, native: /^>>> $/ },
    { label: "\\bfail(ed|ure)?\\b", source: "\\bfail(ed|ure)?\\b", regex: true, native: /\bfail(ed|ure)?\b/ },
    { label: "^\\s*\\$ $", source: "^\\s*\\$ $", regex: true, native: /^\s*\$ $/ },
  ];
  console.log(`per-line test, ${LINES.toLocaleString("en")} short non-matching lines (best of ${ROUNDS})`);
  console.log(
    `  ${"pattern".padEnd(24)} ${"RegExp".padStart(9)} ${"Pattern".padStart(9)}  ${"chunk: RegExp m".padStart(15)} ${
      "firstMatchingLine".padStart(17)
    }`,
  );
  for (const c of cases) {
    const pattern: Pattern = await compilePattern(c.source, { regex: c.regex });
    const native = c.native;
    const nativeMulti = new RegExp(native.source, native.flags + "m");
    const a = perLine(lines, (line) => native.test(line));
    const b = perLine(lines, (line) => pattern.test(line));
    const d = perChunk(chunk, LINES, (text) => nativeMulti.test(text));
    const e = perChunk(chunk, LINES, (text) => pattern.firstMatchingLine(text));
    console.log(`  ${c.label.padEnd(24)} ${ns(a)} ${ns(b)}  ${ns(d).padStart(15)} ${ns(e).padStart(17)}`);
  }
  // The chunk test passes, so lines are tested one by one up to the match.
  console.log("firstMatchingLine with the match on the last line (per line of the chunk)");
  for (const c of cases.slice(1)) {
    const pattern = await compilePattern(c.source, { regex: c.regex });
    const last =
      ({ "(?i)error": "ERROR", "^>>> $": ">>> ", "^\\s*\\$ $": "  $ " } as Record<string, string>)[c.source] ??
        "build failed: listening on port 80";
    const hit = `${chunk}\n${last}`;
    let best = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      if (pattern.firstMatchingLine(hit)?.line !== last) throw new Error(`no match for ${c.source}`);
      best = Math.min(best, performance.now() - started);
    }
    console.log(`  ${c.label.padEnd(24)} ${ns((best * 1e6) / (LINES + 1))}`);
  }
}

async function compiling(): Promise<void> {
  const compiler = new PatternCompiler();
  let started = performance.now();
  await compiler.compile("listening on port \\d+");
  const first = performance.now() - started;
  const sources = ["listening on port \\d+", "^\\s*\\$ $", "\\bfail(ed|ure)?\\b", "(\\w+\\s?)*$", "(?i)warn|error"];
  const n = 2000;
  started = performance.now();
  for (let i = 0; i < n; i++) await compiler.compile(sources[i % sources.length]);
  const warm = (performance.now() - started) / n;
  started = performance.now();
  for (let i = 0; i < n; i++) await compiler.compile("plain literal", { regex: false });
  const literal = (performance.now() - started) / n;
  started = performance.now();
  for (let i = 0; i < n; i++) new RegExp(sources[i % sources.length].replace("(?i)", ""));
  const native = (performance.now() - started) / n;
  console.log("\ncompile");
  console.log(`  first regex (loads the engine, cold JIT)  ${first.toFixed(1)} ms`);
  console.log(
    `  regex, engine loaded                      ${(warm * 1000).toFixed(0)} µs  (RegExp: ${
      (native * 1000).toFixed(1)
    } µs)`,
  );
  console.log(`  literal                                   ${(literal * 1000).toFixed(1)} µs`);
}

/** Median wall time of `deno run` per script, in ms; runs interleaved so machine noise hits all alike. */
async function runMs(scripts: string[], runs: number): Promise<number[]> {
  const config = new URL("../deno.json", import.meta.url).pathname;
  const times: number[][] = scripts.map(() => []);
  for (let i = 0; i <= runs; i++) {
    for (const [k, script] of scripts.entries()) {
      const started = performance.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", "--no-prompt", "--config", config, script],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
      if (i > 0) times[k].push(performance.now() - started); // the first round warms the cache
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

async function importing(): Promise<void> {
  const runs = 25;
  const dir = await Deno.makeTempDir({ prefix: "bench_patterns" });
  const mod = new URL("../src/patterns/mod.ts", import.meta.url).href;
  const scripts = {
    empty: "export {};\n",
    import: `import { PatternCompiler } from "${mod}";\nnew PatternCompiler();\n`,
    literal: `import { PatternCompiler } from "${mod}";\nawait new PatternCompiler().compile("x", { regex: false });\n`,
    regex: `import { PatternCompiler } from "${mod}";\nawait new PatternCompiler().compile("x\\\\d+");\n`,
  };
  try {
    const paths: string[] = [];
    for (const [name, text] of Object.entries(scripts)) {
      paths.push(`${dir}/${name}.ts`);
      await Deno.writeTextFile(`${dir}/${name}.ts`, text);
    }
    const [empty, imported, literal, regex] = await runMs(paths, runs);
    const plus = (ms: number) => `${ms - empty >= 0 ? "+" : ""}${(ms - empty).toFixed(1)} ms`;
    console.log(`\nstart-up (median of ${runs} \`deno run\` each, interleaved, warm cache)`);
    console.log(`  empty script                        ${empty.toFixed(1)} ms`);
    console.log(`  import the module                   ${plus(imported)}`);
    console.log(`  + compile a literal                 ${plus(literal)}`);
    console.log(`  + compile a regex (loads re2js)     ${plus(regex)}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Cost of one adversarial line by program size: `(?:a|ab|ba)(?:[ab]|aa){N}d` on random a/b text
 * ending in "d" (the required string is there, so nothing short-cuts the automaton). Median of
 * five, after a warm-up, for test() and for firstMatchingLine() on the line.
 */
async function adversarial(): Promise<void> {
  const compiler = new PatternCompiler({ maxProgramSize: 100_000 });
  const engine = await import("re2js");
  let x = 7;
  const random = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const line = Array.from({ length: 4095 }, () => (random() < 0.5 ? "a" : "b")).join("") + "d";
  console.log("\nadversarial 4,096-character line, ms (median of 5):");
  for (const n of [25, 60, 120, 180, 250]) {
    const source = `(?:a|ab|ba)(?:[ab]|aa){${n}}d`;
    const size = engine.RE2JS.compile(source).programSize();
    const pattern = await compiler.compile(source);
    const time = (run: () => unknown) => {
      run();
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        run();
        samples.push(performance.now() - started);
      }
      return samples.sort((a, b) => a - b)[2];
    };
    const test = time(() => pattern.test(line));
    const chunk = time(() => pattern.firstMatchingLine(line + "\n"));
    console.log(
      `  ${String(size).padStart(5)} instructions  test ${test.toFixed(1).padStart(6)}  ` +
        `firstMatchingLine ${chunk.toFixed(1).padStart(6)}   ${source}`,
    );
  }
}

if (Deno.args.includes("--only") && Deno.args[Deno.args.indexOf("--only") + 1] === "adversarial") {
  await adversarial();
} else {
  await compiling();
  await matching();
  await importing();
  await adversarial();
}
