import { describe, expect, it } from "vitest";
import { guessGender } from "../src/gender";

describe("guessGender", () => {
  it.each([
    ["Mariana Souza", "female"],
    ["Ana", "female"],
    ["beatriz lima", "female"],
    ["Alice", "female"],
    ["Cristiane Alves", "female"],
    ["Ínês Prado", "female"],
    ["João Pedro", "male"],
    ["Luca Rossi", "male"],
    ["Jorge", "male"],
    ["", "male"],
    [null, "male"],
  ] as const)("%s -> %s", (name, expected) => {
    expect(guessGender(name)).toBe(expected);
  });
});
