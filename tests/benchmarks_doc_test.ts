import assert from "node:assert/strict";
import {
  BENCHMARKS_DOC,
  checkBenchmarks,
  COLUMNS,
  MAX_BYTES,
  type Repository,
  thisRepository,
} from "../scripts/check_benchmarks.ts";

Deno.test("docs/BENCHMARKS.md: every row names its figure, goal, an existing script and its commit; under the limit", async () => {
  const text = await Deno.readTextFile(BENCHMARKS_DOC);
  assert.deepEqual(checkBenchmarks(text, await thisRepository()), []);
});

// The checker itself, on a small reference: what it must refuse.
const repository: Repository = {
  exists: (path) => path === "scripts/bench_exec.ts" || path === "scripts/bench_core.ts" || path === "tests/x_test.ts",
  tasks: { bench: "deno run -A scripts/bench_core.ts", ok: "deno fmt --check" },
  hasCommit: (hash) => hash !== "0000000",
};
const header = `| ${COLUMNS.join(" | ")} |\n| ${COLUMNS.map(() => "---").join(" | ")} |\n`;
const sound = "| `true` | 2.3 ms | ≤ 15 ms | yes | `scripts/bench_exec.ts 100` | `406ed0d`, load 0.7 |";
const doc = (...rows: string[]) => `# Benchmarks\n\n## Exec\n\n${header}${rows.join("\n")}\n`;

Deno.test("the benchmarks check passes a sound row, a task and a test as commands", () => {
  assert.deepEqual(checkBenchmarks(doc(sound), repository), []);
  assert.deepEqual(
    checkBenchmarks(doc(sound.replace("`scripts/bench_exec.ts 100`", "`deno task bench`")), repository),
    [],
  );
  assert.deepEqual(
    checkBenchmarks(doc(sound.replace("`scripts/bench_exec.ts 100`", "`deno test tests/x_test.ts`")), repository),
    [],
  );
});

Deno.test("the benchmarks check refuses broken rows, sections without a table and a file over the limit", () => {
  const refused = (text: string, expected: RegExp) => {
    const problems = checkBenchmarks(text, repository);
    assert.ok(problems.some((problem) => expected.test(problem)), `${expected} not in ${JSON.stringify(problems)}`);
  };
  refused(doc(sound.replace("bench_exec", "bench_gone")), /scripts\/bench_gone\.ts does not exist/);
  refused(doc(sound.replace("`scripts/bench_exec.ts 100`", "`deno task ok`")), /deno task ok runs no script/);
  refused(doc(sound.replace("`scripts/bench_exec.ts 100`", "`deno task nope`")), /no deno task nope/);
  refused(doc(sound.replace("`scripts/bench_exec.ts 100`", "run it by hand")), /no command in backquotes/);
  refused(doc(sound.replace("≤ 15 ms", " ")), /the goal cell is empty/);
  refused(doc(sound.replace("| yes |", "| — |")), /the met cell is empty/);
  refused(doc(sound.replace("2.3 ms", "fast")), /the now cell holds no figure/);
  refused(doc(sound.replace("`406ed0d`", "main")), /the measured cell names no commit/);
  refused(doc(sound.replace("406ed0d", "0000000")), /commit 0000000 is not in the history/);
  refused(doc(sound.replace(" | yes |", " |")), /5 cells, not 6/);
  refused(`${doc(sound)}\n## Prose only\n\nNo table here.\n`, /"Prose only": no figure table/);
  refused(doc(...Array(Math.ceil(MAX_BYTES / sound.length) + 1).fill(sound)), /over the \d+-byte limit/);
});
