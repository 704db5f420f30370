import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * True when the `Authorization: Bearer …` header carries `token`. Both sides are hashed first,
 * so the comparison takes the same time whatever the candidate's length or content.
 */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const match = /^Bearer[ \t]+(.+)$/i.exec(authorization ?? "");
  const candidate = match ? match[1].trim() : "";
  return timingSafeEqual(digest(candidate), digest(token)) && candidate.length > 0;
}
