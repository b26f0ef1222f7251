// Run before `npm start` (and importable by tests): stops with one clear line when the Node.js in
// use is older than the project's. Kept to syntax every Node.js since 12 parses, so an old one
// reaches the message instead of a stack trace.
import { pathToFileURL } from "node:url";

export const requiredMajor = 24;

/** The line to print when `version` (e.g. "20.20.2") is too old, or null when it will do. */
export function nodeVersionProblem(version) {
  const major = Number(String(version).replace(/^v/, "").split(".")[0]);
  if (major >= requiredMajor) return null;
  return (
    "Elo Escolar precisa do Node.js " + requiredMajor + " ou mais novo; este é o v" + String(version).replace(/^v/, "") + ". " +
    "Instale o Node.js " + requiredMajor + " LTS (em Linux x64 o `npm install` já traz o dele, em node_modules/.bin/node, e os scripts do npm o usam)."
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
