import assert from "node:assert/strict";
import { CommandJudge, parsePolicy } from "../src/policy/mod.ts";

/** Random shell text never makes the judge throw, and its time grows linearly with the text. */
const judge = new CommandJudge(parsePolicy(
  JSON.stringify({ default: "ask", deny: ["rm -rf *", "sudo *"], ask: ["git push *"], allow: ["ls *", "echo *"] }),
  "fuzz.json",
));

const PIECES = [
  " ",
  " ",
  " ",
  "\n",
  "\t",
  ";",
  "&",
  "&&",
  "||",
  "|",
  "|&",
  "(",
  ")",
  "{",
  "}",
  "<",
  ">",
  ">>",
  "<<",
  "<<-",
  "<<<",
  "<(",
  ">(",
  "$(",
  "$((",
  "))",
  "`",
  "'",
  '"',
  "\\",
  "$'",
  '$"',
  "${",
  "$",
  "#",
  "!",
  "*",
  "?",
  "[",
  "]",
  "=",
  "~",
  ",",
  "..",
  "--",
  "-rf",
  "rm",
  "ls",
  "echo",
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "for",
  "in",
  "do",
  "done",
  "while",
  "case",
  "esac",
  ";;",
  "function",
  "[[",
  "]]",
  "sudo",
  "env",
  "sh",
  "-c",
  "bash",
  "eval",
  "xargs",
  "find",
  "-exec",
  "time",
  "timeout",
  "nice",
  "-n",
  "exec",
  "command",
  "builtin",
  "EOF",
  "x",
  "A=1",
  "\\x41",
  "\\n",
  "\u00e9",
  "\u0000",
];

function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

Deno.test("20,000 random shell texts: a verdict every time, never an exception", () => {
  const random = seeded(29);
  for (let n = 0; n < 20_000; n++) {
    let line = "";
    const length = Math.floor(random() * 40);
    for (let i = 0; i < length; i++) line += PIECES[Math.floor(random() * PIECES.length)];
    const judged = judge.judge(line, { interactive: random() < 0.5 });
    assert.ok(["allow", "ask", "deny"].includes(judged.verdict), JSON.stringify(line));
    assert.equal(typeof judged.reason, "string");
  }
});

/** Inputs built to be slow: nesting, re-reading (eval, sh -c, backquotes), long chains of wrappers. */
const HOSTILE: Record<string, (n: number) => string> = {
  "nested $(": (n) => "echo $(".repeat(n) + ")".repeat(n),
  "nested (": (n) => "(".repeat(n) + "ls" + ")".repeat(n),
  "eval chain": (n) => "eval ".repeat(n) + "ls",
  "wrapper chain": (n) => "env nice nohup time ".repeat(n) + "ls",
  "sh -c quoting": (n) => "sh -c '".repeat(n),
  "backquotes": (n) => "`echo \\`".repeat(n) + "`",
  "long chain": (n) => "ls -la x && ".repeat(n) + "ls",
  "many words": (n) => "ls " + "a ".repeat(n * 4),
  "unterminated quote": (n) => "echo '" + "x".repeat(n * 8),
  "heredocs": (n) => "cat <<E <<F\n".repeat(n),
  "arithmetic": (n) => "((".repeat(n) + "1" + "))".repeat(n),
  "braces": (n) => "echo ${x:-".repeat(n) + "}".repeat(n),
  "case": (n) => "case x in " + "a) ls;; ".repeat(n) + "esac",
  "xargs find": (n) => "find . -exec xargs ".repeat(n) + "rm ;",
};

function timeOf(line: string): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    judge.judge(line);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[2];
}

Deno.test("time grows linearly: 8 times the text takes far less than 64 times as long", () => {
  const n = 1_000;
  const slow: string[] = [];
  for (const [name, make] of Object.entries(HOSTILE)) {
    timeOf(make(n)); // warm the JIT
    const small = Math.max(timeOf(make(n)), 0.5);
    const large = timeOf(make(8 * n));
    // Linear is 8x; quadratic would be 64x. Loose bounds: the machine is shared and timings are noisy.
    if (large > 32 * small && large > 50) slow.push(`${name}: ${small.toFixed(2)} ms → ${large.toFixed(2)} ms`);
  }
  assert.deepEqual(slow, []);
});
