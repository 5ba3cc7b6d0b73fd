import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AppError, Caller, ErrorCode, JsonText, notFound, unauthenticated } from '@ddm/contracts';
import { Db, enterTenant, join as joinSql, listSql, pageRows, raw, sql } from '@ddm/platform';
import { stream as excelStream } from 'exceljs';
import { LRUCache } from 'lru-cache';
import { matrixAudience } from '../core/audience';
import { visibleTo } from '../core/matrix.sql';
import { statusByName } from '../core/matrix-status.rules';
import { verifyPassword } from '../core/share-password';
import { GridPageView, SharedMatrixView } from './dto/grid.response';
import {
  AuthorityRow,
  DelegationFilter,
  DelegationState,
  GridColumn,
  GridRow,
  LimitFormatting,
  SHARE_PASSWORD_TRIES,
  SHARE_PASSWORD_WINDOW_SECONDS,
  chosenRoles,
  csvLine,
  exportFields,
  exportFileName,
  exportHeader,
  externalLinkOpen,
  formattedLimit,
  gridFilter,
  rowCells,
} from './grid.rules';
import { GRID_MATRIX_COLUMNS, GridMatrixRow, chosenColumns, delegationsSource, gridRows, holderColumns, namesColumns, pageDelegations } from './grid.sql';

/** Rows read per statement while exporting (the grid's own page limit). */
const EXPORT_PAGE = 100;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** What the answered grid pages kept for serving again may take (bytes of JSON; the compressed copy a page gets on its first deflate client adds about a tenth). */
const KEPT_PAGES_SIZE = 64 * 1024 * 1024;

interface RowRow {
  decision_id: string;
  decision_display_id: string;
  name: string;
  section_name: string | null;
  category_name: string | null;
  authorities: AuthorityRow[];
}

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

@Injectable()
export class GridService {
  /**
   * Answered pages, serialized, by matrix, page, limit, `at` and the version of the tenant's grids
   * read with the matrix (before the page's own statements, so a page is never kept under a version
   * newer than what it shows): any change to what grids are read from (a delegation, a decision, a
   * name, the matrix itself) makes a new version, and the pages of the old one are not served
   * again. Concurrent requests for a page not kept yet wait for one reading.
   */
  private readonly kept = new LRUCache<string, JsonText, { m: GridMatrixRow; page: number; limit: number; at: string | undefined }>({
    maxSize: KEPT_PAGES_SIZE,
    sizeCalculation: (t) => Math.max(1, t.byteLength),
    fetchMethod: async (_key, _stale, { context: { m, page, limit, at } }) => JsonText.of(JSON.stringify(await this.page(m, page, limit, at))),
  });

  constructor(private readonly db: Db) {}

  /** A page of the grid as JSON, served from the kept pages while nothing it was read from has changed. */
  async pageJson(m: GridMatrixRow, page: number, limit: number, at: string | undefined): Promise<JsonText> {
    const key = `${m.tenant_id}|${m.grid_version ?? 0}|${m.id}|${page}|${limit}|${at ?? ''}`;
    const text = await this.kept.fetch(key, { context: { m, page, limit, at } });
    return text!;
  }

  /** The matrix the caller sees (404 otherwise). */
  async forCaller(caller: Caller, id: string): Promise<GridMatrixRow> {
    const a = await matrixAudience(this.db, caller);
    const [m] = await this.db.query<GridMatrixRow>(sql`SELECT ${raw(GRID_MATRIX_COLUMNS)} FROM matrix.matrices m
      WHERE ${joinSql([sql`m.id = ${id}`, sql`m.tenant_id = ${caller.tenantId}`, sql`NOT m.is_deleted`, ...visibleTo(a)], ' AND ')}`);
    if (!m) throw notFound(`Matrix ${id} not found`);
    return m;
  }

