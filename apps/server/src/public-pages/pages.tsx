import type { Database } from "@elo/db";
import { accessMessages, normalizeKey, publicPagesMessages as m } from "@elo/shared";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Storage } from "../storage/storage";
import { logoAddress } from "../storage/logo";
import { type PreviewData, previewVersion } from "./og-image";
import * as q from "./projection";
import { parseSchoolSegment, publicPaths } from "./slug";
import { BenefitCard, CityList, type Crumb, Document, formatPercent, type HeadData, Logo, schoolPath, SearchForm, StateList, whatsAppLink, whoQualifies } from "./views";

export interface PageContext {
  db: Database;
  storage: Storage;
  /** The canonical origin (PUBLIC_URL). */
  origin: string;
  /** Open Graph images are made for school and city pages (off: no og:image). */
  images?: boolean;
}

export type PageResult =
  | { kind: "page"; status: 200 | 404 | 410; html: string }
  | { kind: "redirect"; status: 301; location: string }
  /** No such page, or a school that left: answered with the shared 404 or 410 page. */
  | { kind: "notFound" }
  | { kind: "gone" };

const NOT_FOUND: PageResult = { kind: "notFound" };
const GONE: PageResult = { kind: "gone" };

/** Schools and cities listed on the city page at most; the benefits "offered here" at most. */
const CITY_BENEFITS = 12;
const FOR_STUDENTS = 30;
const SEARCH_RESULTS = 30;
const HELP_CITIES = 60;

const page = (status: 200 | 404 | 410, element: ReactElement): PageResult => ({ kind: "page", status, html: `<!DOCTYPE html>${renderToStaticMarkup(element)}` });

function crumbsLd(origin: string, crumbs: Crumb[]) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((c, i) => ({ "@type": "ListItem", position: i + 1, name: c.name, item: origin + c.path })),
  };
}

const rootCrumbs = (): Crumb[] => [
  { name: m.home, path: "/" },
  { name: m.schools, path: publicPaths.states() },
];

