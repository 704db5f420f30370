import assert from "node:assert/strict";
import { compilePattern, type Pattern, PatternCompiler, PatternError } from "../src/patterns/mod.ts";

// Lines a pane may print: ASCII, trailing and odd whitespace, emoji, CJK, combining marks.
const LINES = [
  "",
  "server listening on port 8080",
  "Listening on port 80",
  "listening on port ",
  ">>> ",
  ">>> print(1)",
  "user@host:~/src$ ",
  "$ ",
  "  $ ",
  "name? ",
  "name?",
  "test result: FAILED. 3 passed; 1 failed",
  "error: could not compile `x`",
  "ERROR 42: disk full",
  "build failure at 10:42:07",
  "colour and color",
  "192.168.0.1 - - [10/Oct/2026:13:55:36] GET /index.html",
  "key = value # comment",
  "tab\tseparated\tline",
  "nbsp\u00a0here and\u00a0there\u3000end",
  "emoji 😀 grin 😃 smile",
  "漢字テスト 中文 한국어",
  "cafe\u0301 vs café",
  "foo.bar(baz)",
  "a".repeat(200),
  "[INFO] 2026-11-23T05:00:00Z started worker-7",
];

// Patterns whose JavaScript (`u` flag) and RE2 meanings coincide.
const PATTERNS = [
  "listening on port \\d+",
  "^\\s*\\$ $",
  "\\bfail(ed|ure)?\\b",
  "[A-Z][a-z]+:",
  "(?:foo|bar)+\\(baz\\)",
  "\\d{1,3}(\\.\\d{1,3}){3}",
  "^[^#]*$",
  "colou?r",
  "o.*?o",
  "\\w+@\\w+:",
  "^>>> $",
  "name\\? $",
  "\\s\\S+\\s",
  "😀.*😃",
  "[漢字]+",
  "e\\u0301",
  "^.{5}$",
  "worker-(?<n>\\d+)$",
  "\\p{Lu}{2,}",
  "[^\\x00-\\x7f]",
  "a{3,}",
  "^$",
  "[\\]\\[]",
  "\\t\\w+\\t",
];

async function compileAll(sources: string[]): Promise<Pattern[]> {
  const compiler = new PatternCompiler();
  return await Promise.all(sources.map((s) => compiler.compile(s)));
}

Deno.test("compilePattern() agrees with native RegExp on typical patterns and lines", async () => {
  const patterns = await compileAll(PATTERNS);
  for (const pattern of patterns) {
    const native = new RegExp(pattern.source, "u");
    for (const line of LINES) {
      const label = `${pattern.source} on ${JSON.stringify(line)}`;
      assert.equal(pattern.test(line), native.test(line), label);
      assert.equal(pattern.match(line), native.exec(line)?.[0] ?? null, label);
    }
  }
});

Deno.test("compilePattern() finds the same first line in a chunk as a per-line native loop", async () => {
  const patterns = await compileAll([...PATTERNS, "error", "(?i)error", "^\\$ $", "port$", "^key"]);
  const chunks = [LINES.join("\n"), LINES.join("\n") + "\n", [...LINES].reverse().join("\n"), "", "\n", "x\n\ny"];
  for (const pattern of patterns) {
    const native = pattern.source.startsWith("(?i)")
      ? new RegExp(pattern.source.slice(4), "iu")
      : new RegExp(pattern.source, "u");
    for (const chunk of chunks) {
      const lines = chunk === "" ? [] : chunk.replace(/\n$/, "").split("\n");
      let expected = null;
      let index = 0;
      for (const line of lines) {
        const m = native.exec(line);
        if (m) {
          expected = { line, match: m[0], index };
          break;
        }
        index += line.length + 1;
      }
      assert.deepEqual(pattern.firstMatchingLine(chunk), expected, `${pattern.source} on ${JSON.stringify(chunk)}`);
    }
  }
});

Deno.test("compilePattern() matches a literal with string search when regex is false", async () => {
  const p = await compilePattern("a.b(c)*", { regex: false });
  assert.equal(p.isRegex, false);
  assert.equal(p.test("xa.b(c)*y"), true);
  assert.equal(p.test("aXb(c)"), false);
  assert.equal(p.match("-a.b(c)*-"), "a.b(c)*");
  assert.deepEqual(p.firstMatchingLine("no\nyes a.b(c)*\n"), { line: "yes a.b(c)*", match: "a.b(c)*", index: 3 });
  const folded = await compilePattern("Done ✓", { regex: false, ignoreCase: true });
  assert.equal(folded.match("all DONE ✓"), "DONE ✓");
});

