import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_SUBJECTS } from '@ddm/contracts';
import { Consumers } from '@ddm/platform';
import { AuthorityTypeRefs } from '../authority-types/authority-type-refs';
import { DocumentTypeRefs } from '../document-types/document-type-refs';
import { DocumentVersioningRefs } from '../document-versioning/document-versioning-refs';
import { GroupTypeRefs } from '../group-types/group-type-refs';

/**
 * Every new tenant starts with its default settings: the group types Organizations, Locations and
 * Departments, the authority types Approval and Signatory, the document types Policy,
 * Procedure, Charter, Resolution and Contract, and the document versioning fields Version Number,
 * Effective Date and Review Date. A durable consumer of
 * evt.auth.tenant.created inserts them (idempotently) in the transaction that records the message.
 */
@Injectable()
export class TenantDefaultsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: Consumers,
    private readonly groupTypes: GroupTypeRefs,
    private readonly authorityTypes: AuthorityTypeRefs,
    private readonly documentTypes: DocumentTypeRefs,
    private readonly versioningFields: DocumentVersioningRefs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'settings-tenant-defaults',
      subjects: [EVENT_SUBJECTS.tenantCreated],
      handle: async (msg, tx) => {
        await this.groupTypes.insertDefaults(tx, msg.payload.tenantId);
        await this.authorityTypes.insertDefaults(tx, msg.payload.tenantId);
        await this.documentTypes.insertDefaults(tx, msg.payload.tenantId);
        await this.versioningFields.insertDefaults(tx, msg.payload.tenantId);
      },
    });
  }
}
