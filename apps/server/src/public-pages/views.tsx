import {
  CLASS_PERIOD_LABELS,
  DISCOUNT_VALIDITY_LABELS,
  formatBRL,
  publicPagesMessages as m,
  TEACHING_STAGE_LABELS,
} from "@elo/shared";
import type { ReactNode } from "react";
import type { CitySummary, PublicBenefit, PublicSchool, StateSummary } from "./projection";
import { publicPaths } from "./slug";
import { PUBLIC_CSS } from "./styles";

const pct = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });
/** '30' or '12,5' (the page adds '% de desconto'). */
export const formatPercent = (value: number) => pct.format(value);

export interface Crumb {
  name: string;
  path: string;
}

export interface HeadData {
  title: string;
  description: string;
  /** Absolute canonical address of the page. */
  canonical: string;
  noindex: boolean;
  /** Absolute address of the Open Graph image, when the page has one. */
  image?: string | null;
  jsonLd: object[];
}

const json = (value: object) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The whole document: head written from the page's data, the shared header and footer, no script. */
export function Document({ head, crumbs, children }: { head: HeadData; crumbs: Crumb[]; children: ReactNode }) {
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        <link rel="canonical" href={head.canonical} />
        <meta name="robots" content={head.noindex ? "noindex, follow" : "index, follow"} />
        <meta property="og:type" content="website" />
        <meta property="og:locale" content="pt_BR" />
        <meta property="og:site_name" content={m.siteName} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        <meta property="og:url" content={head.canonical} />
        {head.image ? <meta property="og:image" content={head.image} /> : null}
        {head.image ? <meta property="og:image:width" content="1200" /> : null}
        {head.image ? <meta property="og:image:height" content="630" /> : null}
        {head.image ? <meta property="og:image:type" content="image/jpeg" /> : null}
        <meta name="twitter:card" content={head.image ? "summary_large_image" : "summary"} />
        <meta name="twitter:title" content={head.title} />
        <meta name="twitter:description" content={head.description} />
        {head.image ? <meta name="twitter:image" content={head.image} /> : null}
        <style dangerouslySetInnerHTML={{ __html: PUBLIC_CSS }} />
        {head.jsonLd.map((block, i) => (
          <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: json(block) }} />
        ))}
      </head>
      <body>
        <header className="top">
          <div className="in">
            <a className="brand" href="/">
              {m.siteName}
            </a>
            <nav aria-label="Principal">
              <a href={publicPaths.states()}>{m.schools}</a>
              <a href="/para-escolas">{m.forSchools}</a>
              <a href="/login">{m.login}</a>
            </nav>
          </div>
        </header>
        <main>
          {crumbs.length > 1 ? (
            <nav className="crumbs" aria-label={m.breadcrumb}>
              <ol>
                {crumbs.map((c, i) => (
                  <li key={c.path}>{i === crumbs.length - 1 ? <span aria-current="page">{c.name}</span> : <a href={c.path}>{c.name}</a>}</li>
                ))}
              </ol>
            </nav>
          ) : null}
          {children}
        </main>
        <footer>
          <div className="in">{m.footer}</div>
        </footer>
      </body>
    </html>
  );
}

/** The GET search form of /escolas (answered by the server, no script). */
export function SearchForm({ query }: { query?: string }) {
  return (
    <form className="search" method="get" action={publicPaths.states()} role="search">
      <label htmlFor="q">{m.searchLabel}</label>
      <input id="q" name="q" type="search" defaultValue={query ?? ""} placeholder={m.searchPlaceholder} minLength={2} maxLength={80} />
      <button type="submit">{m.searchButton}</button>
    </form>
  );
}

