/** The tenant's currencies as the product answers them: `{ currency: name, currencyCode }`. */
export interface TenantCurrency {
  currency: string;
  currencyCode: string;
}

const NAMES = new Intl.DisplayNames(['en'], { type: 'currency' });

/** The English name of an ISO 4217 code (Euro, US Dollar); the code itself when the runtime knows no name. */
export function currencyName(code: string): string {
  try {
    return NAMES.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Each code once, upper case, in the order given (the tenant's base currency first, then the
 * groups' base currencies, then those with rates), blanks dropped, each with its name.
 */
export function tenantCurrencies(codes: readonly (string | null | undefined)[]): TenantCurrency[] {
  const seen = new Set<string>();
  const out: TenantCurrency[] = [];
  for (const raw of codes) {
    const code = raw?.trim().toUpperCase();
    if (!code || seen.has(code)) continue;
    seen.add(code);
    out.push({ currency: currencyName(code), currencyCode: code });
  }
  return out;
}