  /**
   * The matrix behind an external link: 404 for an unknown, disabled or expired link (nothing tells
   * them apart); with a password, 429 after 10 wrong ones in 15 minutes, 401 for a missing or wrong one.
   */
  async forToken(token: string, password: string | undefined): Promise<GridMatrixRow> {
    if (!TOKEN.test(token)) throw notFound('Shared matrix not found');
    // The token names the tenant: found on the explicit cross-tenant path, then the rest of the request runs in that tenant.
    const [m] = await this.db.acrossTenants('find a shared matrix by its link token', () =>
      this.db.query<GridMatrixRow>(sql`SELECT ${raw(GRID_MATRIX_COLUMNS)} FROM matrix.matrices m
        WHERE m.ext_token = ${token} AND NOT m.is_deleted AND m.ext_enabled`),
    );
    if (m) enterTenant(m.tenant_id);
    if (!m || !externalLinkOpen({ enabled: m.ext_enabled, expirationEnabled: m.ext_expiration_enabled, expirationDate: m.ext_expiration_date }, new Date())) {
      throw notFound('Shared matrix not found');
    }
    if (m.ext_password_required) {
      const [{ n }] = await this.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM matrix.share_failures
        WHERE matrix_id = ${m.id} AND failed_on > now() - make_interval(secs => ${SHARE_PASSWORD_WINDOW_SECONDS})`);
      if (n >= SHARE_PASSWORD_TRIES) throw new AppError(ErrorCode.RateLimited, 'Too many wrong passwords for this link; try again later');
      if (!password || !m.ext_password_hash || !(await verifyPassword(password, m.ext_password_hash))) {
        await this.db.query(sql`INSERT INTO matrix.share_failures (matrix_id, tenant_id) VALUES (${m.id}, ${m.tenant_id})`);
        throw unauthenticated(password ? 'Wrong password for this link' : 'This link needs a password (X-Share-Password header)');
      }
    }
    return m;
  }

  shared(m: GridMatrixRow): SharedMatrixView {
    return {
      id: m.id,
      matrixId: m.matrix_display_id,
      matrixName: m.matrix_name,
      matrixDescription: m.matrix_description,
      matrixStatus: { ...statusByName(m.status_name) },
    };
  }

  async columns(m: GridMatrixRow, at: string | undefined): Promise<GridColumn[]> {
    const rows = await this.db.query<GridColumn>(namesColumns(m) ? chosenColumns(m) : holderColumns(m, at));
    return rows.map((r) => ({ id: r.id, kind: r.kind, name: r.name }));
  }

  /** One page of the grid: the page's rows with their cells over every column, in three statements. */
  async page(m: GridMatrixRow, page: number, limit: number, at: string | undefined, columns?: GridColumn[]): Promise<GridPageView> {
    const cols = columns ?? (await this.columns(m, at));
    const rows = await this.db.query<RowRow & { total: number; ord: unknown }>(listSql(gridRows(m, page, limit, at)));
    const { items, total } = pageRows(rows, (r: RowRow) => r);
    const ids = items.map((r) => r.decision_id);
    const filter = gridFilter(m.delegation_filter as DelegationFilter, m);
    const delegations = ids.length
      ? await this.db.query<DelegationState>(
          sql`${delegationsSource(m.tenant_id, at, pageDelegations(m, ids, filter.issuanceStatusNames, chosenRoles(filter)))}`,
        )
      : [];
    const types = await this.db.query<{ id: string; authority_type: string }>(sql`SELECT id, authority_type FROM matrix.authority_type_projection WHERE tenant_id = ${m.tenant_id}`);
    const typeNames = new Map(types.map((t) => [t.id, t.authority_type]));
    const formatting = (m.formatting ?? {}) as LimitFormatting;
    const byDecision = new Map<string, DelegationState[]>();
    for (const d of delegations) {
      const list = byDecision.get(d.decision_id) ?? [];
      list.push(d);
      byDecision.set(d.decision_id, list);
    }
    const gridRowsOut: GridRow[] = items.map((r) => ({
      decisionId: r.decision_id,
      decisionDisplayId: r.decision_display_id,
      name: r.name,
      sectionName: r.section_name,
      categoryName: r.category_name,
      authorities: (r.authorities ?? []).map((a) => ({
        authorityTypeId: a.authorityTypeId,
        authorityType: typeNames.get(a.authorityTypeId) ?? null,
        authorityLimit: a.authorityLimit,
        value: a.authorityLimitValue,
        unit: a.authorityLimitValueUnit,
        operator: a.authorityLimitOperator,
        formattedLimit: formattedLimit(a, formatting),
      })),
      cells: rowCells(cols, byDecision.get(r.decision_id) ?? [], filter, formatting, typeNames),
    }));
    return { columns: cols, rows: gridRowsOut, page, limit, total, at: at ?? null };
  }

  /**
   * The whole grid as a download, streamed: rows are read a page at a time and written as they
   * come (CSV lines, or XLSX rows through exceljs' streaming writer), so memory stays bounded.
   */
  async export(m: GridMatrixRow, format: 'csv' | 'xlsx', at: string | undefined): Promise<ExportFile> {
    const columns = await this.columns(m, at);
    const pages = this.pages(m, columns, at);
    const fileName = exportFileName(m.matrix_name, format, at);
    if (format === 'csv') {
      async function* lines() {
        yield csvLine(exportHeader(columns));
        for await (const rows of pages) for (const row of rows) yield csvLine(exportFields(row));
      }
      return { fileName, contentType: 'text/csv; charset=utf-8', body: Readable.from(lines()) };
    }
    const out = new PassThrough();
    const workbook = new excelStream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Matrix', { views: [{ state: 'frozen', ySplit: 1, xSplit: 4 }], properties: { outlineLevelRow: 2 } as never });
    const header = sheet.addRow(exportHeader(columns));
    header.font = { bold: true };
    header.commit();
    void (async () => {
      let section: string | null | undefined;
      let category: string | null | undefined;
      for await (const rows of pages) {
        for (const row of rows) {
          // A heading row where a section or a category starts; the decisions under it are outlined (grouped).
          if (row.sectionName !== section) {
            section = row.sectionName;
            category = undefined;
            const heading = sheet.addRow([row.sectionName ?? '(No section)']);
            heading.font = { bold: true };
            heading.commit();
          }
          if (row.categoryName !== category) {
            category = row.categoryName;
            const heading = sheet.addRow(['', row.categoryName ?? '(No category)']);
            heading.font = { italic: true };
            heading.outlineLevel = 1;
            heading.commit();
          }
          const r = sheet.addRow(exportFields(row));
          r.outlineLevel = 2;
          r.alignment = { wrapText: true, vertical: 'top' };
          r.commit();
        }
        // A slow reader holds the next page back: what waits in memory stays about one page.
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      sheet.commit();
      await workbook.commit();
    })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
    return { fileName, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body: out };
  }

  private async *pages(m: GridMatrixRow, columns: GridColumn[], at: string | undefined): AsyncGenerator<GridRow[]> {
    for (let page = 1; ; page++) {
      const p = await this.page(m, page, EXPORT_PAGE, at, columns);
      if (p.rows.length) yield p.rows;
      if (page * EXPORT_PAGE >= p.total || !p.rows.length) return;
    }
  }
}
