import { addOutboxTraceContext, dropOutboxTraceContext } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The settings outbox keeps the trace context of the work that wrote each row, for the relay to carry on. */
export class SettingsOutboxTrace1764900000000 implements MigrationInterface {
  name = 'SettingsOutboxTrace1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await addOutboxTraceContext(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTraceContext(q, 'settings');
  }
}
