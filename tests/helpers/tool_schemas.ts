/** Walks the JSON input schemas that tools/list returns, so tests cover every tool generically. */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  anyOf?: JsonSchema[];
}

/** Where a string goes inside a tool's arguments: a property, an array item, a record key or value. */
export interface StringSlot {
  path: string;
  /** The top-level argument that holds the slot. */
  arg: string;
  place(value: string): Record<string, unknown>;
}

function types(schema: JsonSchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(types);
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/** Every string slot of a schema (enums excluded: those are a closed set checked by the schema). */
export function stringSlots(schema: JsonSchema): StringSlot[] {
  const slots: StringSlot[] = [];
  for (const [arg, prop] of Object.entries(schema.properties ?? {})) {
    const t = types(prop);
    if (t.includes("string") && !prop.enum) slots.push({ path: arg, arg, place: (v) => ({ [arg]: v }) });
    if (t.includes("array") && prop.items && types(prop.items).includes("string") && !prop.items.enum) {
      slots.push({ path: `${arg}[]`, arg, place: (v) => ({ [arg]: [v] }) });
    }
    if (t.includes("object") && typeof prop.additionalProperties === "object") {
      if (types(prop.additionalProperties).includes("string")) {
        slots.push({ path: `${arg}{value}`, arg, place: (v) => ({ [arg]: { TW_PROBE: v } }) });
      }
      slots.push({ path: `${arg}{key}`, arg, place: (v) => ({ [arg]: { [v]: "x" } }) });
    }
  }
  return slots;
}

/** A valid, quick value for a non-string argument (numbers small, waits short). */
export function quickValue(name: string, schema: JsonSchema): unknown {
  if (schema.enum) return schema.enum[0];
  const t = types(schema);
  if (t.includes("boolean")) return false;
  if (t.includes("integer") || t.includes("number")) {
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1e9);
    const wanted = /timeout|_ms$|idle|wait/.test(name) ? 100 : 1;
    return Math.min(max, Math.max(min, wanted));
  }
  return undefined;
}

/** Base arguments: required strings get `defaults(name)`, required others a quick valid value. */
export function baseArgs(
  schema: JsonSchema,
  stringDefault: (name: string) => string,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const prop = schema.properties?.[name] ?? {};
    if (types(prop).includes("string") && !prop.enum) args[name] = stringDefault(name);
    else if (types(prop).includes("array")) {
      args[name] = prop.items?.enum ? [prop.items.enum[0]] : [stringDefault(name)];
    } else args[name] = quickValue(name, prop) ?? {};
  }
  // Waits that are optional still get a short bound, so no call blocks for long.
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (!(name in args) && /timeout/.test(name) && quickValue(name, prop) !== undefined) {
      args[name] = quickValue(name, prop);
    }
  }
  return args;
}
