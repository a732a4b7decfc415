// Types of scripts/json-module.mjs, for the test that imports it.
export function withoutDocs(path: string, value: unknown): Record<string, unknown>;
export function jsonModule(path: string, raw: unknown): string;
