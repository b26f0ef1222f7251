export { logoAddress } from "../../storage/logo";

/** True when the logo lives in our school_logos bucket (and so must be removed with it). */
export const isStoredLogo = (logoUrl: string | null): logoUrl is string => !!logoUrl && !/^https?:\/\//i.test(logoUrl);
