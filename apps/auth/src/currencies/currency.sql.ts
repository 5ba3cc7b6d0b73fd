/**
 * The codes of a tenant's currencies, in answer order: its base currency (tenant settings, the
 * default when never set: $2), the base currencies of its live groups (settings' projection), then
 * the currencies with a rate (the decision area's, projected). $1 = tenant id.
 */
export const TENANT_CURRENCY_CODES_SQL = `
  SELECT code FROM (
    SELECT coalesce((SELECT s.base_currency FROM auth.tenant_settings s WHERE s.tenant_id = $1), $2) AS code, 0 AS rank
    UNION ALL
    SELECT g.base_currency, 1 FROM auth.group_projection g WHERE g.tenant_id = $1 AND NOT g.is_deleted AND g.base_currency IS NOT NULL
    UNION ALL
    SELECT unnest(c.currencies), 2 FROM auth.currency_rate_projection c WHERE c.tenant_id = $1
  ) codes
  ORDER BY rank, code`;
