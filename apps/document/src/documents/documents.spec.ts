import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import {
  afterApproval,
  afterReview,
  answerProblem,
  changeKindOf,
  changesBetween,
  isJsonObjectText,
  isLinkableUrl,
  isNamed,
  nextOversight,
  oversightStatuses,
  seesEveryDocument,
  statusMoveProblem,
} from './document.rules';
import { CreateDocumentDto, UpdateDocumentDto } from './dto/document-change.dto';
import { ChangelogQuery, ListDocumentsQuery } from './dto/list-documents.query';
import { StoredDocumentView, toDocumentPayload, toDocumentView } from './dto/document.response';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  [...new Set((await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property))].sort();

const none = { reviewStatus: null, approvalStatus: null } as const;
const noChange = { reviewerChanged: false, approverChanged: false, contentChanged: false };

describe('document status moves', () => {
  it('DRAFT -> PUBLISHED -> ARCHIVED; DELETED from any; staying is no move; nothing else', () => {
    expect(statusMoveProblem('DRAFT', 'PUBLISHED')).toBeNull();
    expect(statusMoveProblem('PUBLISHED', 'ARCHIVED')).toBeNull();
    expect(statusMoveProblem('ARCHIVED', 'DELETED')).toBeNull();
    expect(statusMoveProblem('DRAFT', 'DRAFT')).toBeNull();
    expect(statusMoveProblem('DRAFT', 'ARCHIVED')).toBe('A DRAFT document cannot become ARCHIVED (DRAFT -> PUBLISHED -> ARCHIVED)');
    expect(statusMoveProblem('ARCHIVED', 'PUBLISHED')).not.toBeNull();
    expect(statusMoveProblem('PUBLISHED', 'DRAFT')).not.toBeNull();
  });

  it('names the change log entry of a move by the status reached', () => {
    expect(changeKindOf('DRAFT', 'PUBLISHED')).toBe('published');
    expect(changeKindOf('PUBLISHED', 'ARCHIVED')).toBe('archived');
    expect(changeKindOf('PUBLISHED', 'DELETED')).toBe('deleted');
    expect(changeKindOf('DRAFT', 'DRAFT')).toBe('updated');
  });
});

