import { Injectable } from '@nestjs/common';
import { notFound } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';
import { TenantRow } from './dto/tenant.response';
import { TENANT_BY_ID_SQL } from './tenant.sql';

/** What other resources (invitations) ask of tenants. */
@Injectable()
export class TenantRefs {
  /** The tenant's name (an invitation email names it); 404 for an unknown tenant. */
  async nameOf(q: Queryable, tenantId: string): Promise<string> {
    const [row] = await q.query<TenantRow>(TENANT_BY_ID_SQL, [tenantId]);
    if (!row) throw notFound(`Tenant ${tenantId} not found`);
    return row.name;
  }
}
