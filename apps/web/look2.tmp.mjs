import { chromium } from "playwright-core";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const p of ["/", "/para-escolas"]) {
const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
page.on("console", (m) => { if (m.type() !== "info") console.log(m.type(), m.text().slice(0, 3000)) });
page.on("pageerror", (e) => console.log("PAGEERROR", e.message.slice(0, 2000)));
await page.goto("http://localhost:3101" + p, { waitUntil: "networkidle" });
await page.waitForTimeout(1000);
console.log(p, "done");
}
await b.close();
