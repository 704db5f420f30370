/**
 * What tmux 3.4 and 3.5a do to the lines a command prints (display-message -p, list-* -F,
 * show-*): they pass through vis(3) with VIS_OCTAL|VIS_CSTYLE|VIS_NOSLASH, and a `$` before a
 * letter, `_` or `{` gains a backslash (server_client_print; 3.6 prints them raw again). So the
 * field separator 0x1f arrives as the four characters `\037`, a CR as `\r`, `$HOME` as `\$HOME`,
 * while a backslash in the data stays a single backslash. To read such lines exactly, every
 * variable a template prints has its backslashes doubled by tmux itself (`#{s/\\/\\\\/:name}`),
 * so a single backslash in the reply can only start one of tmux's escapes, which `unvis` undoes.
 */

/** Variables that never hold a backslash: ids, numbers and flags (their doubling would be tmux CPU for nothing). */
const PLAIN =
  /^(?:pid|version|start_time|[a-z_]+_(?:id|index|pid|width|height|size|x|y|active|dead|status|signal|flag|on|mode|pipe|time))$/;
const VARIABLE = /#\{([a-z_@][a-z0-9_]*)\}/g;

/** `template` with every variable that could hold a backslash printing it doubled. */
export function doubledBackslashes(template: string): string {
  const literal = template.replaceAll("\\", "\\\\"); // the template's own text is printed too
  return literal.replace(VARIABLE, (whole, name: string) => PLAIN.test(name) ? whole : `#{s/\\\\/\\\\\\\\/:${name}}`);
}

const CSTYLE: Record<string, string> = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", s: " ", t: "\t", v: "\v" };

/**
 * Undoes tmux's vis(3) of a printed line whose data backslashes were doubled: `\\` is a
 * backslash, `\ooo` a byte (one not valid alone in UTF-8 becomes U+FFFD, as a raw invalid byte
 * would), `\r` and the other C escapes their character, `\$` a dollar sign.
 */
export function unvis(line: string): string {
  if (!line.includes("\\")) return line;
  let out = "";
  for (let at = 0; at < line.length; at++) {
    const ch = line[at];
    if (ch !== "\\" || at + 1 >= line.length) {
      out += ch;
      continue;
    }
    const next = line[at + 1];
    const octal = /^[0-7]{3}/.exec(line.slice(at + 1, at + 4));
    if (octal) {
      const code = parseInt(octal[0], 8);
      out += code < 0x80 ? String.fromCharCode(code) : "\uFFFD";
      at += 3;
    } else if (next === "\\" || next === "$") {
      out += next;
      at += 1;
    } else if (next === "0") {
      out += "\0";
      at += 1;
    } else if (next in CSTYLE) {
      out += CSTYLE[next];
      at += 1;
    } else {
      out += ch;
    }
  }
  return out;
}

/** `unvis` of every line of a printed text. */
export function unvisLines(text: string): string {
  return text.includes("\\") ? text.split("\n").map(unvis).join("\n") : text;
}
