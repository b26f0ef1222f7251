import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const fixture = path.join(here, "fixtures/token-report.mjs");
const handler = path.join(repo, "apps/server/src/routers/apiTokens/apiTokens.handler.ts");
const listExample = path.join(repo, "examples/list-my-benefits.mjs");
const listHandler = path.join(repo, "apps/server/src/routers/marketplace/list.handler.ts");
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  allowJs: true,
  checkJs: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};

/** The last program built: reusing it keeps the second compile of the router cheap. */
let lastProgram: ts.Program | undefined;

/** Type errors in `script`, with one server source file optionally edited in memory. */
function scriptErrors(script: string, serverFile: string, editServer?: (text: string) => string) {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => {
    if (editServer && path.resolve(file) === serverFile) return ts.createSourceFile(file, editServer(ts.sys.readFile(file)!), lang);
    return getSourceFile(file, lang, ...rest);
  };
  const program = ts.createProgram({ rootNames: [script], options, host, oldProgram: lastProgram });
  lastProgram = program;
  return program.getSemanticDiagnostics(program.getSourceFile(script)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** Replaces `from` with `to` in a server source, failing loudly if the source no longer has it. */
const rename = (from: string, to: string) => (text: string) => {
  const edited = text.replace(from, to);
  expect(edited).not.toBe(text);
  return edited;
};

describe("end-to-end types from the router to a script", () => {
  it("a script using the router's field names typechecks; renaming the field in the router breaks it", () => {
    expect(scriptErrors(fixture, handler)).toEqual([]);
    const renamed = scriptErrors(fixture, handler, rename("lastUsedAt: schema.apiTokens.lastUsedAt", "lastUsed: schema.apiTokens.lastUsedAt"));
    expect(renamed.some((m) => m.includes("Property 'lastUsedAt' does not exist"))).toBe(true);
  }, 180_000);

  it("a real example (examples/list-my-benefits.mjs) breaks when a marketplace.list output field is renamed", () => {
    expect(scriptErrors(listExample, listHandler)).toEqual([]);
    const renamed = scriptErrors(listExample, listHandler, rename("    numberOfStudents: b.numberOfStudents,", "    remainingSlots: b.numberOfStudents,"));
    expect(renamed.some((m) => m.includes("Property 'numberOfStudents' does not exist"))).toBe(true);
  }, 180_000);
});
