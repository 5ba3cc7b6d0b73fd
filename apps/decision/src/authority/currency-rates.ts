/**
 * The tenant's currency rates (ours): what one unit of a currency is worth in the tenant's base
 * currency from a date on. The authority check converts a value asked in one currency to a limit's
 * other currency with the rates in force on the day asked about; without them the check is a 400.
 * PUT replaces the tenant's whole table (so a client sends what it has, and a retry is harmless).
 */
import { Caller, badRequest } from '@ddm/contracts';
import { Db, SnapshotSource } from '@ddm/platform';
import { millionths } from '../core/delegation.rules';
import { Convert } from './authority.rules';
import { RATES_SQL } from './authority.sql';
import { CurrencyRatesDto, CurrencyRatesView } from './dto/currency-rates.dto';

/** A tenant's base currency before its settings ever changed (auth's default): its settings event has not come. */
const DEFAULT_BASE_CURRENCY = 'USD';

const BASE_SQL = `SELECT coalesce((SELECT base_currency FROM decision.tenant_settings_projection WHERE tenant_id = $1), '${DEFAULT_BASE_CURRENCY}') AS base_currency`;

interface RateRow {
  currency: string;
  valid_from: string;
  rate: string;
}

const RATE = /^(0|[1-9]\d{0,17})(?:\.(\d{1,12}))?$/;
/** A rate in 10^-12 units, exactly. */
function picos(rate: string): bigint {
  const m = RATE.exec(rate);
  if (!m) throw new Error(`not a rate: ${rate}`);
  return BigInt(m[1]) * 10n ** 12n + BigInt((m[2] ?? '').padEnd(12, '0'));
}

/** Millionths as a decimal string ("1250.5"). */
function decimal(micros: bigint): string {
  const whole = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/**
 * A converter for instants on `day` (YYYY-MM-DD) from the tenant's rates (ordered by currency, then
 * date): value × rate(from) / rate(to), the base currency at 1, each currency's rate the latest from
 * that day or before, rounded up to a millionth (a converted value never slips under a limit by
 * rounding). A currency without a rate then is a 400 naming it.
 */
export function converterOn(day: string, base: string, rates: readonly RateRow[]): Convert {
  const rateOf = (currency: string): bigint => {
    const c = currency.toUpperCase();
    if (c === base.toUpperCase()) return 10n ** 12n;
    let found: string | null = null;
    for (const r of rates) if (r.currency === c && r.valid_from <= day) found = r.rate;
    if (found === null) {
      throw badRequest(`No rate for ${c} on ${day}: a value in another currency than the limit's needs the tenant's currency rates`, [
        { field: 'unit', message: `no conversion rate for ${c} on ${day} (base currency ${base})` },
      ]);
    }
    return picos(found);
  };
  return (value, from, to) => {
    const v = millionths(value);
    if (v === null) throw badRequest(`"${value}" is not a decimal`, [{ field: 'value', message: 'must be a decimal' }]);
    const [f, t] = [rateOf(from), rateOf(to)];
    return decimal((v * f + t - 1n) / t);
  };
}

/** The tenant's rates in force on or before `latest` (an instant), and its base currency. */
export async function loadRates(db: Db, tenantId: string, latest: Date): Promise<{ base: string; rates: RateRow[] }> {
  const [rates, [settings]] = await Promise.all([db.query<RateRow>(RATES_SQL, [tenantId, latest.toISOString().slice(0, 10)]), db.query<{ base_currency: string }>(BASE_SQL, [tenantId])]);
  return { base: settings.base_currency, rates };
}

export async function getRates(db: Db, caller: Caller): Promise<CurrencyRatesView> {
  const tenantId = caller.tenantId;
  const [rows, [settings]] = await Promise.all([
    db.query<RateRow>(`SELECT currency, valid_from::text AS valid_from, rate::text AS rate FROM decision.currency_rates WHERE tenant_id = $1 ORDER BY currency, valid_from`, [tenantId]),
    db.query<{ base_currency: string }>(BASE_SQL, [tenantId]),
  ]);
  return { baseCurrency: settings.base_currency, rates: rows.map((r) => ({ currency: r.currency, rate: r.rate.replace(/\.?0+$/, ''), validFrom: r.valid_from })) };
}

/** PUT: the tenant's rates become exactly those sent (one per currency and date; the base currency has none). */
export async function putRates(db: Db, caller: Caller, dto: CurrencyRatesDto): Promise<CurrencyRatesView> {
  const tenantId = caller.tenantId;
  const [settings] = await db.query<{ base_currency: string }>(BASE_SQL, [tenantId]);
  const seen = new Set<string>();
  dto.rates.forEach((r, i) => {
    if (r.currency === settings.base_currency.toUpperCase()) throw badRequest(`${r.currency} is the base currency`, [{ field: `rates.${i}.currency`, message: `${r.currency} is the tenant's base currency (rate 1)` }]);
    const key = `${r.currency}/${r.validFrom}`;
    if (seen.has(key)) throw badRequest(`Two rates for ${r.currency} from ${r.validFrom}`, [{ field: `rates.${i}`, message: `a second rate for ${r.currency} from ${r.validFrom}` }]);
    seen.add(key);
  });
  await db.transaction(async (tx) => {
    // One PUT at a time per tenant.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('decision.currency_rates'), hashtext($1))`, [tenantId]);
    await tx.query(`DELETE FROM decision.currency_rates WHERE tenant_id = $1`, [tenantId]);
    await tx.query(
      `INSERT INTO decision.currency_rates (tenant_id, currency, valid_from, rate, updated_by)
       SELECT $1, c, d, r, $5 FROM unnest($2::text[], $3::date[], $4::numeric[]) AS x(c, d, r)`,
      [tenantId, dto.rates.map((r) => r.currency), dto.rates.map((r) => r.validFrom), dto.rates.map((r) => r.rate), caller.userId],
    );
    // The auth area answers the tenant's currencies (base and those with rates) from this event.
    const [{ version }] = await tx.query<{ version: string }>(`SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS version`);
    await tx.publish('evt.decision.currency-rates.replaced', { tenantId, currencies: [...new Set(dto.rates.map((r) => r.currency))].sort(), version: Number(version) });
  });
  return getRates(db, caller);
}

/**
 * `sync.decision.currency-rates`: each tenant with rates, as evt.decision.currency-rates.replaced
 * carries them (what the auth area's projection backfills from). The version is the rates' last
 * replacement (microseconds of its transaction's start; the replacement's own event, taken later in
 * that transaction, is newer, and wins).
 */
export const CURRENCY_RATES_SNAPSHOT: SnapshotSource<'evt.decision.currency-rates.replaced'> = {
  name: 'decision.currency-rates',
  subject: 'evt.decision.currency-rates.replaced',
  page: async (q, after, limit) =>
    (
      await q.query<{ tenant_id: string; currencies: string[]; version: string }>(
        `SELECT tenant_id, array_agg(DISTINCT currency ORDER BY currency) AS currencies, (extract(epoch FROM max(updated_on)) * 1000000)::bigint AS version
           FROM decision.currency_rates WHERE $1::uuid IS NULL OR tenant_id > $1::uuid GROUP BY tenant_id ORDER BY tenant_id LIMIT $2`,
        [after, limit],
      )
    ).map((r) => ({ id: r.tenant_id, payload: { tenantId: r.tenant_id, currencies: r.currencies, version: Number(r.version) } })),
};
