#!/usr/bin/env node
// Who am I? Checks a token: prints the account it acts as.
//   ELO_TOKEN=elo_... node examples/whoami.mjs
import { clientFromEnv, run } from "./lib/cli.mjs";

run(async () => {
  const elo = clientFromEnv();
  const me = await elo.auth.me.query();
  if (!me) throw new Error("Sem usuário");
  const kind = me.isAdmin ? "administrador" : me.profileType === "institution" ? "instituição" : "responsável";
  console.log(`${me.email} (${kind})`);
});
