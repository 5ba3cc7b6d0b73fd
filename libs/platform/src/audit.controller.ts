import { Controller, Get, Injectable, Module, Query, Type } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import {
  AreaName,
  ApiAuth,
  ApiJsonValue,
  ApiPageResponse,
  Caller,
  CurrentCaller,
  IsoDateTime,
  OptionalNotNull,
  Page,
  PageQuery,
  RequirePermission,
  ResponseMessage,
  SORT_ORDERS,
  SortOrder,
  routeOf,
} from '@ddm/contracts';
import { AUDIT_COLUMN_TYPES_SQL, AuditColumnType, auditChanges } from './audit';
import { Db } from './db';
import { listPage, sortBy } from './list';
import { Sql, raw, sql } from './sql';

/** GET /<area>/v1/audit: a page of the tenant's audit trail in this area, newest first unless told. */
export class ListAuditQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'The changed record’s kind: its table (`positions`, `delegations`, …)', maxLength: 63, example: 'positions' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^[a-z_][a-z0-9_]*$/, { message: 'entityType must be a table name (lower case letters, digits and _)' })
  @MaxLength(63)
  entityType?: string;

  @ApiPropertyOptional({ description: 'The changed record’s id (its key; parts of a composite key joined by :)', maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  entityId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Who changed it (users.id); the system’s own changes have none' })
  @OptionalNotNull()
  @IsUUID()
  actorId?: string;

  @ApiPropertyOptional({ description: 'Changed at or after (ISO 8601 date-time)', example: '2026-01-01T00:00:00.000Z' })
  @OptionalNotNull()
  @IsoDateTime()
  startDate?: string;

  @ApiPropertyOptional({ description: 'Changed at or before (ISO 8601 date-time; inclusive to the millisecond)', example: '2026-12-31T23:59:59.999Z' })
  @OptionalNotNull()
  @IsoDateTime()
  endDate?: string;

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'desc', description: 'By the time of the change' })
  @OptionalNotNull()
  @IsIn(SORT_ORDERS)
  override sortOrder: SortOrder = 'desc';
}

export class AuditChange {
  @ApiProperty({ description: 'The field (column) that changed' }) field: string;
  @ApiJsonValue('Its value before (null on creation)') from: unknown;
  @ApiJsonValue('Its value after (null on deletion)') to: unknown;
}

export class AuditEntryView {
  @ApiProperty({ description: 'The entry’s id (increasing)' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ description: 'The record’s kind (its table)' }) entityType: string;
  @ApiProperty({ description: 'The record’s id' }) entityId: string;
  @ApiProperty({ enum: ['CREATE', 'UPDATE', 'DELETE'], description: 'A soft delete is an UPDATE of isDeleted' }) action: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Who (users.id); null for the system’s own work (sweeps, events of other areas)' }) actorId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The request (x-request-id) or message that made the change' }) requestId: string | null;
  @ApiProperty({ type: [AuditChange], description: 'The changed fields, before and after' }) changes: AuditChange[];
  @ApiProperty({ format: 'date-time' }) changedAt: string;
}

interface AuditRow {
  id: string;
  tenant_id: string;
  entity_type: string;
  entity_id: string;
  action: string;
  actor_id: string | null;
  request_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  changed_at: Date;
}

function toView(r: AuditRow, columns: ReadonlyMap<string, AuditColumnType> | undefined): AuditEntryView {
  return {
    id: String(r.id),
    tenantId: r.tenant_id,
    entityType: r.entity_type,
    entityId: r.entity_id,
    action: r.action,
    actorId: r.actor_id,
    requestId: r.request_id,
    changes: auditChanges(r.before, r.after, columns),
    changedAt: r.changed_at.toISOString(),
  };
}

@Injectable()
export class AuditService {
  /**
   * The column types of the area's tables, by table: read once per table, and again when an entry
   * names a field they lack that was not looked up already (a column a migration added while this
   * version runs, ahead of a rolling deploy). A field still missing then (a column dropped since
   * the entry) is remembered, so old entries cost no lookup per request.
   */
  private readonly columnTypes = new Map<string, Map<string, AuditColumnType>>();
  private readonly missing = new Map<string, Set<string>>();

  constructor(private readonly db: Db) {}