describe('the review and approval flow', () => {
  it('naming a reviewer requests the review at once, and the approval waits for it', () => {
    expect(nextOversight(none, { hasReviewer: true, hasApprover: true }, { ...noChange, reviewerChanged: true, approverChanged: true })).toEqual({
      reviewStatus: 'REVIEW_PENDING',
      approvalStatus: null,
      requestReview: true,
      requestApproval: false,
    });
  });

  it('an approver without a reviewer is asked at once', () => {
    expect(nextOversight(none, { hasReviewer: false, hasApprover: true }, { ...noChange, approverChanged: true })).toEqual({
      reviewStatus: null,
      approvalStatus: 'APPROVAL_PENDING',
      requestReview: false,
      requestApproval: true,
    });
  });

  it('after CHANGES_REQUESTED the next change of the content asks again; a change of other fields does not', () => {
    const after = { hasReviewer: true, hasApprover: false };
    expect(nextOversight({ reviewStatus: 'CHANGES_REQUESTED', approvalStatus: null }, after, { ...noChange, contentChanged: true })).toMatchObject({ reviewStatus: 'REVIEW_PENDING', requestReview: true });
    expect(nextOversight({ reviewStatus: 'CHANGES_REQUESTED', approvalStatus: null }, after, noChange)).toMatchObject({ reviewStatus: 'CHANGES_REQUESTED', requestReview: false });
  });

  it('a pending or finished step stays as it is when nothing about it changed', () => {
    expect(nextOversight({ reviewStatus: 'REVIEW_PENDING', approvalStatus: null }, { hasReviewer: true, hasApprover: true }, { ...noChange, contentChanged: true })).toEqual({
      reviewStatus: 'REVIEW_PENDING',
      approvalStatus: null,
      requestReview: false,
      requestApproval: false,
    });
    expect(nextOversight({ reviewStatus: 'REVIEWED', approvalStatus: 'APPROVED' }, { hasReviewer: true, hasApprover: true }, noChange)).toMatchObject({
      reviewStatus: 'REVIEWED',
      approvalStatus: 'APPROVED',
      requestReview: false,
      requestApproval: false,
    });
  });

  it('another reviewer starts the review again (the approval waits); another approver after the review is asked at once', () => {
    expect(nextOversight({ reviewStatus: 'REVIEWED', approvalStatus: 'APPROVAL_PENDING' }, { hasReviewer: true, hasApprover: true }, { ...noChange, reviewerChanged: true })).toEqual({
      reviewStatus: 'REVIEW_PENDING',
      approvalStatus: null,
      requestReview: true,
      requestApproval: false,
    });
    expect(nextOversight({ reviewStatus: 'REVIEWED', approvalStatus: 'APPROVAL_PENDING' }, { hasReviewer: true, hasApprover: true }, { ...noChange, approverChanged: true })).toMatchObject({
      approvalStatus: 'APPROVAL_PENDING',
      requestApproval: true,
    });
  });

  it('removing a person clears their step; removing the reviewer asks the approver', () => {
    expect(nextOversight({ reviewStatus: 'REVIEW_PENDING', approvalStatus: null }, { hasReviewer: false, hasApprover: true }, { ...noChange, reviewerChanged: true })).toEqual({
      reviewStatus: null,
      approvalStatus: 'APPROVAL_PENDING',
      requestReview: false,
      requestApproval: true,
    });
    expect(nextOversight({ reviewStatus: 'REVIEWED', approvalStatus: 'APPROVED' }, { hasReviewer: true, hasApprover: false }, { ...noChange, approverChanged: true })).toMatchObject({ approvalStatus: null });
  });

  it('answers: the review (APPROVED -> REVIEWED, then approval; CHANGES_REQUESTED) and the approval', () => {
    const state = { hasReviewer: true, hasApprover: true, reviewStatus: 'REVIEW_PENDING' as const, approvalStatus: null };
    expect(afterReview(state, 'APPROVED')).toEqual({ reviewStatus: 'REVIEWED', approvalStatus: 'APPROVAL_PENDING', requestReview: false, requestApproval: true });
    expect(afterReview({ ...state, hasApprover: false }, 'APPROVED')).toEqual({ reviewStatus: 'REVIEWED', approvalStatus: null, requestReview: false, requestApproval: false });
    expect(afterReview(state, 'CHANGES_REQUESTED')).toMatchObject({ reviewStatus: 'CHANGES_REQUESTED', requestApproval: false });
    const pending = { ...state, reviewStatus: 'REVIEWED' as const, approvalStatus: 'APPROVAL_PENDING' as const };
    expect(afterApproval(pending, 'APPROVED')).toMatchObject({ reviewStatus: 'REVIEWED', approvalStatus: 'APPROVED' });
    expect(afterApproval(pending, 'REJECTED')).toMatchObject({ approvalStatus: 'REJECTED' });
  });

  it('an answer needs its step pending', () => {
    const state = { hasReviewer: true, hasApprover: true, reviewStatus: 'REVIEW_PENDING' as const, approvalStatus: null };
    expect(answerProblem('review', state)).toBeNull();
    expect(answerProblem('approval', state)).toBe('No approval is pending (approval status: none)');
    expect(answerProblem('review', { ...state, reviewStatus: 'REVIEWED' })).toBe('No review is pending (review status: REVIEWED)');
    expect(answerProblem('review', { ...state, hasReviewer: false })).toBe('The document has no reviewer');
  });

  it('the named person is the user, or a holder of the position', () => {
    expect(isNamed('u1', [], 'u1', null)).toBe(true);
    expect(isNamed('u1', ['p1'], null, 'p1')).toBe(true);
    expect(isNamed('u1', ['p2'], 'u2', 'p1')).toBe(false);
    expect(isNamed('u1', [], null, null)).toBe(false);
  });

  it('oversightStatuses lists the review status, then the approval status', () => {
    expect(oversightStatuses('REVIEWED', 'APPROVAL_PENDING')).toEqual(['REVIEWED', 'APPROVAL_PENDING']);
    expect(oversightStatuses(null, 'APPROVED')).toEqual(['APPROVED']);
    expect(oversightStatuses(null, null)).toEqual([]);
  });
});

