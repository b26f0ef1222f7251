import { accessMessages } from "@elo/shared";
import { MantineProvider } from "@mantine/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RouteError } from "../src/features/layout/RouteError";

describe("the router's default error page", () => {
  it("shows the catalogue's unexpected-error text in Portuguese, a retry and a way home", () => {
    const html = renderToStaticMarkup(createElement(MantineProvider, null, createElement(RouteError, { reset: () => {} })));
    expect(accessMessages.unexpected).toBe("Ocorreu um erro inesperado. Tente novamente.");
    expect(html).toContain(accessMessages.unexpected);
    expect(html).toContain(">Tentar novamente<");
    expect(html).toContain('href="/"');
    expect(html).toContain(accessMessages.backHome);
  });
});

describe("router wiring", () => {
  it("uses it as the default error component", async () => {
    const { readFileSync } = await import("node:fs");
    // Reading the source: importing the router would start the tRPC client, which needs a browser.
    const source = readFileSync(new URL("../src/create-router.ts", import.meta.url), "utf8");
    expect(source).toMatch(/defaultErrorComponent:\s*DefaultRouteError/);
  });
});
