// Strict-schema checks for rootbound's tool schemas, run by tests/frontends/schemas.rs.
//
// Input: a JSON file {"tools": [{name, input, output, gemini}], "samples": [{tool, value}]}.
// 1. Every input and output schema compiles with ajv in strict mode, as draft-07 and as 2020-12.
// 2. Every Gemini parameter schema stays inside the function-declaration subset: the fields of the
//    Gemini API's `Schema` object (ai.google.dev/api/caching#Schema: type, format, title, description,
//    nullable, enum, maxItems, minItems, properties, required, minProperties, maxProperties,
//    minLength, maxLength, pattern, example, anyOf, propertyOrdering, default, items, minimum,
//    maximum), `type` a single lowercase name, no `$ref`/`$defs`, no type arrays, no
//    `additionalProperties`, `oneOf`, `allOf`, `const`.
// 3. Every sample result validates against its tool's output schema (as MCP clients check
//    structuredContent).
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020.js";

const doc = JSON.parse(readFileSync(process.argv[2], "utf8"));
const failures = [];
const fail = (msg) => failures.push(msg);

const GEMINI_KEYS = new Set(["type", "format", "title", "description", "nullable", "enum", "maxItems",
  "minItems", "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
  "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"]);
const GEMINI_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

function geminiCheck(schema, at) {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    fail(`${at}: not a schema object`);
    return;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (!GEMINI_KEYS.has(k)) fail(`${at}: key '${k}' is outside Gemini's Schema subset`);
    if (k === "type" && (typeof v !== "string" || !GEMINI_TYPES.has(v))) fail(`${at}: type ${JSON.stringify(v)}`);
  }
  for (const [k, p] of Object.entries(schema.properties ?? {})) geminiCheck(p, `${at}.${k}`);
  if (schema.items) geminiCheck(schema.items, `${at}[]`);
  for (const [i, b] of (schema.anyOf ?? []).entries()) geminiCheck(b, `${at}|${i}`);
}

const drafts = [
  ["draft-07", new Ajv({ strict: true, allErrors: true })],
  ["2020-12", new Ajv2020({ strict: true, allErrors: true })],
];
// Output schemas name draft-07 (the Python SDK client checks each against its dialect's metaschema on
// every call, and 2020-12's costs it 5x); that label is the only one the TypeScript SDK's default ajv
// knows. Under 2020-12 the same body is compiled without the label: a client that ignores `$schema`
// reads it as 2020-12, so it must mean the same there.
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const asDraft = (schema, draft) => {
  if (draft !== "2020-12" || schema.$schema === undefined) return schema;
  const { $schema, ...body } = schema;
  return body;
};
const outputs = new Map();
for (const t of doc.tools) {
  if (t.output.$schema !== DRAFT_07) fail(`${t.name}: output schema's $schema is ${JSON.stringify(t.output.$schema)}, not draft-07`);
  if (t.input.$schema !== undefined) fail(`${t.name}: input schema carries $schema (converters meet it)`);
  for (const [draft, ajv] of drafts) {
    for (const side of ["input", "output"]) {
      try {
        const v = ajv.compile(asDraft(t[side], draft));
        if (side === "output" && draft === "2020-12") outputs.set(t.name, v);
      } catch (e) {
        fail(`${t.name} ${side} (${draft}): ${e.message}`);
      }
    }
  }
  if (t.input.type !== "object" || t.output.type !== "object") fail(`${t.name}: top-level type must be object`);
  geminiCheck(t.gemini, `${t.name}`);
}
let checked = 0;
for (const s of doc.samples) {
  const v = outputs.get(s.tool);
  if (!v) {
    fail(`sample for unknown tool ${s.tool}`);
    continue;
  }
  if (!v(s.value)) fail(`${s.tool} result does not match its outputSchema: ${JSON.stringify(v.errors)}`);
  checked++;
}
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`${doc.tools.length} tools: input and output schemas strict-valid (draft-07, 2020-12), Gemini subset ok; ${checked} results valid`);