describe('who sees every document', () => {
  it('System Admins (manage:roles) and Auditors (view keys only); not Global Users or Managers', () => {
    expect(seesEveryDocument({ keys: new Set(['manage:roles', 'view:decisions']) })).toBe(true);
    expect(seesEveryDocument({ keys: new Set(['view:decisions']) })).toBe(true);
    expect(seesEveryDocument({ keys: new Set(['view:decisions', 'create:actions']) })).toBe(false);
    expect(seesEveryDocument({ keys: new Set(['view:decisions', 'edit:documents', 'review:documents']) })).toBe(false);
    expect(seesEveryDocument({ keys: new Set() })).toBe(false);
  });
});

describe('the change log', () => {
  it('lists each field whose value changed, with before and after; a creation lists what it set', () => {
    expect(changesBetween({ documentName: 'A', documentSharingUsers: ['u1'], documentUrl: null }, { documentName: 'B', documentSharingUsers: ['u1'], documentUrl: null })).toEqual([
      { field: 'documentName', from: 'A', to: 'B' },
    ]);
    expect(changesBetween({ documentSharingUsers: ['u1'] }, { documentSharingUsers: ['u1', 'u2'] })).toEqual([{ field: 'documentSharingUsers', from: ['u1'], to: ['u1', 'u2'] }]);
    expect(changesBetween(null, { documentName: 'A', documentUrl: null, documentSharingUsers: [] })).toEqual([{ field: 'documentName', from: null, to: 'A' }]);
    expect(changesBetween({ documentName: 'A' }, { documentName: 'A' })).toEqual([]);
  });
});

describe('document input', () => {
  const base = { documentName: 'Policy', documentUrl: 'https://example.com/a.pdf' };

  it('takes only http and https URLs, and metadata that is a JSON object of at most 64 KiB', async () => {
    expect(isLinkableUrl('https://example.com/x')).toBe(true);
    expect(isLinkableUrl('http://example.com')).toBe(true);
    expect(isLinkableUrl('javascript:alert(1)')).toBe(false);
    expect(isLinkableUrl('data:text/html,hi')).toBe(false);
    expect(isLinkableUrl('/relative')).toBe(false);
    expect(isJsonObjectText('{"a":1}')).toBe(true);
    expect(isJsonObjectText('[1]')).toBe(false);
    expect(isJsonObjectText('"text"')).toBe(false);
    expect(isJsonObjectText('{')).toBe(false);
    expect(await problems(CreateDocumentDto, { ...base, documentMetadata: `{"a":"${'x'.repeat(65_530)}"}` })).toEqual(['documentMetadata']);
    expect(await problems(CreateDocumentDto, { ...base, documentMetadata: '{"a":1}' })).toEqual([]);
  });

  it('create: name 1..200 trimmed, known statuses, sharing and upload types, string booleans, bounded lists, no unknown field', async () => {
    expect(await problems(CreateDocumentDto, base)).toEqual([]);
    expect(plainToInstance(CreateDocumentDto, { ...base, documentName: ' Policy ', isExternal: 'false' })).toMatchObject({ documentName: 'Policy', isExternal: false });
    expect(await problems(CreateDocumentDto, { ...base, documentName: 'x'.repeat(201) })).toEqual(['documentName']);
    expect(await problems(CreateDocumentDto, { ...base, documentName: '  ' })).toEqual(['documentName']);
    expect(await problems(CreateDocumentDto, { ...base, documentStatus: 'ARCHIVED' })).toEqual(['documentStatus']);
    expect(await problems(CreateDocumentDto, { ...base, documentSharingType: 'PUBLIC' })).toEqual(['documentSharingType']);
    expect(await problems(CreateDocumentDto, { ...base, documentUploadType: 'EMBEDDED' })).toEqual(['documentUploadType']);
    expect(await problems(CreateDocumentDto, { ...base, isExternal: 'yes' })).toEqual(['isExternal']);
    expect(await problems(CreateDocumentDto, { ...base, owner: 'x' })).toEqual(['owner']);
    expect(await problems(CreateDocumentDto, { ...base, documentSharingUsers: Array.from({ length: 501 }, () => ({ userId: '0190f5c4-0000-7000-8000-000000000001' })) })).toEqual([
      'documentSharingUsers',
    ]);
  });

  it('update: oversight people may be cleared with null; a name stays not null', async () => {
    expect(await problems(UpdateDocumentDto, { reviewerUserId: null, documentOversights: { approverUserId: null } })).toEqual([]);
    expect(await problems(UpdateDocumentDto, { documentName: null })).toEqual(['documentName']);
    expect(await problems(UpdateDocumentDto, { documentStatus: 'DELETED', documentLinking: { decisionLinkAllowed: 'false' } })).toEqual([]);
    expect(await problems(UpdateDocumentDto, { documentLinking: { other: true } })).toEqual(['documentLinking']);
  });

  it('list and change log queries: defaults, comma lists, bounds', async () => {
    expect(plainToInstance(ListDocumentsQuery, { oversight: 'REVIEW_PENDING, APPROVED' })).toMatchObject({ page: 1, limit: 10, sortBy: 'documentName', oversight: ['REVIEW_PENDING', 'APPROVED'] });
    expect(await problems(ListDocumentsQuery, { status: 'DELETED' })).toEqual(['status']);
    expect(await problems(ListDocumentsQuery, { sortBy: 'uploadedOn', select: 'id,documentName', isFavourite: 'true' })).toEqual([]);
    expect(await problems(ListDocumentsQuery, { select: 'password' })).toEqual(['select']);
    expect(await problems(ListDocumentsQuery, { createdStartDate: '2021-02-30T00:00:00Z' })).toEqual(['createdStartDate']);
    expect(plainToInstance(ChangelogQuery, {})).toMatchObject({ sortBy: 'revisionId', sortOrder: 'asc' });
    expect(await problems(ChangelogQuery, { limit: '0' })).toEqual(['limit']);
    expect(await problems(ChangelogQuery, { sortBy: 'revisionDate', limit: '100' })).toEqual([]);
  });
});

