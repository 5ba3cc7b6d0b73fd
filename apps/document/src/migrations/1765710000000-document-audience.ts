import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audience of each live RESTRICTED document (a row per person, group or position it names:
 * owner, creator, sharing users and groups, responsible/reviewer/approver users and positions),
 * written in the transaction of every change of the document. A caller's restricted documents are
 * then an index-only range per principal they are (themselves, their positions, their groups with
 * every ancestor), and the restricted documents they see are counted without reading a document.
 * Tenant-wide and deleted documents have no rows. Filled here for the documents there are.
 */
export class DocumentAudience1765710000000 implements MigrationInterface {
  name = 'DocumentAudience1765710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE document.document_audience (
        tenant_id uuid NOT NULL,
        document_id uuid NOT NULL REFERENCES document.documents (id),
        -- U: a user, G: a group (its descendant groups' members see it too), P: a position (its holders).
        kind char(1) NOT NULL CHECK (kind IN ('U', 'G', 'P')),
        principal_id uuid NOT NULL,
        PRIMARY KEY (document_id, kind, principal_id) INCLUDE (tenant_id)
      )`);
    await q.query(`CREATE INDEX document_audience_principal ON document.document_audience (tenant_id, kind, principal_id, document_id)`);
    await q.query(`
      INSERT INTO document.document_audience (tenant_id, document_id, kind, principal_id)
      SELECT DISTINCT d.tenant_id, d.id, p.kind, p.principal_id
        FROM document.documents d
        CROSS JOIN LATERAL (
          SELECT 'U', u FROM unnest(ARRAY[d.owner_id, d.created_by, d.responsible_user_id, d.reviewer_user_id, d.approver_user_id]) AS u
          UNION ALL SELECT 'P', pos FROM unnest(ARRAY[d.responsible_position_id, d.reviewer_position_id, d.approver_position_id]) AS pos
          UNION ALL SELECT 'G', sg.group_id FROM document.document_sharing_groups sg WHERE sg.document_id = d.id
          UNION ALL SELECT 'U', su.user_id FROM document.document_sharing_users su WHERE su.document_id = d.id) AS p(kind, principal_id)
       WHERE NOT d.is_deleted AND d.document_sharing_type = 'RESTRICTED' AND p.principal_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS document.document_audience`);
  }
}
