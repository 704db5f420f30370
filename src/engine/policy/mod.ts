/**
 * The policy gate: where the engine asks the command policy (src/policy/) before text reaches a
 * shell or a program starts, and where an `ask` goes to the person behind the calling client.
 */
export { type Answer, type Ask, type CallScope, type Decision, PolicyGate, type Question } from "./gate.ts";
export type { Typed } from "./typing.ts";
export { type OpenQuestion, OpenQuestions } from "./questions.ts";
