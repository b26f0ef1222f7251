import { chromium } from "playwright-core";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (let i = 0; i < 8; i++) for (const vp of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  const page = await b.newPage({ viewport: vp });
  const errs = [];
  page.on("console", (m) => { if (m.type() === "error") errs.push(m.text().slice(0, 1500)) });
  page.on("pageerror", (e) => errs.push("PAGEERROR " + e.message.slice(0, 3000)));
  let release; const held = new Promise((r) => (release = r));
  await page.route(/FaqAccordion[^/]*\.js$/, async (route) => { await held; await route.continue(); });
  await page.goto(process.argv[2] + "/para-escolas");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const n = await page.locator("#faq").getByRole("button").count();
  release();
  await page.waitForTimeout(300);
  console.log(i, vp.width, n, errs);
  await page.close();
}
await b.close();
