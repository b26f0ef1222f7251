import { describe, expect, it } from "vitest";
import { canonicalPublicTarget } from "../../src/public-pages/slug";

const id = "0ef4bc33-0abd-498e-afe9-ae8edc8b9664";

describe("canonicalPublicTarget (decision 226)", () => {
  it("folds every segment under /escolas as the pages' addresses are made, the query kept", () => {
    expect(canonicalPublicTarget("/escolas/SP/s%C3%A3o-paulo")).toBe("/escolas/sp/sao-paulo");
    expect(canonicalPublicTarget("/escolas/sp/S%C3%A3o%20Paulo/?utm=x")).toBe("/escolas/sp/sao-paulo?utm=x");
    expect(canonicalPublicTarget(`/escolas/sp/sao-paulo/${id.toUpperCase()}-Fluent%20English`)).toBe(`/escolas/sp/sao-paulo/${id}-fluent-english`);
    expect(canonicalPublicTarget("/escolas/sp/sao-paulo")).toBeNull();
  });

  it("keeps what must not become a slug: nothing left, bad percent-encoding, images, other roots", () => {
    expect(canonicalPublicTarget("/escolas/sp/%20")).toBeNull();
    expect(canonicalPublicTarget("/escolas/sp/%E0")).toBe("/escolas/sp/%e0");
    // Preview images keep their file names (a dot is no slug character).
    expect(canonicalPublicTarget(`/escolas/imagem/escola/${id}/S77vumpvBSSa.jpg`)).toBeNull();
    expect(canonicalPublicTarget(`/escolas/IMAGEM/escola/${id}/S77vumpvBSSa.jpg`)).toBe(`/escolas/imagem/escola/${id}/s77vumpvbssa.jpg`);
    expect(canonicalPublicTarget("/sitemaps/ESCOLAS-1.XML")).toBe("/sitemaps/escolas-1.xml");
    expect(canonicalPublicTarget(`/quero-este-desconto/${id}).`)).toBeNull();
    expect(canonicalPublicTarget("//example.com/")).toBeNull();
  });
});
