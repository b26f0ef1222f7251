import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, "fixtures/token-report.mjs");
const handler = path.resolve(here, "../../../apps/server/src/routers/apiTokens/apiTokens.handler.ts");
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

/** Type errors in the fixture script, with the server's source optionally edited in memory. */
function fixtureErrors(editServer?: (file: string, text: string) => string, oldProgram?: ts.Program) {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => {
    if (editServer && path.resolve(file) === handler) return ts.createSourceFile(file, editServer(file, ts.sys.readFile(file)!), lang);
    return getSourceFile(file, lang, ...rest);
  };
  const program = ts.createProgram({ rootNames: [fixture], options, host, oldProgram });
  const messages = program.getSemanticDiagnostics(program.getSourceFile(fixture)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  return { program, messages };
}

describe("end-to-end types from the router to a script", () => {
  it("a script using the router's field names typechecks; renaming the field in the router breaks it", () => {
    const clean = fixtureErrors();
    expect(clean.messages).toEqual([]);
    const renamed = fixtureErrors((_file, text) => {
      const edited = text.replace("lastUsedAt: schema.apiTokens.lastUsedAt", "lastUsed: schema.apiTokens.lastUsedAt");
      expect(edited).not.toBe(text);
      return edited;
    }, clean.program);
    expect(renamed.messages.some((m) => m.includes("Property 'lastUsedAt' does not exist"))).toBe(true);
  }, 180_000);
});