Deno.test("compilePattern() treats a regex without metacharacters as a literal, anchors included", async () => {
  const cases: [string, string, boolean][] = [
    ["^foo", "foobar", true],
    ["^foo", "a foo", false],
    ["foo$", "a foo", true],
    ["foo$", "foo ", false],
    ["^foo$", "foo", true],
    ["^foo$", "foo\n", false],
    ["name\\? $", "name? ", true],
    ["name\\? $", "name?", false],
    ["name\\? $", "name?  ", false],
    ["^$", "", true],
    ["^$", " ", false],
    ["\\$\\{x\\}", "echo ${x}", true],
  ];
  for (const [source, text, expected] of cases) {
    const p = await compilePattern(source);
    assert.equal(p.test(text), expected, `${source} on ${JSON.stringify(text)}`);
    assert.equal(p.test(text), new RegExp(source).test(text), `${source} agrees with RegExp`);
  }
  assert.deepEqual((await compilePattern("^ab")).firstMatchingLine("xab\nab"), { line: "ab", match: "ab", index: 4 });
  assert.deepEqual((await compilePattern("ab$")).firstMatchingLine("abx\nzab\n"), {
    line: "zab",
    match: "ab",
    index: 4,
  });
  assert.equal((await compilePattern("^$")).firstMatchingLine("a\n"), null);
  assert.deepEqual((await compilePattern("^$")).firstMatchingLine("a\n\nb"), { line: "", match: "", index: 2 });
});

Deno.test("compilePattern() ignores case with (?i) or the ignoreCase option", async () => {
  for (const [source, options] of [["(?i)error", {}], ["error", { ignoreCase: true }]] as const) {
    const p = await compilePattern(source, options);
    assert.equal(p.match("fatal ERROR: x"), "ERROR", source);
    assert.equal(p.test("errno"), false, source);
    assert.deepEqual(p.firstMatchingLine("ok\nErRoR\n"), { line: "ErRoR", match: "ErRoR", index: 3 }, source);
  }
  assert.equal((await compilePattern("(?i)café")).test("CAFÉ"), true);
  assert.equal(
    (await compilePattern("listening on PORT \\d+", { ignoreCase: true })).test("Listening on port 8"),
    true,
  );
  assert.equal((await compilePattern("(?i)^>>> $")).test(">>> "), true);
});

Deno.test("compilePattern() matches Unicode by code point: emoji, CJK, combining marks", async () => {
  const cases: [string, string, string | null][] = [
    ["^.$", "😀", "😀"],
    ["^..$", "e\u0301", "e\u0301"],
    ["中+", "漢中中字", "中中"],
    ["\\u{1F600}", "a😀b", "😀"],
    ["\\uD83D\\uDE00", "a😀b", "😀"],
    ["\\x{1F603}", "😃", "😃"],
    ["[😀-😂]+", "x😁😂y", "😁😂"],
    ["\\w+", "中文abc", "abc"],
    ["\\bfoo\\b", "中foo中", "foo"],
    ["\\s", "a\u00a0b", "\u00a0"],
    ["\\S+", "\u3000中文\u3000", "中文"],
    ["\\p{Script=Han}+", "ab漢字", "漢字"],
  ];
  for (const [source, text, expected] of cases) {
    assert.equal((await compilePattern(source)).match(text), expected, `${source} on ${JSON.stringify(text)}`);
  }
});

Deno.test("compilePattern() accepts JavaScript-only spellings", async () => {
  const cases: [string, string, string | null][] = [
    ["\\u0041\\x42", "xABy", "AB"],
    ["\\cA", "a\x01b", "\x01"],
    ["a[^]b", "a\nb", "a\nb"],
    ["a[]b", "ab", null],
    ["(?<year>\\d{4})-(?<month>\\d\\d)", "on 2026-11-23", "2026-11"],
    ["\\/usr\\/bin", "/usr/bin/env", "/usr/bin"],
    ["[\\b]", "a\bb", "\b"],
    ["a{,2}", "a{,2}", "a{,2}"],
    ["\\0", "a\0", "\0"],
  ];
  for (const [source, text, expected] of cases) {
    assert.equal((await compilePattern(source)).match(text), expected, `${source} on ${JSON.stringify(text)}`);
  }
});

Deno.test("compilePattern() keeps firstMatchingLine to single lines when a class could span a newline", async () => {
  const p = await compilePattern("a[^x]*b");
  assert.equal(p.firstMatchingLine("a\nb\n"), null);
  assert.deepEqual(p.firstMatchingLine("a\nb\nazb"), { line: "azb", match: "azb", index: 4 });
  const anchored = await compilePattern("\\Afoo\\z");
  assert.deepEqual(anchored.firstMatchingLine("a\nfoo\nb"), { line: "foo", match: "foo", index: 2 });
});

