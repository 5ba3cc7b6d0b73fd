import { addOutboxTraceContext, dropOutboxTraceContext } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The decision outbox keeps the trace context of the work that wrote each row, for the relay to carry on. */
export class DecisionOutboxTrace1764900000000 implements MigrationInterface {
  name = 'DecisionOutboxTrace1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await addOutboxTraceContext(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTraceContext(q, 'decision');
  }
}
