import { addProjectionBackfills, dropProjectionBackfills, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The document area's documents projected here (decision.document_projection): the documents a
 * decision or delegation links are checked to be the tenant's, and their names, links and types
 * shown. The projection is backfilled from the document area's snapshot (projection_backfills
 * records it), since the stream no longer holds the events of documents older than its retention.
 */
export class DecisionDocuments1766300000000 implements MigrationInterface {
  name = 'DecisionDocuments1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE decision.document_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL,
        document_display_id varchar(20), document_name varchar(200) NOT NULL, document_description text, document_url varchar(2048),
        document_type_name varchar(150), document_icon varchar(150), document_file_type varchar(150), document_status varchar(20) NOT NULL,
        document_sharing_type varchar(20), owner_id uuid, is_deleted boolean NOT NULL DEFAULT false,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX document_projection_by_tenant ON decision.document_projection (tenant_id, id) WHERE NOT is_deleted`);
    await isolateTenantTables(q, 'decision');
    await addProjectionBackfills(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropProjectionBackfills(q, 'decision');
    await q.query(`DROP TABLE decision.document_projection`);
  }
}
