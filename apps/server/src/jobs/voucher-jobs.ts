import type { AppDeps } from "../deps";
import { expireDueVouchers } from "../vouchers/expire";
import { lapseDueOffers } from "../waitlist/offers";
import type { Job } from "./scheduler";

/** The voucher life cycle's periodic work. */
export const voucherJobs = (deps: AppDeps): Job[] => [
  { name: "expire-vouchers", run: () => expireDueVouchers(deps) },
  { name: "lapse-waitlist-offers", run: () => lapseDueOffers(deps) },
];
