import { ProjectionSpec } from '@ddm/platform';

/**
 * auth.currency_rate_projection: which currencies have a rate in the decision area (its
 * currency-rates table, which auth cannot read), one row per tenant, replaced whole by each event.
 */
export const CURRENCY_RATES: ProjectionSpec<'evt.decision.currency-rates.replaced'> = {
  name: 'auth-decision-currency-rates',
  subjects: ['evt.decision.currency-rates.replaced'],
  table: 'auth.currency_rate_projection',
  key: 'id',
  row: ({ payload: e }) => ({ id: e.tenantId, tenantId: e.tenantId, version: e.version, values: { currencies: e.currencies } }),
  // Added after tenants first set their rates: those whose events aged out come from the decision area's snapshot.
  backfill: { source: 'decision.currency-rates', subject: 'evt.decision.currency-rates.replaced' },
};
