import { addChangeIds, dropChangeIds } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The document outbox rows and processed messages carry their change id, so consistency tokens can be followed. */
export class DocumentChangeIds1766200000000 implements MigrationInterface {
  name = 'DocumentChangeIds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await addChangeIds(q, 'document');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropChangeIds(q, 'document');
  }
}