Deno.test("compilePattern() tests only lines holding a string every match needs, and whole lines", async () => {
  const p = await compilePattern("port \\d+");
  assert.deepEqual(p.firstMatchingLine("port x\nthe port 8 is\n"), {
    line: "the port 8 is",
    match: "port 8",
    index: 7,
  });
  assert.deepEqual(p.firstMatchingLine("port\nport port 9"), { line: "port port 9", match: "port 9", index: 5 });
  assert.equal(p.firstMatchingLine("port \n8"), null);
  assert.equal((await compilePattern("a\\nb")).firstMatchingLine("a\nb"), null);
  assert.equal((await compilePattern("a\\nb")).test("a\nb"), true);
});

Deno.test("compilePattern() finishes catastrophic-backtracking classics quickly", async () => {
  const compiler = new PatternCompiler();
  await compiler.compile("warm(up)+"); // engine load is not what is timed
  const sentence = "the quick brown fox jumps over the lazy dog ".repeat(300) + "!";
  const cases: [string, string][] = [
    ["^(a+)+$", "a".repeat(40) + "b"],
    ["(a|aa)*b", "a".repeat(5000)],
    ["(x+x+)+y", "x".repeat(5000)],
    ["(.*a){20}", "a".repeat(20_000) + "b".repeat(20_000)],
    ["^(\\w+\\s?)*$", sentence],
    ["^(([a-z])+.)+[A-Z]([a-z])+$", "a".repeat(64 * 1024)],
    ["(\\w+\\s?)+x$", "ab ".repeat(64 * 1024 / 3)],
  ];
  const started = performance.now();
  for (const [source, text] of cases) {
    const p = await compiler.compile(source);
    p.test(text);
    p.match(text);
    p.firstMatchingLine(`${text}\n${text}`);
  }
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 500, `took ${elapsed.toFixed(0)} ms`);
});

Deno.test("compilePattern() rejects bad patterns with a message naming the pattern and the reason", async () => {
  const cases: [string, string | RegExp][] = [
    ["(a", 'Invalid regex "(a": missing closing )'],
    ["a)", 'Invalid regex "a)": unexpected )'],
    ["[a", /^Invalid regex "\[a": missing closing \]/],
    ["a{1001}", 'Invalid regex "a{1001}": invalid repeat count "{1001}"'],
    ["\\e", 'Invalid regex "\\\\e": invalid escape sequence "\\\\e"'],
    ["foo(?=bar)", /^Invalid regex "foo\(\?=bar\)": lookahead \(\?=…\) is not supported \(patterns use RE2 syntax/],
    ["foo(?!bar)", /: negative lookahead \(\?!…\) is not supported .*negated class/],
    ["(?<=a)b", /: lookbehind \(\?<=…\) is not supported/],
    ["(?<!a)b", /: negative lookbehind \(\?<!…\) is not supported/],
    ["(a)\\1", /: backreference \\1 is not supported .*repeat the text itself$/],
    ["(?<n>a)\\k<n>", /: backreference \\k<…> is not supported/],
    ["a++", /: possessive quantifier is not supported/],
    ["(?>a)", /: atomic group \(\?>…\) is not supported/],
  ];
  for (const [source, message] of cases) {
    const error = await compilePattern(source).then(() => null, (e) => e);
    assert.ok(error instanceof PatternError && error instanceof RangeError, `${source}: ${error}`);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    assert.doesNotMatch(error.message, /\n|\bat \S+:\d+|\.$/, `${source}: one line, no stack, no final period`);
  }
});

Deno.test("compilePattern() rejects empty, over-long and over-complex patterns", async () => {
  await assert.rejects(compilePattern(""), { name: "PatternError", message: "Invalid regex: empty" });
  await assert.rejects(compilePattern("", { regex: false }), { message: "Invalid pattern: empty" });
  await assert.rejects(
    compilePattern("x".repeat(10_001)),
    { message: `Invalid regex "${"x".repeat(60)}…": 10001 characters, limit 10000` },
  );
  await assert.rejects(
    new PatternCompiler({ maxLength: 8 }).compile("abcdefghi", { regex: false }),
    { message: 'Invalid pattern "abcdefghi": 9 characters, limit 8' },
  );
  await assert.rejects(compilePattern("(?:\\w*a|b\\w*){500}c"), { message: /: too complex \(3503 instructions/ });
  await assert.rejects(compilePattern("(a", { what: "ready regex" }), {
    message: 'Invalid ready regex "(a": missing closing )',
  });
});

Deno.test("PatternCompiler loads the regex engine only for a regex, and once", async () => {
  let loads = 0;
  const compiler = new PatternCompiler({
    loadEngine: () => {
      loads++;
      return import("re2js");
    },
  });
  await compiler.compile("a.b", { regex: false });
  await compiler.compile("^plain literal\\.$");
  await compiler.compile("(?i)error");
  assert.equal(loads, 0);
  await Promise.all([compiler.compile("a+b"), compiler.compile("\\d+")]);
  assert.equal(loads, 1);
});
