import { MigrationInterface, QueryRunner } from 'typeorm';
import { createMatchingFunction, dropMatchingFunction } from '@ddm/platform';
import { MATRICES_SEARCH } from '../core/text-search';

/**
 * The matrix area's text search through its trigram index under row-level security: a function per
 * searched table, run as its definer, for the request's tenant only (search.ts in libs/platform).
 */
export class MatrixSearchUnderRls1766500000001 implements MigrationInterface {
  name = 'MatrixSearchUnderRls1766500000001';

  async up(q: QueryRunner): Promise<void> {
    for (const search of [MATRICES_SEARCH]) await createMatchingFunction(q, search);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const search of [MATRICES_SEARCH]) await dropMatchingFunction(q, search);
  }
}
