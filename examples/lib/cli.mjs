// Shared by the example scripts: the client from the environment, and one way to fail.
import { createEloClient, errorCode, errorMessage } from "@elo/client";

/** A client for ELO_URL (default http://localhost:3000) acting as the owner of ELO_TOKEN. */
export function clientFromEnv() {
  const token = process.env.ELO_TOKEN;
  if (!token) {
    console.error("Defina ELO_TOKEN com um token de API criado em /meus-dados.");
    process.exit(2);
  }
  return createEloClient({ url: process.env.ELO_URL ?? "http://localhost:3000", token });
}

/**
 * Runs a script's main function; a failed call prints the procedure's error code and its
 * Portuguese message on stderr and exits with status 1.
 * @param {() => Promise<void>} main
 */
export function run(main) {
  main().catch((error) => {
    const code = errorCode(error);
    console.error(code ? `Erro ${code}: ${errorMessage(error)}` : `Erro: ${errorMessage(error)}`);
    process.exitCode = 1;
  });
}
