import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as ptBr from "@zxcvbn-ts/language-pt-br";

/** zxcvbn score below which a password is refused (2 = about 10^8 guesses). */
export const MIN_PASSWORD_SCORE = 2;

let factory: ZxcvbnFactory | null = null;
const zxcvbn = () =>
  (factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...ptBr.dictionary },
    graphs: common.adjacencyGraphs,
    translations: ptBr.translations,
  }));

/**
 * True when the password is too easy to guess: common passwords (language-common's list), pt-BR
 * words and names, keyboard patterns, dates and repeats, also when built from the user's own
 * e-mail or name (`userInputs`).
 */
export function isWeakPassword(password: string, userInputs: string[] = []): boolean {
  const inputs = userInputs.flatMap((v) => [v, ...v.toLowerCase().split(/[^\p{L}\p{N}]+/u)]).filter((v) => v.length >= 3);
  return zxcvbn().check(password.slice(0, 100), inputs).score < MIN_PASSWORD_SCORE;
}
