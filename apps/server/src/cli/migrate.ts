import { openAppDatabase } from "../bootstrap";
import { loadConfig } from "../config";

/** Applies migrations and reference data, then exits. */
const handle = await openAppDatabase(loadConfig());
await handle.close();
console.log("Database migrated.");
