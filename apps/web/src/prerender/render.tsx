// The build renders the landing pages (/ and /para-escolas) to HTML once, as a visitor who is not
// signed in first sees them, so they paint before any script runs; the browser then hydrates that
// markup (main.tsx). Decision 163.
import { QueryClient } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import { renderToString } from "react-dom/server";
import { App } from "../App";
import { createAppRouter } from "../create-router";

/** A Suspense boundary renderToString left to the browser (a lazy part not loaded yet). */
const CLIENT_BOUNDARY = "<!--$!-->";

/** The HTML of the page at `url`, for the inside of the app's root element. */
export async function renderPage(url: string): Promise<string> {
  // Nothing here may wait for the network: "who am I" is left pending, as in the browser's first render.
  const queryClient = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [url] }));
  await router.load();
  // A lazy part suspends the first time it renders and starts loading; once loaded it renders
  // at once, so a later pass gives the whole page, and the browser hydrates it all.
  for (let pass = 0; ; pass++) {
    const html = renderToString(<App router={router} queryClient={queryClient} />);
    if (!html.includes(CLIENT_BOUNDARY)) return html;
    if (pass === 5) throw new Error(`prerender: ${url} still has parts that load in the browser`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