  async list(tenantId: string, q: ListAuditQuery): Promise<Page<AuditEntryView>> {
    const table = raw(`"${this.db.schema}".audit_log`);
    const where: Sql[] = [sql`a.tenant_id = ${tenantId}`];
    if (q.entityType) where.push(sql`a.entity_type = ${q.entityType}`);
    if (q.entityId) where.push(sql`a.entity_id = ${q.entityId}`);
    if (q.actorId) where.push(sql`a.actor_id = ${q.actorId}`);
    if (q.startDate) where.push(sql`a.changed_at >= ${q.startDate}::timestamptz`);
    if (q.endDate) where.push(sql`a.changed_at < ${q.endDate}::timestamptz + interval '1 millisecond'`);
    const page = await listPage<AuditRow, AuditRow>(
      this.db,
      {
        from: sql`${table} a`,
        where,
        id: 'a.id',
        sort: sortBy({ changedAt: ['a.changed_at'] }, 'changedAt', q.sortOrder),
        view: { columns: raw('a.id, a.tenant_id, a.entity_type, a.entity_id, a.action, a.actor_id, a.request_id, a.before, a.after, a.changed_at'), from: sql`${table} a ON a.id = page.id` },
        page: q.page,
        limit: q.limit,
      },
      (r) => r,
    );
    const unknown = new Set(page.data.filter((r) => this.unknownFields(r).length).map((r) => r.entity_type));
    if (unknown.size) {
      const tables = [...unknown];
      const rows = await this.db.query<{ table: string; column: string; category: string; type: string; element_category: string | null; element_type: string | null }>(
        AUDIT_COLUMN_TYPES_SQL,
        [this.db.schema, tables],
      );
      for (const t of tables) this.columnTypes.set(t, new Map());
      for (const r of rows) this.columnTypes.get(r.table)!.set(r.column, { category: r.category, type: r.type, elementCategory: r.element_category, elementType: r.element_type });
      for (const r of page.data) {
        const still = unknown.has(r.entity_type) ? this.unknownFields(r) : [];
        if (still.length) this.missing.set(r.entity_type, new Set([...(this.missing.get(r.entity_type) ?? []), ...still]));
      }
    }
    return { ...page, data: page.data.map((r) => toView(r, this.columnTypes.get(r.entity_type))) };
  }

  /** The entry's fields its table's known types lack and no lookup has missed yet (all of them for a table not read yet). */
  private unknownFields(r: AuditRow): string[] {
    const types = this.columnTypes.get(r.entity_type);
    const fields = [...Object.keys(r.before ?? {}), ...Object.keys(r.after ?? {})];
    if (!types) return fields.length ? fields : ['(table)'];
    const missing = this.missing.get(r.entity_type);
    return fields.filter((f) => !types.has(f) && !missing?.has(f));
  }
}

/** The audit trail's read endpoint of an area: `/<area>/v1/audit` (notifications: `/v1/notifications/audit`). */
export function auditController(area: AreaName): Type<unknown> {
  const path = routeOf(area).globalPrefix ? 'v1/audit' : 'v1/notifications/audit';

  @ApiTags('Audit trail')
  @ApiAuth()
  @Controller(path)
  class AuditController {
    constructor(private readonly audit: AuditService) {}

    @Get()
    @RequirePermission('view:audit')
    @ApiOperation({
      summary: `The audit trail of the ${area} area`,
      description:
        'Every change of a record of this area in the tenant: who (actorId), when, what (the changed fields before and after) and the request id. Append-only; newest first unless sortOrder=asc. Filters: entityType, entityId, actorId, startDate/endDate.',
    })
    @ApiPageResponse(AuditEntryView, 'Paged audit entries')
    @ResponseMessage('Audit trail retrieved successfully')
    list(@Query() query: ListAuditQuery, @CurrentCaller() caller: Caller): Promise<Page<AuditEntryView>> {
      return this.audit.list(caller.tenantId, query);
    }
  }
  return AuditController;
}

/** The audit trail's endpoint in a service (bootstrap imports it beside the platform module). */
export function auditModule(area: AreaName): Type<unknown> {
  @Module({ controllers: [auditController(area)], providers: [AuditService] })
  class AuditModule {}
  return AuditModule;
}
