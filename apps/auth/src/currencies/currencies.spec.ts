import { currencyName, tenantCurrencies } from './currency.rules';

describe("the tenant's currencies", () => {
  it('each code once, upper case, in the order given, with its English name', () => {
    expect(tenantCurrencies(['EUR', 'gbp', null, 'EUR', ' chf ', '', 'GBP'])).toEqual([
      { currency: 'Euro', currencyCode: 'EUR' },
      { currency: 'British Pound', currencyCode: 'GBP' },
      { currency: 'Swiss Franc', currencyCode: 'CHF' },
    ]);
  });

  it('a code the runtime has no name for is named by itself', () => {
    expect(currencyName('XQQ')).toBe('XQQ');
    expect(currencyName('not a code')).toBe('not a code');
  });
});