export function StateList({ states }: { states: StateSummary[] }) {
  return (
    <ul className="cards">
      {states.map((s) => (
        <li key={s.uf}>
          <h3>
            <a href={publicPaths.state(s.uf)}>
              {s.name} ({s.uf})
            </a>
          </h3>
          <span className="muted">
            {m.cityCount(s.cities)} · {m.schoolCount(s.schools)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function CityList({ cities }: { cities: CitySummary[] }) {
  return (
    <ul className="cards">
      {cities.map((c) => (
        <li key={`${c.uf}/${c.slug}`}>
          <h3>
            <a href={publicPaths.city(c.uf, c.slug)}>
              {c.name} ({c.uf})
            </a>
          </h3>
          <span className="muted">
            {m.schoolCount(c.schools)}
            {c.benefits > 0 ? ` · ${m.benefitCount(c.benefits)}` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The address of a school's page. */
export const schoolPath = (s: Pick<PublicSchool, "uf" | "citySlug" | "id" | "name">) => publicPaths.school(s.uf, s.citySlug, s.id, s.name);

/** Who may claim a benefit, in words (DECISIONS.md's rules 2 and 4). */
export function whoQualifies(b: PublicBenefit): string {
  const niche = b.schoolNiche ?? m.noNiche;
  if (b.scope === "neighborhood" && b.schoolNeighborhood) return m.qualifiesNeighborhood(niche, b.schoolNeighborhood, b.schoolCity);
  if (b.scope === "all_except_own") return m.qualifiesAll(niche);
  return m.qualifiesCity(niche, b.schoolCity);
}

/** 'https://wa.me/?text=…' with the title and the address. */
export const whatsAppLink = (title: string, url: string) => `https://wa.me/?text=${encodeURIComponent(m.shareText(title, url))}`;

/** A benefit's card: fees, discount, validity, slots, hold, verification, who qualifies, and its two actions. */
export function BenefitCard({ b, origin, showSchool }: { b: PublicBenefit; origin: string; showSchool: boolean }) {
  const schoolUrl = publicPaths.school(b.schoolUf, b.schoolCitySlug, b.schoolId, b.schoolName);
  const anchor = `${schoolUrl}#beneficio-${b.id}`;
  return (
    <article className="benefit" id={showSchool ? undefined : `beneficio-${b.id}`}>
      <h3>{b.className}</h3>
      <p className="muted">
        {TEACHING_STAGE_LABELS[b.teachingStage]} · {CLASS_PERIOD_LABELS[b.classPeriod]}
      </p>
      {showSchool ? (
        <p className="muted">
          {m.offeredBy} <a href={schoolUrl}>{b.schoolName}</a>
        </p>
      ) : null}
      <span className="pct">{m.percentOff(formatPercent(b.discountPercentage))}</span>
      <dl>
        <dt>{m.feeBefore}</dt>
        <dd>
          <s>{formatBRL(b.monthlyFee)}</s>
        </dd>
        <dt>{m.feeAfter}</dt>
        <dd>{formatBRL(b.discountedFee)}</dd>
        <dt>{m.validity}</dt>
        <dd>{DISCOUNT_VALIDITY_LABELS[b.validity]}</dd>
        <dt>{m.slotsLeft}</dt>
        <dd>{b.slots > 0 ? b.slots : m.soldOut}</dd>
        <dt>{m.hold}</dt>
        <dd>{b.holdDays ? m.holdDays(b.holdDays) : m.holdUntilValidity}</dd>
      </dl>
      <p className="who">
        <strong>{m.whoQualifies}:</strong> {whoQualifies(b)}. {b.requiresVerified ? m.verifiedRequired : m.verifiedNotRequired}.
      </p>
      <div className="actions">
        <a className="btn" href={`/quero-este-desconto/${b.id}`} rel="nofollow">
          {m.wantIt}
        </a>
        <a className="btn wa" href={whatsAppLink(`${b.className}: ${b.schoolName}`, `${origin}${anchor}`)} rel="nofollow noopener" target="_blank">
          {m.shareWhatsApp}
        </a>
      </div>
    </article>
  );
}

/** A school's logo at a fixed size, or its initial when it has none. */
export function Logo({ name, src }: { name: string; src: string | null }) {
  return src ? <img src={src} alt={m.logoAlt(name)} width={72} height={72} /> : <span className="logo-ph" aria-hidden="true">{name.trim().charAt(0).toUpperCase()}</span>;
}
