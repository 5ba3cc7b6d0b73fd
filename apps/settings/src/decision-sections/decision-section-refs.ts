import { Injectable } from '@nestjs/common';
import { notFound } from '@ddm/contracts';
import { Tx } from '@ddm/platform';

/** What other resources (decision categories) ask of decision sections. */
@Injectable()
export class DecisionSectionRefs {
  /**
   * The id names a section of the tenant that is not deleted: else a 404 naming it, with the
   * request field that carried it in `errors`. Locked FOR SHARE: a delete of the section at the
   * same moment waits for this change (and then takes the category out of it), or this waits
   * and sees it deleted.
   */
  async requireLive(tx: Tx, tenantId: string, id: string, field: string): Promise<void> {
    const [found] = await tx.query(`SELECT 1 FROM settings.decision_sections WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR SHARE`, [id, tenantId]);
    if (!found) {
      const message = `Decision section ${id} not found`;
      throw notFound(message, [{ field, message }]);
    }
  }
}
