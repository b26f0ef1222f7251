import path from "node:path";
import ts from "typescript";

/** What the source says about one procedure: the errors its code throws and its output type. */
export interface ProcedureSource {
  errors: { code: string; message: string }[];
  output: string;
  input: string | null;
}

const VIRTUAL = "__api_docs_types__.ts";

/**
 * Reads the server's source with the TypeScript compiler: walks `appRouter`'s object literals to
 * find each procedure's resolver, follows the functions it calls inside the server's source, and
 * collects every `new AppError(code, toast)` / `new TRPCError({ code, message })`. Output types
 * come from `inferRouterOutputs<AppRouter>`.
 */
export function readProcedureSources(serverDir: string, paths: string[]): Map<string, ProcedureSource> {
  const srcDir = path.join(serverDir, "src");
  const config = ts.getParsedCommandLineOfConfigFile(path.join(serverDir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
  if (!config) throw new Error("cannot read apps/server/tsconfig.json");
  const virtualPath = path.join(srcDir, VIRTUAL);
  const key = (p: string) => p.split(".").map((s) => `[${JSON.stringify(s)}]`).join("");
  const virtualText = [
    `import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";`,
    `import type { AppRouter } from "./routers/_app";`,
    `type O = inferRouterOutputs<AppRouter>;`,
    `type I = inferRouterInputs<AppRouter>;`,
    ...paths.map((p, i) => `export type O${i} = O${key(p)};\nexport type I${i} = I${key(p)};`),
  ].join("\n");
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => (path.resolve(file) === virtualPath ? ts.createSourceFile(file, virtualText, lang) : getSourceFile(file, lang, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === virtualPath || fileExists(file);
  const program = ts.createProgram({ rootNames: [virtualPath, path.join(srcDir, "routers/_app.ts")], options: config.options, host });
  const checker = program.getTypeChecker();

  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const pretty = (typeText: string) => {
    const file = ts.createSourceFile("t.ts", `type T = ${typeText};`, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    return printer.printFile(file).replace(/^type T = /, "").replace(/;\s*$/, "").trim();
  };
  const typeText = (t: ts.Type) => checker.typeToString(t, undefined, ts.TypeFormatFlags.NoTruncation);

  // Output and input types, from the virtual file's aliases.
  const virtualFile = program.getSourceFile(virtualPath)!;
  const aliasTypes = new Map<string, ts.Type>();
  virtualFile.forEachChild((n) => {
    if (ts.isTypeAliasDeclaration(n)) aliasTypes.set(n.name.text, checker.getTypeAtLocation(n.name));
  });

  // Procedure path -> the expression that builds it.
  const inSource = (file: ts.SourceFile) => path.resolve(file.fileName).startsWith(srcDir + path.sep) && !file.fileName.includes(`${path.sep}cli${path.sep}`);
  const declarationOf = (node: ts.Node): ts.Declaration | undefined => {
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  };
  const isRouterCall = (e: ts.Expression): e is ts.CallExpression => ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "router";
  const definitions = new Map<string, ts.Expression>();
  const walkRouter = (expr: ts.Expression, prefix: string) => {
    if (ts.isIdentifier(expr)) {
      const decl = declarationOf(expr);
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer) return walkRouter(decl.initializer, prefix);
      return;
    }
    const literal = isRouterCall(expr) ? expr.arguments[0] : ts.isObjectLiteralExpression(expr) ? expr : undefined;
    if (!literal || !ts.isObjectLiteralExpression(literal)) return;
    for (const prop of literal.properties) {
      if (!ts.isPropertyAssignment(prop) && !ts.isShorthandPropertyAssignment(prop)) continue;
      const name = prop.name.getText();
      const value = ts.isPropertyAssignment(prop) ? prop.initializer : prop.name;
      const full = prefix ? `${prefix}.${name}` : name;
      if (isRouterCall(value) || ts.isObjectLiteralExpression(value) || ts.isIdentifier(value)) walkRouter(value, full);
      else definitions.set(full, value);
    }
  };
  const appFile = program.getSourceFile(path.join(srcDir, "routers/_app.ts"))!;
  appFile.forEachChild((n) => {
    if (ts.isVariableStatement(n)) for (const d of n.declarationList.declarations) if (d.name.getText() === "appRouter" && d.initializer) walkRouter(d.initializer, "");
  });

  const messageOf = (expr: ts.Expression | undefined): string => {
    if (!expr) return "";
    if (ts.isObjectLiteralExpression(expr)) {
      const get = (name: string) => expr.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name)?.initializer;
      const title = messageOf(get("title") ?? get("message"));
      const description = get("description") ? messageOf(get("description")) : "";
      return description ? `${title}: ${description}` : title;
    }
    const type = checker.getTypeAtLocation(expr);
    if (type.isStringLiteral()) return type.value;
    const title = type.getProperty("title");
    if (title) {
      const t = checker.getTypeOfSymbolAtLocation(title, expr);
      const d = type.getProperty("description");
      const dt = d ? checker.getTypeOfSymbolAtLocation(d, expr) : undefined;
      if (t.isStringLiteral()) return dt?.isStringLiteral() ? `${t.value}: ${dt.value}` : t.value;
    }
    return `\`${expr.getText().replace(/\s+/g, " ")}\``;
  };
  const codeOf = (expr: ts.Expression | undefined) => {
    if (!expr) return "?";
    const t = checker.getTypeAtLocation(expr);
    return t.isStringLiteral() ? t.value : expr.getText();
  };

  const collectErrors = (root: ts.Node) => {
    const found = new Map<string, { code: string; message: string }>();
    const visited = new Set<ts.Node>();
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const args = node.arguments ?? [];
        if (node.expression.text === "AppError") {
          const e = { code: codeOf(args[0]), message: messageOf(args[1]) };
          found.set(`${e.code}|${e.message}`, e);
        } else if (node.expression.text === "TRPCError" && args[0] && ts.isObjectLiteralExpression(args[0])) {
          const get = (name: string) => (args[0] as ts.ObjectLiteralExpression).properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name)?.initializer;
          const e = { code: codeOf(get("code")), message: messageOf(get("message")) };
          found.set(`${e.code}|${e.message}`, e);
        }
      }
      if (ts.isCallExpression(node) || ts.isIdentifier(node)) {
        const target = ts.isCallExpression(node) ? node.expression : node;
        const decl = ts.isIdentifier(target) || ts.isPropertyAccessExpression(target) ? declarationOf(ts.isPropertyAccessExpression(target) ? target.name : target) : undefined;
        const body =
          decl && (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl))
            ? decl
            : decl && ts.isVariableDeclaration(decl) && decl.initializer && (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer))
              ? decl.initializer
              : undefined;
        if (body && !visited.has(body) && inSource(body.getSourceFile()) && !body.getSourceFile().fileName.includes(`${path.sep}trpc${path.sep}`)) {
          visited.add(body);
          visit(body);
        }
      }
      node.forEachChild(visit);
    };
    // Only the resolver: the builder chain (procedure, input) is documented by the access rule.
    const resolver = ts.isCallExpression(root) ? root.arguments[0] : undefined;
    if (resolver) visit(resolver);
    return [...found.values()].sort((a, b) => a.code.localeCompare(b.code) || a.message.localeCompare(b.message));
  };

  const result = new Map<string, ProcedureSource>();
  paths.forEach((p, i) => {
    const def = definitions.get(p);
    const input = aliasTypes.get(`I${i}`)!;
    result.set(p, {
      errors: def ? collectErrors(def) : [],
      output: pretty(typeText(aliasTypes.get(`O${i}`)!)),
      input: input.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined) ? null : pretty(typeText(input)),
    });
  });
  return result;
}
