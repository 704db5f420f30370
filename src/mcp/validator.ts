import { CfWorkerJsonSchemaValidator, type JsonSchemaType, type JsonSchemaValidator } from "./sdk.ts";

/**
 * The JSON Schema validator of a person's answer to the policy's question (a 2025-era
 * elicitation), built on first use: it checks nothing else, and every McpServer (each 2026-era
 * HTTP request makes one) would otherwise build the SDK's default (ajv) before it could answer.
 * `@cfworker/json-schema` (the SDK's own light validator) is enough for a flat form.
 */
export class LazyJsonSchemaValidator {
  #validator: CfWorkerJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#validator ??= new CfWorkerJsonSchemaValidator();
    return this.#validator.getValidator<T>(schema);
  }
}
