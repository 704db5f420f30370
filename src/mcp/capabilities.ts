import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type ServerContext } from "./sdk.ts";

/** The capabilities a 2026-era request declares in its envelope. */
export function envelopeCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  return ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as ClientCapabilities | undefined;
}

/**
 * Whether a 2026-era request's client can answer a form: `elicitation.form`, or a bare
 * `elicitation: {}` (form is what it meant before modes; the SDK counts it the same).
 */
export function canAskForm(ctx: ServerContext): boolean {
  const elicitation = envelopeCapabilities(ctx)?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined) return false;
  return elicitation.form !== undefined || Object.keys(elicitation).length === 0;
}