/** /escolas and its GET search (?q=). */
export async function statesPage(ctx: PageContext, rawQuery: string | undefined): Promise<PageResult> {
  const states = await q.listStates(ctx.db);
  const crumbs = rootCrumbs();
  const query = rawQuery?.trim().slice(0, 80) ?? "";
  const schoolsTotal = states.reduce((n, s) => n + s.schools, 0);
  if (query) {
    const key = normalizeKey(query);
    const found = key.length >= 2 ? await q.search(ctx.db, key, SEARCH_RESULTS) : { schools: [], cities: [] };
    const head: HeadData = {
      title: `${m.searchTitle(query)} | ${m.siteName}`,
      description: m.statesDescription(schoolsTotal, states.length),
      canonical: ctx.origin + publicPaths.states(),
      noindex: true,
      jsonLd: [],
    };
    return page(
      200,
      <Document head={head} crumbs={crumbs}>
        <h1>{m.searchTitle(query)}</h1>
        <SearchForm query={query} />
        {key.length < 2 ? <p>{m.searchTooShort}</p> : null}
        {key.length >= 2 && found.schools.length === 0 && found.cities.length === 0 ? <p>{m.searchNothing(query)}</p> : null}
        {found.cities.length > 0 ? (
          <>
            <h2>{m.searchResultsCities}</h2>
            <CityList cities={found.cities} />
          </>
        ) : null}
        {found.schools.length > 0 ? (
          <>
            <h2>{m.searchResultsSchools}</h2>
            <ul className="cards">
              {found.schools.map((s) => (
                <li key={s.id}>
                  <h3>
                    <a href={schoolPath(s)}>{s.name}</a>
                  </h3>
                  <span className="muted">{m.schoolOf(s.niche ?? m.noNiche, s.neighborhood, s.city, s.uf)}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <h2>{m.statesHeading}</h2>
        <StateList states={states} />
      </Document>,
    );
  }
  const head: HeadData = {
    title: `${m.statesTitle} | ${m.siteName}`,
    description: m.statesDescription(schoolsTotal, states.length),
    canonical: ctx.origin + publicPaths.states(),
    noindex: false,
    jsonLd: [crumbsLd(ctx.origin, crumbs)],
  };
  return page(
    200,
    <Document head={head} crumbs={crumbs}>
      <h1>{m.statesTitle}</h1>
      <p className="lead">{m.statesIntro}</p>
      <SearchForm />
      <h2>{m.statesHeading}</h2>
      <StateList states={states} />
    </Document>,
  );
}

/** /escolas/{uf}: the cities of a state with listed schools. */
export async function statePage(ctx: PageContext, ufParam: string): Promise<PageResult> {
  const uf = ufParam.toUpperCase();
  if (!/^[A-Z]{2}$/.test(uf)) return NOT_FOUND;
  const name = await q.stateName(ctx.db, uf);
  if (!name) return NOT_FOUND;
  if (ufParam !== uf.toLowerCase()) return { kind: "redirect", status: 301, location: publicPaths.state(uf) };
  const cities = await q.listCities(ctx.db, uf);
  const crumbs = [...rootCrumbs(), { name, path: publicPaths.state(uf) }];
  const head: HeadData = {
    title: `${m.stateTitle(name)} | ${m.siteName}`,
    description: m.stateDescription(name, cities.length),
    canonical: ctx.origin + publicPaths.state(uf),
    noindex: !cities.some((c) => c.benefits > 0),
    jsonLd: [crumbsLd(ctx.origin, crumbs)],
  };
  return page(
    200,
    <Document head={head} crumbs={crumbs}>
      <h1>{m.stateTitle(name)}</h1>
      <p className="lead">{m.stateIntro(name)}</p>
      <h2>{m.citiesHeading}</h2>
      <CityList cities={cities} />
    </Document>,
  );
}

/** Groups the schools by niche, then neighborhood, in the projection's order. */
function byNicheAndNeighborhood(schools: q.PublicSchool[]) {
  const groups = new Map<string, Map<string, q.PublicSchool[]>>();
  for (const s of schools) {
    const niche = s.niche ?? m.noNiche;
    const hood = s.neighborhood ?? m.noNeighborhood;
    const inNiche = groups.get(niche) ?? new Map<string, q.PublicSchool[]>();
    groups.set(niche, inNiche);
    inNiche.set(hood, [...(inNiche.get(hood) ?? []), s]);
  }
  return groups;
}

/** /escolas/{uf}/{cidade}: the city's schools by niche and neighborhood, and the benefits offered there. */
export async function cityPage(ctx: PageContext, ufParam: string, slugParam: string): Promise<PageResult> {
  const uf = ufParam.toUpperCase();
  const slug = slugParam.toLowerCase();
  if (!/^[A-Z]{2}$/.test(uf) || !/^[a-z0-9-]{1,120}$/.test(slug)) return NOT_FOUND;
  const [schools, benefits, stateName] = await Promise.all([q.citySchools(ctx.db, uf, slug), q.cityBenefits(ctx.db, uf, slug, CITY_BENEFITS), q.stateName(ctx.db, uf)]);
  if (schools.length === 0) return NOT_FOUND;
  if (ufParam !== uf.toLowerCase() || slugParam !== slug) return { kind: "redirect", status: 301, location: publicPaths.city(uf, slug) };
  const city = schools[0]!.city;
  const path = publicPaths.city(uf, slug);
  const crumbs = [...rootCrumbs(), { name: stateName ?? uf, path: publicPaths.state(uf) }, { name: city, path }];
  const withPage = schools.filter((s) => s.hasPage);
  const best = benefits.reduce((a, b) => Math.max(a, b.discountPercentage), 0);
  const head: HeadData = {
    title: `${m.cityTitle(city, uf)} | ${m.siteName}`,
    description: m.cityDescription(city, uf, schools.length, benefits.length),
    canonical: ctx.origin + path,
    noindex: benefits.length === 0,
    image: ctx.images ? previewUrl(ctx, "cidade", `${uf.toLowerCase()}-${slug}`, cityPreviewData(city, uf, schools.length, best)) : null,
    jsonLd: [
      crumbsLd(ctx.origin, crumbs),
      {
        "@context": "https://schema.org",
        "@type": "ItemList",
        name: m.citySchoolsHeading,
        itemListElement: withPage.map((s, i) => ({ "@type": "ListItem", position: i + 1, name: s.name, url: ctx.origin + schoolPath(s) })),
      },
    ],
  };
  const groups = byNicheAndNeighborhood(schools);
  return page(
    200,
    <Document head={head} crumbs={crumbs}>
      <h1>{m.cityTitle(city, uf)}</h1>
      <p className="lead">{m.cityDescription(city, uf, schools.length, benefits.length)}</p>
      {benefits.length > 0 ? (
        <>
          <h2>{m.cityBenefitsHeading}</h2>
          <div className="benefits">
            {benefits.map((b) => (
              <BenefitCard key={b.id} b={b} origin={ctx.origin} showSchool />
            ))}
          </div>
        </>
      ) : null}
      <h2>{m.citySchoolsHeading}</h2>
      {[...groups].map(([niche, hoods]) => (
        <section key={niche}>
          <h3>{niche}</h3>
          {[...hoods].map(([hood, list]) => (
            <div key={hood}>
              <p className="muted">{hood}</p>
              <ul className="links">
                {list.map((s) => (
                  <li key={s.id}>
                    {s.hasPage ? (
                      <a href={schoolPath(s)}>{s.name}</a>
                    ) : (
                      <>
                        {s.name} <span className="muted">({m.nameOnly})</span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
    </Document>,
  );
}

/** /escolas/{uf}/{cidade}/{id}-{slug}: one school; 301 to its current address, 410 once it is off the pages. */
export async function schoolPage(ctx: PageContext, segment: string, currentPath: string): Promise<PageResult> {
  const parsed = parseSchoolSegment(segment);
  if (!parsed) return NOT_FOUND;
  const school = await q.schoolById(ctx.db, parsed.id);
  if (!school) return NOT_FOUND;
  if (!school.listed || !school.hasPage) return GONE;
  const path = schoolPath(school);
  if (currentPath !== path) return { kind: "redirect", status: 301, location: path };
  const [own, forStudents, stateName] = await Promise.all([
    q.schoolBenefits(ctx.db, school.id),
    q.benefitsForStudentsOf(ctx.db, school.id, FOR_STUDENTS),
    q.stateName(ctx.db, school.uf),
  ]);
  const niche = school.niche ?? m.noNiche;
  const url = ctx.origin + path;
  const best = own.reduce((a, b) => Math.max(a, b.discountPercentage), 0);
  const crumbs = [
    ...rootCrumbs(),
    { name: stateName ?? school.uf, path: publicPaths.state(school.uf) },
    { name: school.city, path: publicPaths.city(school.uf, school.citySlug) },
    { name: school.name, path },
  ];
  const logo = logoAddress(ctx.storage, school.logoUrl);
  const head: HeadData = {
    title: `${m.schoolTitle(school.name, school.city, school.uf)} | ${m.siteName}`,
    description: m.schoolDescription(school.name, niche, school.city, best > 0 ? `${formatPercent(best)}%` : null),
    canonical: url,
    noindex: own.length === 0,
    image: ctx.images ? previewUrl(ctx, "escola", school.id, schoolPreviewData(school, best)) : null,
    jsonLd: [
      crumbsLd(ctx.origin, crumbs),
      {
        "@context": "https://schema.org",
        "@type": school.niche === "Ed. Básica" ? "School" : "EducationalOrganization",
        name: school.name,
        url,
        ...(logo ? { logo } : {}),
        address: { "@type": "PostalAddress", addressLocality: school.city, addressRegion: school.uf, addressCountry: "BR" },
        ...(own.length > 0
          ? {
              makesOffer: own.map((b) => ({
                "@type": "Offer",
                name: b.className,
                url: `${url}#beneficio-${b.id}`,
                price: b.discountedFee.toFixed(2),
                priceCurrency: "BRL",
                description: whoQualifies(b),
                availability: b.slots > 0 ? "https://schema.org/InStock" : "https://schema.org/SoldOut",
              })),
            }
          : {}),
      },
    ],
  };
  return page(
    200,
    <Document head={head} crumbs={crumbs}>
      <div className="school-head">
        <Logo name={school.name} src={logo} />
        <div>
          <h1>{school.name}</h1>
          <p className="muted">{m.schoolOf(niche, school.neighborhood, school.city, school.uf)}</p>
          <a className="btn wa" href={whatsAppLink(school.name, url)} rel="nofollow noopener" target="_blank">
            {m.shareWhatsApp}
          </a>
        </div>
      </div>
      <h2>{m.ownBenefitsHeading}</h2>
      {own.length > 0 ? (
        <div className="benefits">
          {own.map((b) => (
            <BenefitCard key={b.id} b={b} origin={ctx.origin} showSchool={false} />
          ))}
        </div>
      ) : (
        <p>{m.noOwnBenefits}</p>
      )}
      <h2>{m.forStudentsHeading}</h2>
      <p className="lead">{m.forStudentsIntro}</p>
      {forStudents.length > 0 ? (
        <div className="benefits">
          {forStudents.map((b) => (
            <BenefitCard key={b.id} b={b} origin={ctx.origin} showSchool />
          ))}
        </div>
      ) : (
        <p>{m.noForStudents}</p>
      )}
    </Document>,
  );
}

/** What a city's preview image shows. */
const cityPreviewData = (city: string, uf: string, schools: number, best: number): PreviewData => ({
  title: `${city} (${uf})`,
  subtitle: m.ogCitySubtitle(schools),
  best: best > 0 ? `${formatPercent(best)}%` : null,
  logoKey: null,
});

/** What a school's preview image shows. */
const schoolPreviewData = (school: q.PublicSchool, best: number): PreviewData => ({
  title: school.name,
  subtitle: m.schoolOf(school.niche ?? m.noNiche, school.neighborhood, school.city, school.uf),
  best: best > 0 ? `${formatPercent(best)}%` : null,
  logoKey: school.logoUrl && !/^https?:/i.test(school.logoUrl) ? school.logoUrl : null,
});

/** The versioned address of a preview image: it changes whenever what the image shows changes. */
const previewUrl = (ctx: PageContext, kind: "escola" | "cidade", key: string, data: PreviewData) => `${ctx.origin}/escolas/imagem/${kind}/${key}/${previewVersion(data)}.jpg`;

/** The preview data of a page that exists now (null: none), for the image route. */
export async function previewFor(ctx: PageContext, kind: string, key: string): Promise<PreviewData | null> {
  if (kind === "escola") {
    if (!parseSchoolSegment(key)) return null;
    const school = await q.schoolById(ctx.db, key);
    if (!school?.listed || !school.hasPage) return null;
    const own = await q.schoolBenefits(ctx.db, school.id);
    return schoolPreviewData(school, own.reduce((a, b) => Math.max(a, b.discountPercentage), 0));
  }
  const m2 = /^([a-z]{2})-([a-z0-9-]{1,120})$/.exec(key);
  if (kind !== "cidade" || !m2) return null;
  const uf = m2[1]!.toUpperCase();
  const [schools, benefits] = await Promise.all([q.citySchools(ctx.db, uf, m2[2]!), q.cityBenefits(ctx.db, uf, m2[2]!, CITY_BENEFITS)]);
  if (schools.length === 0) return null;
  return cityPreviewData(schools[0]!.city, uf, schools.length, benefits.reduce((a, b) => Math.max(a, b.discountPercentage), 0));
}

async function helpPage(ctx: PageContext, status: 404 | 410, title: string, text: string, heading = title): Promise<PageResult> {
  // The cities with most schools (the whole list runs to thousands at full scale), in name order.
  const cities = (await q.listCities(ctx.db, null))
    .sort((a, b) => b.schools - a.schools || b.benefits - a.benefits)
    .slice(0, HELP_CITIES)
    .sort((a, b) => a.name.localeCompare(b.name, "pt-BR"));
  const head: HeadData = { title: `${title} | ${m.siteName}`, description: text, canonical: ctx.origin + publicPaths.states(), noindex: true, jsonLd: [] };
  return page(
    status,
    <Document head={head} crumbs={[]}>
      <h1>{heading}</h1>
      <p className="lead">{text}</p>
      <p>
        <a href="/">{accessMessages.backHome}</a>
      </p>
      <SearchForm />
      <h2>{m.citiesHeading}</h2>
      <CityList cities={cities} />
    </Document>,
  );
}

/** The 404 page: a search box and the city list. */
export const notFoundPage = (ctx: PageContext) => helpPage(ctx, 404, m.notFoundTitle, m.notFoundText, accessMessages.notFound);
/** The 410 page of a school that left the network or the public pages (decision 160). */
export const gonePage = (ctx: PageContext) => helpPage(ctx, 410, m.goneTitle, m.goneText);

/** The page a public path answers (503) while the database is away: made without it, once. */
export function unavailablePage(origin: string): string {
  const text = accessMessages.serviceUnavailable;
  const head: HeadData = { title: `${text} | ${m.siteName}`, description: text, canonical: origin + publicPaths.states(), noindex: true, jsonLd: [] };
  return `<!DOCTYPE html>${renderToStaticMarkup(
    <Document head={head} crumbs={[]}>
      <h1>{text}</h1>
      <p>
        <a href="/">{accessMessages.backHome}</a>
      </p>
    </Document>,
  )}`;
}
