import { Injectable } from '@nestjs/common';
import { Db } from '@ddm/platform';
import { DEFAULT_BASE_CURRENCY } from '../tenant-settings/tenant-settings-refs';
import { TenantCurrencyView } from './dto/currency.response';
import { tenantCurrencies } from './currency.rules';
import { TENANT_CURRENCY_CODES_SQL } from './currency.sql';

@Injectable()
export class CurrenciesService {
  constructor(private readonly db: Db) {}

  /** The tenant's base currency, its groups' base currencies and the currencies with a rate, each once. */
  async list(tenantId: string): Promise<TenantCurrencyView[]> {
    const rows = await this.db.query<{ code: string | null }>(TENANT_CURRENCY_CODES_SQL, [tenantId, DEFAULT_BASE_CURRENCY]);
    return tenantCurrencies(rows.map((r) => r.code));
  }
}
