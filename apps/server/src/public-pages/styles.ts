/**
 * The public pages' whole stylesheet, inlined in each page: no request before the first paint, no
 * web font (the system's sans-serif), fixed sizes for every image so nothing moves (decision 161).
 */
export const PUBLIC_CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1a1b1e;background:#f6f7f9}
a{color:#1864ab}
header.top{background:#fff;border-bottom:1px solid #e3e6ea}
header.top .in,main,footer .in{max-width:960px;margin:0 auto;padding:0 16px}
header.top .in{display:flex;align-items:center;justify-content:space-between;gap:12px;min-height:56px;flex-wrap:wrap}
.brand{font-weight:700;font-size:20px;color:#1864ab;text-decoration:none}
header nav{display:flex;gap:14px;flex-wrap:wrap}
header nav a{font-size:15px}
main{padding-top:16px;padding-bottom:32px}
nav.crumbs ol{list-style:none;margin:0 0 8px;padding:0;font-size:14px;color:#495057}
nav.crumbs li{display:inline}
nav.crumbs li+li:before{content:" › ";color:#868e96}
h1{font-size:26px;line-height:1.25;margin:8px 0 12px}
h2{font-size:20px;margin:28px 0 12px}
h3{font-size:17px;margin:0 0 6px}
.lead{color:#495057;margin:0 0 16px}
form.search{display:flex;gap:8px;margin:16px 0;flex-wrap:wrap}
form.search label{width:100%;font-weight:600}
form.search input{flex:1;min-width:0;font:inherit;padding:10px 12px;border:1px solid #adb5bd;border-radius:8px;background:#fff}
form.search button,.btn{font:inherit;font-weight:600;padding:10px 16px;border-radius:8px;border:0;background:#1864ab;color:#fff;text-decoration:none;display:inline-block;cursor:pointer}
.btn.wa{background:#fff;color:#0b7a3b;border:1px solid #0b7a3b}
ul.cards{list-style:none;margin:0;padding:0;display:grid;gap:12px;grid-template-columns:repeat(auto-fill,minmax(260px,1fr))}
ul.cards>li,.benefit,.school-head{background:#fff;border:1px solid #e3e6ea;border-radius:12px;padding:14px}
ul.links{margin:0;padding-left:20px}
ul.links li{margin:4px 0}
.muted{color:#5c636a;font-size:14px}
.school-head{display:flex;gap:16px;align-items:center}
.school-head img,.logo-ph{width:72px;height:72px;border-radius:12px;object-fit:contain;background:#f1f3f5;flex:none}
.logo-ph{display:flex;align-items:center;justify-content:center;font-weight:700;font-size:28px;color:#1864ab}
.school-head h1{margin:0 0 4px}
.benefits{display:grid;gap:12px;grid-template-columns:repeat(auto-fill,minmax(290px,1fr))}
.benefit dl{display:grid;grid-template-columns:1fr 1fr;gap:4px 12px;margin:8px 0 12px;font-size:15px}
.benefit dt{color:#5c636a}
.benefit dd{margin:0;font-weight:500}
.benefit .pct{display:inline-block;background:#e7f5ff;color:#1864ab;font-weight:700;border-radius:6px;padding:2px 8px;font-size:14px}
.benefit .actions{display:flex;gap:8px;flex-wrap:wrap}
.benefit .who{font-size:14px;margin:0 0 12px}
footer{border-top:1px solid #e3e6ea;background:#fff}
footer .in{padding:16px;font-size:14px;color:#5c636a}
`;
