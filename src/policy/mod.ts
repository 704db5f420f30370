/**
 * The command policy: which shell command lines may run, which need a person's yes, which never
 * run. A pure module (no I/O but the policy file's read): a POSIX/bash parser that finds every
 * simple command a line would run (through chains, subshells, compound commands, substitutions and
 * wrappers like `sudo` or `sh -c`), and a judge that compares each with the rules. The engine
 * calls the judge where text reaches a shell or a program starts.
 */
export { CommandJudge, type Policy } from "./judge.ts";
export { describePolicy, loadPolicy, parsePolicy, PolicyFileError } from "./policy_file.ts";
export { type Parsed, parseLine } from "./parser.ts";
export type { Judgement, JudgeOptions, SimpleCommand, Verdict, Word } from "./types.ts";
