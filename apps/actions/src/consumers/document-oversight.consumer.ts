import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DOCUMENT_OVERSIGHT_SUBJECTS } from '@ddm/contracts';
import { Consumers } from '@ddm/platform';
import { openSystemAction, settleSystemActions } from '../actions/action-refs';

const reviewKey = (cycleId: string) => `document-cycle:${cycleId}:review`;
const approvalKey = (cycleId: string) => `document-cycle:${cycleId}:approval`;

/**
 * A document's review and approval steps, as system actions: a request opens one Document Review
 * or Document Approval action per cycle for the people named, owned by the document's owner; the
 * answer (reviewed, changes requested, approved, rejected) completes it; a request withdrawn
 * unanswered cancels it.
 */
@Injectable()
export class DocumentOversightConsumer implements OnApplicationBootstrap {
  constructor(private readonly consumers: Consumers) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'actions-document-oversight',
      subjects: DOCUMENT_OVERSIGHT_SUBJECTS,
      handle: async ({ subject, payload: e }, tx) => {
        const common = { tenantId: e.tenantId, ownerId: e.ownerId, assigneeIds: e.assigneeUserIds, documentId: e.documentId };
        switch (subject) {
          case 'evt.document.oversight.review-requested':
            await openSystemAction(tx, { ...common, kind: 'DOCUMENT_REVIEW', causeKey: reviewKey(e.cycleId), actionName: `Review document ${e.documentName}`, typeKey: 'REVIEW' });
            return;
          case 'evt.document.oversight.approval-requested':
            await openSystemAction(tx, { ...common, kind: 'DOCUMENT_APPROVAL', causeKey: approvalKey(e.cycleId), actionName: `Approve document ${e.documentName}`, typeKey: 'APPROVAL' });
            return;
          case 'evt.document.oversight.reviewed':
            await settleSystemActions(tx, e.tenantId, ['DOCUMENT_REVIEW'], { causeKey: reviewKey(e.cycleId) }, 'COMPLETED');
            return;
          case 'evt.document.oversight.approved':
          case 'evt.document.oversight.rejected':
            await settleSystemActions(tx, e.tenantId, ['DOCUMENT_APPROVAL'], { causeKey: approvalKey(e.cycleId) }, 'COMPLETED');
            return;
          case 'evt.document.oversight.withdrawn':
            // Nobody will answer this request any more (its person replaced, the review restarted, the document deleted).
            await settleSystemActions(tx, e.tenantId, ['DOCUMENT_REVIEW'], { causeKey: reviewKey(e.cycleId) }, 'CANCELED');
            await settleSystemActions(tx, e.tenantId, ['DOCUMENT_APPROVAL'], { causeKey: approvalKey(e.cycleId) }, 'CANCELED');
            return;
        }
      },
    });
  }
}
