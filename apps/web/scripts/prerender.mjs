// Writes dist/prerendered/{index,para-escolas}.html: the landing pages rendered once at build time
// (src/prerender/render.tsx) inside the app's index.html, so they paint with no script; the server
// serves them with the public origin filled in (decision 163).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const web = path.resolve(import.meta.dirname, "..");
const dist = path.join(web, "dist");
const { renderPage } = await import(pathToFileURL(path.join(web, "dist-ssr/render.js")).href);

/** The pages rendered, with what a search engine and a link preview read of each. */
const PAGES = [
  {
    url: "/",
    file: "index.html",
    title: "Elo Escolar: descontos nas mensalidades entre escolas",
    description: "Cadastre-se grátis e ganhe descontos nas mensalidades de escolas de idiomas, esportes, artes e tecnologia para os alunos da escola do seu filho.",
  },
  {
    url: "/para-escolas",
    file: "para-escolas.html",
    title: "Elo Escolar para escolas: atraia novos alunos com parcerias",
    description: "Publique benefícios para alunos de escolas parceiras, atraia novas matrículas e acompanhe os resultados. Conheça os planos.",
  },
];

const shell = readFileSync(path.join(dist, "index.html"), "utf8");

/**
 * The app's script and its module preloads move into <template id="app-scripts">, which
 * public/load-app.js puts into the head once the page has loaded (decision 216): the rendered page
 * paints, and its images arrive, before the app's code starts downloading.
 */
function withAppAfterLoad(html) {
  const tags = [];
  const rest = html.replace(/[ \t]*<script type="module"[^>]*><\/script>\n?|[ \t]*<link rel="modulepreload"[^>]*>\n?/g, (m) => (tags.push(m.trim()), ""));
  if (!tags.some((t) => t.startsWith("<script"))) throw new Error("prerender: index.html has no module script");
  const loader = `<template id="app-scripts">${tags.join("")}</template>\n    <script src="/load-app.js" defer></script>`;
  return rest.replace("</head>", `    ${loader}\n  </head>`);
}
const escape = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
mkdirSync(path.join(dist, "prerendered"), { recursive: true });
for (const page of PAGES) {
  let body = await renderPage(page.url);
  // React puts the images' preload hints first; they belong in the head.
  const hints = [];
  body = body.replace(/^(<link rel="preload"[^>]*\/>)+/, (m) => (hints.push(m), ""));
  // The router's inline scroll script removes itself before hydration; the page's CSP (script-src
  // 'self') would block it and leave it in the markup React hydrates, so it is not sent.
  body = body.replace(/<script>[^<]*tsr-scroll-restoration[^<]*<\/script>/g, "");
  if (body.includes("<script")) throw new Error(`prerender: ${page.url} renders a script`);
  const href = `__PUBLIC_ORIGIN__${page.url}`;
  const head = [
    `<link rel="canonical" href="${href}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:locale" content="pt_BR" />`,
    `<meta property="og:site_name" content="Elo Escolar" />`,
    `<meta property="og:title" content="${escape(page.title)}" />`,
    `<meta property="og:description" content="${escape(page.description)}" />`,
    `<meta property="og:url" content="${href}" />`,
    `<meta name="twitter:card" content="summary" />`,
    ...hints,
  ].join("\n    ");
  const html = withAppAfterLoad(shell)
    .replace("<html lang=\"pt-BR\">", "<html lang=\"pt-BR\" data-mantine-color-scheme=\"light\">")
    .replace(/<title>[^<]*<\/title>/, `<title>${escape(page.title)}</title>`)
    .replace(/<meta name="description"[^>]*>/, `<meta name="description" content="${escape(page.description)}" />`)
    .replace("</head>", `    ${head}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root" data-prerendered>${body}</div>`);
  if (!html.includes(body) || !html.includes("__PUBLIC_ORIGIN__")) throw new Error(`prerender: index.html did not take ${page.url}`);
  writeFileSync(path.join(dist, "prerendered", page.file), html);
}
console.log(`prerender: ${PAGES.map((p) => p.url).join(", ")}`);
