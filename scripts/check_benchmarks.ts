/**
 * Checks docs/BENCHMARKS.md, the reference of measured figures, so that it cannot drift into a
 * diary again: every `## ` section holds a figure table; every row of a figure table has every
 * cell filled, a figure (a digit) in its `now` cell, a command that runs a script that exists
 * (`scripts/…`, a `deno task` whose command names one, or a test in `tests/`), and the commit it
 * was measured on; and the file stays under its size limit. tests/benchmarks_doc_test.ts runs it.
 *
 *   deno run --allow-read --allow-run=git scripts/check_benchmarks.ts   prints each problem, exit 1 if any
 */

export const BENCHMARKS_DOC = new URL("../docs/BENCHMARKS.md", import.meta.url);
const ROOT = new URL("../", import.meta.url);

/** At most ~40 KB: a reference a person reads, not every run ever made (those are in git). */
export const MAX_BYTES = 40 * 1024;

/** The columns of every figure table, in this order. */
export const COLUMNS = ["figure", "now", "goal", "met", "command", "measured"] as const;

/** Cells that look filled but say nothing. */
const PLACEHOLDERS = new Set(["", "-", "—", "–", "?", "tbd", "todo", "n/a?", "…", "..."]);

/** What the checker needs to know of the repository: which files exist, and the deno.json tasks. */
export interface Repository {
  exists(path: string): boolean;
  tasks: Record<string, string>;
  /** Whether a commit is in the history; undefined where that cannot be asked (no git, no history). */
  hasCommit(hash: string): boolean | undefined;
}

/** Every problem with `text` as a benchmarks reference; empty when it is sound. */
export function checkBenchmarks(text: string, repository: Repository): string[] {
  const problems: string[] = [];
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_BYTES) problems.push(`the file is ${bytes} bytes, over the ${MAX_BYTES}-byte limit`);
  for (const section of sections(text)) {
    const tables = figureTables(section.lines);
    if (tables.length === 0) problems.push(`"${section.title}": no figure table (| ${COLUMNS.join(" | ")} |)`);
    for (const table of tables) {
      if (table.rows.length === 0) problems.push(`"${section.title}": a figure table without rows`);
      for (const row of table.rows) problems.push(...checkRow(row, `"${section.title}" line ${row.line}`, repository));
    }
  }
  return problems;
}

interface Section {
  title: string;
  lines: { text: string; line: number }[];
}

function sections(text: string): Section[] {
  const found: Section[] = [];
  text.split("\n").forEach((line, index) => {
    const heading = /^## (.+)$/.exec(line);
    if (heading) found.push({ title: heading[1], lines: [] });
    else found.at(-1)?.lines.push({ text: line, line: index + 1 });
  });
  return found;
}

interface Row {
  cells: string[];
  line: number;
}

/** The tables whose header is exactly COLUMNS, with their body rows. */
function figureTables(lines: Section["lines"]): { rows: Row[] }[] {
  const tables: { rows: Row[] }[] = [];
  let current: { rows: Row[] } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const { text, line } = lines[i];
    if (!text.startsWith("|")) {
      current = null;
      continue;
    }
    const cells = splitRow(text);
    if (current) {
      current.rows.push({ cells, line });
    } else if (cells.join("|") === COLUMNS.join("|") && /^\|[\s:|-]+\|$/.test(lines[i + 1]?.text ?? "")) {
      current = { rows: [] };
      tables.push(current);
      i++; // the separator row
    }
  }
  return tables;
}

/** A markdown table row's cells, trimmed; `\|` inside a cell stays in the cell. */
function splitRow(text: string): string[] {
  return text.slice(1, text.endsWith("|") ? -1 : undefined).split(/(?<!\\)\|/).map((cell) => cell.trim());
}

function checkRow(row: Row, where: string, repository: Repository): string[] {
  if (row.cells.length !== COLUMNS.length) return [`${where}: ${row.cells.length} cells, not ${COLUMNS.length}`];
  const problems: string[] = [];
  const cell = Object.fromEntries(COLUMNS.map((name, i) => [name, row.cells[i]])) as Record<
    typeof COLUMNS[number],
    string
  >;
  for (const name of COLUMNS) {
    if (PLACEHOLDERS.has(cell[name].toLowerCase())) problems.push(`${where}: the ${name} cell is empty`);
  }
  if (!/\d/.test(cell.now)) problems.push(`${where}: the now cell holds no figure`);
  problems.push(...checkCommand(cell.command, where, repository));
  const commits = [...cell.measured.matchAll(/`([0-9a-f]{7,40})`/g)].map(([, hash]) => hash);
  if (commits.length === 0) problems.push(`${where}: the measured cell names no commit`);
  for (const hash of commits) {
    if (repository.hasCommit(hash) === false) problems.push(`${where}: commit ${hash} is not in the history`);
  }
  return problems;
}

/** The command must run something that exists: a script, a task that runs one, or a test. */
function checkCommand(command: string, where: string, repository: Repository): string[] {
  const spans = [...command.matchAll(/`([^`]+)`/g)].map(([, span]) => span);
  if (spans.length === 0) return [`${where}: the command cell has no command in backquotes`];
  const problems: string[] = [];
  let runs = 0;
  for (const span of spans) {
    for (const [path] of span.matchAll(/(?:scripts|tests)\/[\w./-]+\.ts/g)) {
      if (repository.exists(path)) runs++;
      else problems.push(`${where}: ${path} does not exist`);
    }
    const task = /(?:^|\s)deno task ([\w:-]+)/.exec(span);
    if (task) {
      const script = /scripts\/[\w./-]+\.ts/.exec(repository.tasks[task[1]] ?? "");
      if (!(task[1] in repository.tasks)) problems.push(`${where}: no deno task ${task[1]}`);
      else if (!script) problems.push(`${where}: deno task ${task[1]} runs no script in scripts/`);
      else if (!repository.exists(script[0])) {
        problems.push(`${where}: deno task ${task[1]} runs ${script[0]}, missing`);
      } else runs++;
    }
  }
  if (runs === 0 && problems.length === 0) problems.push(`${where}: the command names no script, task or test`);
  return problems;
}

/** This checkout, as the checker sees it. */
export async function thisRepository(): Promise<Repository> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  // Commits are looked up only in a whole history: a shallow clone (CI's checkout) lacks the older ones.
  const history = git("rev-parse", "--is-shallow-repository") === "false";
  return {
    exists: (path) => {
      try {
        return Deno.statSync(new URL(path, ROOT)).isFile;
      } catch {
        return false;
      }
    },
    tasks: config.tasks ?? {},
    hasCommit: (hash) => history ? git("cat-file", "-e", `${hash}^{commit}`) !== null : undefined,
  };
}

/** git's output, trimmed; null when it fails or cannot be run here (no git, no permission). */
function git(...args: string[]): string | null {
  try {
    const result = new Deno.Command("git", { args, cwd: ROOT, stdout: "piped", stderr: "null" }).outputSync();
    return result.success ? new TextDecoder().decode(result.stdout).trim() : null;
  } catch {
    return null;
  }
}

if (import.meta.main) {
  const problems = checkBenchmarks(await Deno.readTextFile(BENCHMARKS_DOC), await thisRepository());
  for (const problem of problems) console.log(problem);
  console.log(problems.length === 0 ? "docs/BENCHMARKS.md: every row sound" : `${problems.length} problems`);
  Deno.exit(problems.length === 0 ? 0 : 1);
}
