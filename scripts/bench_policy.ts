/**
 * The command policy's judge (src/policy): µs per typical command line under a policy of 20
 * rules, and for inputs built to be slow the time at n and 8n characters side by side (linear is
 * 8x; quadratic would be 64x). Pure computation: no tmux, no permissions.
 *
 *   deno run scripts/bench_policy.ts
 */
import { CommandJudge, parsePolicy } from "../src/policy/mod.ts";
import { median } from "./timing.ts";

const judge = new CommandJudge(parsePolicy(
  JSON.stringify({
    default: "ask",
    deny: ["rm -rf *", "sudo *", "git push --force *", "curl *", "wget *", "dd *", "mkfs *"],
    ask: ["git push *", "git reset --hard *", "npm publish *"],
    allow: [
      "ls *",
      "cat *",
      "grep *",
      "git status *",
      "git diff *",
      "git log *",
      "npm test *",
      "echo *",
      "cd *",
      "pwd",
    ],
  }),
  "bench.json",
));

const TYPICAL = [
  "ls -la",
  "git status",
  "npm test -- --watch=false",
  "cd src && grep -rn 'TODO' . | head -20",
  'for f in *.ts; do echo "$f"; done',
  "bash -c 'rm -rf /tmp/x'",
  "if [ -f x ]; then cat x; else echo none; fi",
  "find . -name '*.o' -exec rm -f {} \\;",
  "sudo -u root env A=1 timeout 5 nice -n 5 make install",
  "cat <<EOF > out.txt\n$(date)\nline two\nEOF",
];

function perCall(line: string, rounds: number): number {
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const started = performance.now();
    for (let i = 0; i < rounds; i++) judge.judge(line);
    times.push((performance.now() - started) / rounds);
  }
  return median(times);
}

for (const line of TYPICAL) perCall(line, 2000); // warm the JIT
const typical = TYPICAL.map((line) => perCall(line, 2000) * 1000);
console.log(
  `typical lines (${TYPICAL.length}): median ${median(typical).toFixed(1)} µs, max ${
    Math.max(...typical).toFixed(1)
  } µs per line`,
);

const HOSTILE: Record<string, (n: number) => string> = {
  "a long chain": (n) => "ls -la x && ".repeat(n / 12) + "ls",
  "many words": (n) => "ls " + "a ".repeat(n / 2),
  "nested $(": (n) => "echo $(".repeat(n / 14) + ")".repeat(n / 14),
  "eval chain": (n) => "eval ".repeat(n / 5) + "ls",
  "wrapper chain": (n) => "env nice nohup time ".repeat(n / 20) + "ls",
  "nested sh -c quotes": (n) => "sh -c '".repeat(n / 7),
  "heredocs": (n) => "cat <<E <<F\n".repeat(n / 12),
  "case items": (n) => "case x in " + "a) ls;; ".repeat(n / 9) + "esac",
  "find/xargs chain": (n) => "find . -exec xargs ".repeat(n / 19) + "rm ;",
  "unterminated quote": (n) => "echo '" + "x".repeat(n),
};
const N = 8_000;
console.log(`\nhostile inputs: ms at ${N} and ${8 * N} characters, and the ratio (linear 8x, quadratic 64x)`);
for (const [name, make] of Object.entries(HOSTILE)) {
  const small = make(N);
  const large = make(8 * N);
  perCall(small, 3);
  const a = perCall(small, 5);
  const b = perCall(large, 2);
  console.log(
    `  ${name.padEnd(22)} ${a.toFixed(2).padStart(8)} ms  ${b.toFixed(2).padStart(8)} ms  ${
      (b / a).toFixed(1).padStart(5)
    }x  ${judge.judge(large).verdict}`,
  );
}
