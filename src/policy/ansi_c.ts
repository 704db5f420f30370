/** Decodes the body of a `$'…'` word (bash's ANSI-C quoting); `at` is just past the opening quote. */
export function readAnsiC(src: string, at: number): { text: string; end: number } | null {
  let text = "";
  let pos = at;
  while (pos < src.length) {
    const c = src[pos];
    if (c === "'") return { text, end: pos + 1 };
    if (c !== "\\" || pos + 1 >= src.length) {
      text += c;
      pos++;
      continue;
    }
    const n = src[pos + 1];
    pos += 2;
    const simple = SIMPLE[n];
    if (simple !== undefined) {
      text += simple;
    } else if (n === "x" || n === "u" || n === "U") {
      const max = n === "x" ? 2 : n === "u" ? 4 : 8;
      const digits = /^[0-9a-fA-F]*/.exec(src.slice(pos, pos + max))![0];
      pos += digits.length;
      text += digits ? codePoint(parseInt(digits, 16)) : `\\${n}`;
    } else if (n >= "0" && n <= "7") {
      const digits = /^[0-7]*/.exec(src.slice(pos - 1, pos + 2))![0];
      pos += digits.length - 1;
      text += codePoint(parseInt(digits, 8) & 0xff);
    } else if (n === "c" && pos < src.length) {
      text += String.fromCharCode(src.charCodeAt(pos) & 0x1f);
      pos++;
    } else {
      text += `\\${n}`;
    }
  }
  return null;
}

const SIMPLE: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

function codePoint(n: number): string {
  return n <= 0x10ffff ? String.fromCodePoint(n) : "\ufffd";
}
