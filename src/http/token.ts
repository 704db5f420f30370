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

/** True when `candidate` is `secret`, compared in constant time (an empty candidate never is). */
export function secretMatches(candidate: string | null, secret: string): boolean {
  const value = candidate ?? "";
  return timingSafeEqual(digest(value), digest(secret)) && value.length > 0;
}
