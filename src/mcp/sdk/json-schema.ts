// The JSON Schema validator handed to the SDK's Server and Client instead of their default Ajv.
// Our tools validate arguments with zod (their own schemas, with messages that name the fix); the
// SDK would use a JSON Schema validator only for a client's answer to an elicitation (this server
// never elicits) and for tool results after a client lists tools (the call command never does).
// Constructing Ajv cost about a fifth of a stdio start and a third of an HTTP request's server.
import type { jsonSchemaValidator } from "@modelcontextprotocol/server";

export const NO_JSON_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("this program validates with zod and does not check JSON Schemas at run time");
  },
};
