import { Injectable } from '@nestjs/common';
import { Db } from '@ddm/platform';
import { PreferencesView, UpdatePreferencesDto } from './dto/preference.dto';
import { PreferenceRow, preferenceSql, upsertPreferenceSql } from './preference.sql';

/** A person's notification preferences in a tenant (the email digest: off until they choose). */
@Injectable()
export class PreferencesService {
  constructor(private readonly db: Db) {}

  async get(tenantId: string, userId: string): Promise<PreferencesView> {
    const [row] = await this.db.query<PreferenceRow>(preferenceSql(tenantId, userId));
    return { tenantId, userId, emailDigest: row?.email_digest ?? 'off' };
  }

  async update(tenantId: string, userId: string, dto: UpdatePreferencesDto): Promise<PreferencesView> {
    const [row] = await this.db.query<PreferenceRow>(upsertPreferenceSql(tenantId, userId, dto.emailDigest));
    return { tenantId: row.tenant_id, userId: row.user_id, emailDigest: row.email_digest };
  }
}
