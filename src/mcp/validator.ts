import { AjvJsonSchemaValidator, type JsonSchemaType, type JsonSchemaValidator } from "./sdk.ts";

/**
 * The SDK's JSON Schema validator (ajv), built on first use. It checks only a person's answer to
 * an elicitation (the policy's `ask`), while building it cost every McpServer — each start and
 * each HTTP session — a few ms before it could answer initialize.
 */
export class LazyJsonSchemaValidator {
  #ajv: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#ajv ??= new AjvJsonSchemaValidator();
    return this.#ajv.getValidator<T>(schema);
  }
}
