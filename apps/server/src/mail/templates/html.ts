/** HTML that is already safe to embed (built by `html` or `raw`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Interpolation = SafeHtml | string | number | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** Tagged template that escapes every interpolated value unless it is already `SafeHtml`. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** Marks trusted markup (never user input) as safe. */
export const raw = (markup: string) => new SafeHtml(markup);

/** Only http(s) links go into an href; anything else becomes "#". */
export const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : "#");
