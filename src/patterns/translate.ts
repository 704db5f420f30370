/**
 * Rewrites a JavaScript-flavoured pattern into RE2 syntax, and rejects what RE2 cannot match in
 * linear time with a reason that names the construct and what to write instead.
 */

/** A construct the engine cannot match; its message completes `Invalid regex "…": `. */
export class UnsupportedSyntax extends Error {}

export interface Translation {
  /** The pattern in RE2 syntax, every group made non-capturing (no caller reads groups). */
  re2: string;
  /**
   * True when every line re2 matches alone also matches `(?m)` + re2 inside a chunk of lines:
   * false if the pattern uses `\A`, `\z` or sets the `m` flag itself.
   */
  lineLocal: boolean;
}

const WHY = "(patterns use RE2 syntax, matched in linear time)";

function unsupported(what: string, instead: string): never {
  throw new UnsupportedSyntax(`${what} is not supported ${WHY}; ${instead}`);
}

// JavaScript's \s (ECMAScript WhiteSpace + LineTerminator); RE2's \s is only [\t\n\f\r ].
const SPACE_RANGES = "\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}" +
  "\\x{3000}\\x{feff}";
const NON_SPACE_RANGES = "\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}" +
  "\\x{200b}-\\x{2027}\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}";
const ANY = "\\x{0}-\\x{10ffff}";
// JavaScript spells Unicode properties `\p{Script=Greek}`; RE2 only `\p{Greek}`.
const PROPERTY_PREFIX = /^(?:Script|sc|Script_Extensions|scx|General_Category|gc)=/;
const REPEAT = /^\{\d+(?:,\d*)?\}/;
const FLAG_GROUP = /^\(\?([A-Za-z]*)(?:-([A-Za-z]*))?[:)]/;
const GROUP_NAME = /^[A-Za-z_$][\w$]*>/;

