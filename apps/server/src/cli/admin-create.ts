import { grantAdmin } from "../auth/roles";
import { openAppDatabase } from "../bootstrap";
import { loadConfig } from "../config";

/**
 * Grants the admin role to an existing account: `npm run admin:create -- someone@example.com`, or in
 * the Docker image `node apps/server/dist/admin-create.js someone@example.com`.
 */
const email = process.argv[2]?.trim().toLowerCase();
if (!email) {
  console.error("Uso: npm run admin:create -- <email>");
  process.exit(2);
}
const handle = await openAppDatabase(loadConfig());
try {
  if (await grantAdmin(handle.db, email)) {
    console.log(`${email} agora é administrador(a).`);
  } else {
    console.error(`Nenhuma conta com o e-mail ${email}. Crie a conta em /signup e rode o comando de novo.`);
    process.exitCode = 1;
  }
} finally {
  await handle.close();
}
