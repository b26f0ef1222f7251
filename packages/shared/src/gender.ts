import { normalizeKey } from "./format";

// Common Brazilian first names whose ending misleads the rule below.
const FEMALE = new Set([
  "beatriz", "raquel", "isabel", "ester", "esther", "ruth", "rute", "miriam", "carmen", "lourdes", "mercedes", "ines", "ingrid",
  "alice", "denise", "simone", "aline", "elaine", "liz", "luz", "rachel", "nicole", "michele", "michelle", "daniele", "danielle",
  "gabriele", "gabrielle", "ivone", "cleide", "neide", "irene", "yasmin", "jasmin", "karen", "ellen", "helen", "sueli", "suely",
  "nathaly", "kelly", "shirley", "evelyn", "jaqueline", "jacqueline", "caroline", "carolaine", "vivian", "lais", "thais", "tais",
  "iris", "maite", "mel", "sol", "dulce", "joice", "joyce", "rose", "rosane", "cristiane", "viviane", "tatiane", "josiane", "edith",
  "marli", "marly", "nely", "deise", "adrielle", "stefany", "stephanie", "sabrine", "lis", "elis", "agnes", "abigail", "elizabeth", "isabelle",
]);
const MALE = new Set(["luca", "lucca", "joshua", "nikita", "andrea", "jonatha", "mustafa", "elias", "josue", "gianluca", "batista", "ilya", "sasha"]);

/**
 * A guess of gender from a Brazilian first name (used only to pick one of two hero pictures):
 * a short list of exceptions, then the Portuguese rule that names ending in "a" are feminine.
 */
export function guessGender(fullName: string | null | undefined): "female" | "male" {
  const first = normalizeKey(fullName ?? "").split(" ")[0] ?? "";
  if (FEMALE.has(first)) return "female";
  if (MALE.has(first)) return "male";
  return /a$|(ane|ine|ise|ele|elle|ice|ly|lly|ny)$/.test(first) ? "female" : "male";
}