describe('document views', () => {
  const stored = {
    id: 'd1',
    tenantId: 't1',
    documentName: 'Policy',
    documentDescription: null,
    documentMetadata: null,
    fileId: 'f1',
    documentTypeId: null,
    documentTypeName: 'Policy',
    documentStatus: 'PUBLISHED',
    documentSharingType: 'RESTRICTED',
    documentIcon: null,
    documentOwnerId: 'owner',
    documentOwnerUsername: 'Owner',
    documentUploadType: 'UPLOADED',
    documentUrl: null,
    file: { id: 'f1', name: 'a.pdf', type: 'application/pdf', size: 3, sha256: null },
    isDeleted: false,
    documentDisplayId: '10000',
    documentOversight: { reviewerUserId: null, reviewerPositionId: 'p1', approverUserId: 'a1', approverPositionId: null, reviewStatus: 'REVIEW_PENDING', approvalStatus: null },
  } as unknown as StoredDocumentView;

  it('flags for the caller: a holder of the reviewing position reviews now; the approver waits; only the relationship allows answering', () => {
    const v = toDocumentView(stored, { userId: 'u1', keys: new Set(['review:documents', 'approve:documents', 'edit:documents']) }, ['p1'], 'https://app.example.com/', false);
    expect(v).toMatchObject({
      link: 'https://app.example.com/documents/d1',
      file: { id: 'f1', link: '/document/v1/files/f1/content' },
      oversightStatuses: ['REVIEW_PENDING'],
      isReviewerEnable: true,
      isApprovalEnable: true,
      isReviewerUser: true,
      isReviewerActionExist: true,
      isSettingReviewerActionEnabled: true,
      isApprovalUser: false,
      isSettingApprovalActionEnabled: false,
    });
    expect(v.permissions).toEqual([
      { relationship_key: 'edit:documents', allowed: true },
      { relationship_key: 'review:documents', allowed: true },
      { relationship_key: 'approve:documents', allowed: false },
    ]);
  });

  it('the event carries the file link as the URL of an uploaded document', () => {
    expect(toDocumentPayload(stored, 3)).toMatchObject({ id: 'd1', documentUrl: '/document/v1/files/f1/content', documentFileType: 'application/pdf', ownerId: 'owner', version: 3 });
  });
});
