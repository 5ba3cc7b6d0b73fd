import { MigrationInterface, QueryRunner } from 'typeorm';
import { createMatchingFunction, dropMatchingFunction } from '@ddm/platform';
import { POSITIONS_SEARCH, GROUPS_SEARCH } from '../core/text-search';

/**
 * The text search's function answers the matching rows whole (the table's row type), not their ids:
 * a list reads them once per statement in place of the table, for its count and its page, with no
 * row looked up again by id (searchedRows, search.ts in libs/platform). Down keeps this form: the
 * condition form (`matchingIds`) reads the ids from the rows.
 */
export class SettingsSearchAnswersRows1766600000000 implements MigrationInterface {
  name = 'SettingsSearchAnswersRows1766600000000';

  async up(q: QueryRunner): Promise<void> {
    for (const search of [POSITIONS_SEARCH, GROUPS_SEARCH]) {
      await dropMatchingFunction(q, search);
      await createMatchingFunction(q, search);
    }
  }

  async down(): Promise<void> {
    // Nothing to undo that the earlier migrations' down does not (they drop the function).
  }
}
