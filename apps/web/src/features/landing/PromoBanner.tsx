import { LIMITS } from "@elo/shared";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { trpc } from "../../lib/trpc";

// The modal (focus trap, scroll lock, portal: ~29 KB gzip) opens 1 s after the first paint, so it
// loads in that second instead of in the landing's first load (decisions 082, 089).
const PromoModal = lazy(() => import("./PromoModal"));

/** The promotional banner of the parents' landing: a network school, shown after 1 s, closable. */
export function PromoBanner({ signedIn }: { signedIn: boolean }) {
  const { data: school } = useQuery(trpc.landing.banner.queryOptions(undefined, { staleTime: Infinity }));
  const [delayPassed, setDelayPassed] = useState(false);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDelayPassed(true), LIMITS.bannerDelayMs);
    return () => clearTimeout(timer);
  }, []);
  if (!school || !delayPassed) return null;
  return (
    <Suspense fallback={null}>
      <PromoModal school={school} signedIn={signedIn} opened={!closed} onClose={() => setClosed(true)} />
    </Suspense>
  );
}