/** Translates `source`; throws UnsupportedSyntax. Errors RE2 itself reports are left to it. */
export function translate(source: string): Translation {
  const out: string[] = [];
  let lineLocal = true;
  let i = 0;

  // Copies `\Q…\E` verbatim: inside it nothing is special.
  const quoted = (at: number): number => {
    const end = source.indexOf("\\E", at + 2);
    const stop = end < 0 ? source.length : end + 2;
    out.push(source.slice(at, stop));
    return stop;
  };

  const escape = (at: number, inClass: boolean): number => {
    const c = source[at + 1];
    if (c === undefined) {
      out.push("\\"); // RE2 reports the trailing backslash
      return at + 1;
    }
    if (c >= "1" && c <= "9" && !inClass) {
      const digits = /^\d+/.exec(source.slice(at + 1))![0];
      unsupported(`backreference \\${digits}`, "repeat the text itself");
    }
    switch (c) {
      case "0":
        if (/\d/.test(source[at + 2] ?? "")) break; // legacy octal, same in RE2
        out.push("\\x{0}");
        return at + 2;
      case "k":
        if (source[at + 2] === "<") unsupported("backreference \\k<…>", "repeat the text itself");
        break;
      case "u": {
        const braced = /^\{([0-9A-Fa-f]+)\}/.exec(source.slice(at + 2));
        if (braced) {
          out.push(`\\x{${braced[1]}}`);
          return at + 2 + braced[0].length;
        }
        const hex = /^[0-9A-Fa-f]{4}/.exec(source.slice(at + 2));
        if (!hex) break;
        let cp = parseInt(hex[0], 16);
        let next = at + 6;
        const low = /^\\u([dD][c-fC-F][0-9A-Fa-f]{2})/.exec(source.slice(next));
        if (cp >= 0xd800 && cp <= 0xdbff && low) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(low[1], 16) - 0xdc00);
          next += 6;
        }
        out.push(`\\x{${cp.toString(16)}}`);
        return next;
      }
      case "c": {
        const letter = source[at + 2] ?? "";
        if (!/[A-Za-z]/.test(letter)) break;
        out.push(`\\x{${(letter.charCodeAt(0) % 32).toString(16)}}`);
        return at + 3;
      }
      case "s":
        out.push(inClass ? SPACE_RANGES : `[${SPACE_RANGES}]`);
        return at + 2;
      case "S":
        out.push(inClass ? NON_SPACE_RANGES : `[^${SPACE_RANGES}]`);
        return at + 2;
      case "b":
        out.push(inClass ? "\\x{8}" : "\\b");
        return at + 2;
      case "p":
      case "P": {
        const prop = /^\{([^}]*)\}/.exec(source.slice(at + 2));
        if (!prop) break;
        out.push(`\\${c}{${prop[1].replace(PROPERTY_PREFIX, "")}}`);
        return at + 2 + prop[0].length;
      }
      case "x": {
        // Copied whole, so the main loop never reads `{1F600}` as a repeat.
        const hex = /^x(?:\{[^}]*\}|[0-9A-Fa-f]{0,2})/.exec(source.slice(at + 1))!;
        out.push("\\", hex[0]);
        return at + 1 + hex[0].length;
      }
      case "A":
      case "z":
        lineLocal = false;
        break;
      case "Q":
        return quoted(at);
    }
    if (c.charCodeAt(0) < 0x80) {
      out.push("\\", c); // letters RE2 validates; ASCII punctuation stays itself
      return at + 2;
    }
    // JavaScript reads `\é` as `é`; RE2 rejects escapes of non-ASCII characters.
    const cp = source.codePointAt(at + 1)!;
    out.push(String.fromCodePoint(cp));
    return at + 1 + (cp > 0xffff ? 2 : 1);
  };

  const charClass = (at: number): number => {
    // JavaScript's `[]` matches nothing and `[^]` anything; RE2 reads both as an unclosed class.
    if (source.startsWith("[]", at)) {
      out.push(`[^${ANY}]`);
      return at + 2;
    }
    if (source.startsWith("[^]", at)) {
      out.push(`[${ANY}]`);
      return at + 3;
    }
    let j = at + 1;
    out.push("[");
    if (source[j] === "^") {
      out.push("^");
      j++;
    }
    while (j < source.length) {
      const c = source[j];
      if (c === "]") {
        out.push("]");
        return j + 1;
      }
      if (c === "\\") {
        j = escape(j, true);
      } else if (c === "[" && source[j + 1] === ":") {
        const end = source.indexOf(":]", j + 2);
        const stop = end < 0 ? j + 2 : end + 2; // a POSIX class such as [:alpha:]
        out.push(source.slice(j, stop));
        j = stop;
      } else {
        out.push(c === "[" ? "\\[" : c);
        j++;
      }
    }
    return j; // unclosed: RE2 reports it
  };

  const group = (at: number): number => {
    const rest = source.slice(at, at + 4);
    if (rest[1] !== "?") {
      out.push("(?:");
      return at + 1;
    }
    if (rest.startsWith("(?:")) {
      out.push("(?:");
      return at + 3;
    }
    if (rest.startsWith("(?=")) {
      unsupported("lookahead (?=…)", 'match the following text itself, e.g. "ab" for "a(?=b)"');
    }
    if (rest.startsWith("(?!")) {
      unsupported("negative lookahead (?!…)", 'use a negated class such as "[^b]", or test the text with two patterns');
    }
    if (rest.startsWith("(?<=")) {
      unsupported("lookbehind (?<=…)", 'match the preceding text itself, e.g. "ab" for "(?<=a)b"');
    }
    if (rest.startsWith("(?<!")) {
      unsupported(
        "negative lookbehind (?<!…)",
        'use a negated class such as "[^a]", or test the text with two patterns',
      );
    }
    if (rest.startsWith("(?>")) unsupported("atomic group (?>…)", 'use "(?:…)": RE2 never backtracks');
    if (rest.startsWith("(?#")) unsupported("comment (?#…)", "remove the comment");
    if (rest.startsWith("(?P=")) unsupported("backreference (?P=…)", "repeat the text itself");
    if (/^\(\?(?:R|\d|&|P>|\+|-\d)/.test(rest)) unsupported("recursion", "write the nesting out");
    if (rest.startsWith("(?(")) unsupported("conditional (?(…)…)", 'use an alternation "a|b"');
    const named = rest.startsWith("(?<") ? at + 3 : rest.startsWith("(?P<") ? at + 4 : -1;
    if (named >= 0) {
      const name = GROUP_NAME.exec(source.slice(named, named + 64));
      if (!name) throw new UnsupportedSyntax("invalid group name");
      out.push("(?:");
      return named + name[0].length;
    }
    const flags = FLAG_GROUP.exec(source.slice(at, at + 16));
    if (flags && `${flags[1]}${flags[2] ?? ""}`.includes("m")) lineLocal = false;
    out.push("(?");
    return at + 2; // RE2 checks the flags
  };

  // A quantifier followed by `+` is possessive in PCRE and Java.
  const afterQuantifier = (at: number): number => {
    if (source[at] === "?") {
      out.push("?");
      return at + 1;
    }
    if (source[at] === "+") {
      unsupported("possessive quantifier", "drop the + after the quantifier: RE2 never backtracks");
    }
    return at;
  };

  while (i < source.length) {
    const c = source[i];
    switch (c) {
      case "\\":
        i = escape(i, false);
        break;
      case "[":
        i = charClass(i);
        break;
      case "(":
        i = group(i);
        break;
      case "*":
      case "+":
      case "?":
        out.push(c);
        i = afterQuantifier(i + 1);
        break;
      case "{": {
        const repeat = REPEAT.exec(source.slice(i, i + 24));
        if (repeat) {
          out.push(repeat[0]);
          i = afterQuantifier(i + repeat[0].length);
        } else {
          out.push("\\{"); // JavaScript reads a `{` that starts no repeat as itself
          i++;
        }
        break;
      }
      default:
        out.push(c);
        i++;
    }
  }
  return { re2: out.join(""), lineLocal };
}
