/** An operator mistake in flags or environment, reported at start-up as one line (exit status 2). */
export class ConfigError extends Error {}
