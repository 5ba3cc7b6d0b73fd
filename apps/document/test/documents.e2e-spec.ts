import { randomUUID } from 'node:crypto';
import { readEvent } from '@ddm/contracts';
import { inTenant } from '@ddm/platform';
import { delegationEvent, expectErrorBody, httpClient, ISO, publishEvent, snapshotOf, startHarness, until, UUID7 } from '@ddm/testing';
import { FilesService } from '../src/files/files.service';
import { documentApp, DocumentHarness } from './fixtures/document-app';

const PATH = '/document/v1/documents';

/** Every field of a document (spec §2.10, plus the embedded lists and what this area adds). */
const DOCUMENT_FIELDS = [
  'archivedOn', 'createdBy', 'decisionsCount', 'delegationsCount', 'deletedOn', 'documentDescription', 'documentDisplayId', 'documentIcon', 'documentId',
  'documentLinking', 'documentMetadata', 'documentName', 'documentOversight', 'documentOwnerId', 'documentOwnerUsername', 'documentSharingGroups',
  'documentSharingType', 'documentSharingUsers', 'documentStatus', 'documentTypeId', 'documentTypeName', 'documentUploadType', 'documentUrl', 'file', 'fileId',
  'id', 'isApprovalActionExist', 'isApprovalEnable', 'isApprovalUser', 'isDeleted', 'isExternal', 'isFavourite', 'isReviewerActionExist', 'isReviewerEnable',
  'isReviewerUser', 'isSettingApprovalActionEnabled', 'isSettingReviewerActionEnabled', 'lastUpdatedBy', 'lastUpdatedByUsername', 'lastUpdatedOn', 'link',
  'oversightStatuses', 'ownerDetails', 'permissions', 'tenantId', 'uploadedOn',
].sort();

const OVERSIGHT_FIELDS = [
  'approvalStatus', 'approvedOn', 'approverPositionId', 'approverPositionName', 'approverUserId', 'approverUserProfileUrl', 'approverUsername', 'documentId',
  'documentOwnerProfileUrl', 'id', 'responsiblePositionId', 'responsiblePositionName', 'responsibleUserId', 'responsibleUserProfileUrl', 'responsibleUsername',
  'reviewStatus', 'reviewedOn', 'reviewerPositionId', 'reviewerPositionName', 'reviewerUserId', 'reviewerUserProfileUrl', 'reviewerUsername',
].sort();

interface Outboxed {
  subject: string;
  payload: Record<string, any>;
}

describe('documents (e2e, real Postgres and NATS, auth and settings as child processes)', () => {
  let h: DocumentHarness;
  let admin: string;
  let manager: string;
  let user: string;
  const post = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const get = (id: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}/${id}`, { token });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const list = (query: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });
  const counts = (query: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}/counts${query ? `?${query}` : ''}`, { token });
  const changelog = (id: string, query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}/${id}/changelog${query ? `?${query}` : ''}`, { token });
  const linked = (name: string, extra: object = {}) => ({ documentName: name, documentUploadType: 'LINKED', documentUrl: 'https://intranet.example.com/doc.pdf', ...extra });
  const made = async (body: object, token = h.tokens.admin) => {
    const res = await post(body, token);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const eventsOf = (id: string) =>
    h.db.query<Outboxed>(
      `SELECT subject, payload FROM document.outbox WHERE payload->'document'->>'id' = $1 OR payload->>'documentId' = $1 ORDER BY created_at, id`,
      [id],
    );
  const namesIn = async (query: string, token = h.tokens.admin) => {
    const res = await list(query, token);
    expect(res.status).toBe(200);
    return res.body.data.data.map((d: { documentName: string }) => d.documentName);
  };

  beforeAll(async () => {
    h = await startHarness(documentApp);
    admin = h.refs.users.get('admin@demo.test')!.id;
    manager = h.refs.users.get('manager@demo.test')!.id;
    user = h.refs.users.get('user@demo.test')!.id;
  });
  afterAll(() => h?.close());

  it('creates a document with every field of §2.10, answers it on GET, publishes it and logs revision "1"', async () => {
    const finance = h.refs.groups.values().next().value!;
    const res = await post({
      tenantId: h.demo.id,
      documentName: 'Delegation of Authority Policy',
      documentDescription: 'Who may decide what, up to which limit.',
      documentIcon: 'file-text',
      documentMetadata: '{"owner":"Finance","pages":12}',
      documentTypeId: h.refs.documentTypes.get('Policy'),
      documentTypeName: 'ignored when the id is given',
      documentStatus: 'DRAFT',
      documentSharingType: 'RESTRICTED',
      documentUploadType: 'LINKED',
      documentUrl: 'https://intranet.example.com/policies/doa.pdf',
      documentSharingGroups: [{ groupId: finance.id, tenantGroupTypeId: finance.tenantGroupTypeId ?? undefined }],
      documentSharingUsers: [{ userId: manager }],
      responsibleUserId: manager,
      responsibleUsername: 'Not trusted',
      isExternal: 'true',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, message: 'Document created successfully', timestamp: expect.stringMatching(ISO) });
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(DOCUMENT_FIELDS);
    expect(Object.keys(d.documentOversight).sort()).toEqual(OVERSIGHT_FIELDS);
    expect(d).toMatchObject({
      tenantId: h.demo.id,
      documentName: 'Delegation of Authority Policy',
      documentDescription: 'Who may decide what, up to which limit.',
      documentMetadata: '{"owner":"Finance","pages":12}',
      documentTypeId: h.refs.documentTypes.get('Policy'),
      documentTypeName: 'Policy',
      documentStatus: 'DRAFT',
      documentSharingType: 'RESTRICTED',
      documentIcon: 'file-text',
      documentOwnerId: admin,
      documentOwnerUsername: 'Ada Admin',
      documentUploadType: 'LINKED',
      documentUrl: 'https://intranet.example.com/policies/doa.pdf',
      fileId: null,
      file: null,
      lastUpdatedBy: admin,
      archivedOn: null,
      deletedOn: null,
      documentId: d.id,
      decisionsCount: 0,
      delegationsCount: 0,
      oversightStatuses: [],
      isExternal: true,
      isFavourite: false,
      isDeleted: false,
      isReviewerEnable: false,
      isApprovalEnable: false,
      isApprovalActionExist: false,
      isReviewerActionExist: false,
      isApprovalUser: false,
      isReviewerUser: false,
      isSettingApprovalActionEnabled: false,
      isSettingReviewerActionEnabled: false,
      documentLinking: { decisionLinkAllowed: true, delegationLinkAllowed: true },
      documentSharingUsers: [{ id: expect.any(String), documentId: d.id, userId: manager, name: 'Max Manager', email: 'manager@demo.test' }],
      permissions: [
        { relationship_key: 'edit:documents', allowed: true },
        { relationship_key: 'review:documents', allowed: false },
        { relationship_key: 'approve:documents', allowed: false },
      ],
    });
    expect(d.id).toMatch(UUID7);
    expect(d.documentDisplayId).toMatch(/^\d+$/);
    expect(d.uploadedOn).toMatch(ISO);
    expect(d.lastUpdatedOn).toMatch(ISO);
    expect(d.link).toMatch(new RegExp(`/documents/${d.id}$`));
    expect(d.documentSharingGroups).toEqual([
      { id: expect.any(String), documentId: d.id, groupId: finance.id, tenantGroupTypeId: finance.tenantGroupTypeId, groupName: expect.any(String), displayName: expect.anything() },
    ]);
    expect(d.documentOversight).toMatchObject({ documentId: d.id, responsibleUserId: manager, responsibleUsername: 'Max Manager', reviewStatus: null, approvalStatus: null });

    const again = await get(d.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(d);

    const events = await eventsOf(d.id);
    expect(events.map((e) => e.subject)).toEqual(['evt.document.document.created']);
    expect(events[0].payload).toEqual({
      tenantId: h.demo.id,
      document: {
        id: d.id,
        documentDisplayId: d.documentDisplayId,
        documentName: 'Delegation of Authority Policy',
        documentDescription: 'Who may decide what, up to which limit.',
        documentUrl: 'https://intranet.example.com/policies/doa.pdf',
        documentTypeName: 'Policy',
        documentIcon: 'file-text',
        documentFileType: null,
        documentStatus: 'DRAFT',
        documentSharingType: 'RESTRICTED',
        ownerId: admin,
        isDeleted: false,
        version: 1,
      },
    });

    const log = await changelog(d.id);
    expect(log.status).toBe(200);
    expect(log.body.data).toMatchObject({ page: 1, limit: 10, total: 1 });
    const [entry] = log.body.data.data;
    expect(Object.keys(entry).sort()).toEqual(['change', 'changes', 'documentId', 'id', 'revisedById', 'revisedByName', 'revisedUserDetail', 'revisionDate', 'revisionId', 'tenantId']);
    expect(entry).toMatchObject({ tenantId: h.demo.id, documentId: d.id, revisionId: '1', revisedById: admin, revisedByName: 'Ada Admin', change: 'created' });
    expect(entry.revisionDate).toMatch(ISO);
    expect(entry.revisedUserDetail).toMatchObject({ id: admin, name: 'Ada Admin', email: 'admin@demo.test' });
    expect(entry.changes).toEqual(expect.arrayContaining([{ field: 'documentName', from: null, to: 'Delegation of Authority Policy' }, { field: 'documentSharingUsers', from: null, to: [manager] }]));
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [object, string][] = [
      [linked('A', { documentMetadata: 'not json' }), 'documentMetadata'],
      [linked('A', { documentMetadata: '[1,2]' }), 'documentMetadata'],
      [linked('A', { documentMetadata: `{"a":"${'x'.repeat(64 * 1024)}"}` }), 'documentMetadata'],
      [linked('A', { documentUrl: 'javascript:alert(1)' }), 'documentUrl'],
      [linked('A', { documentUrl: 'ftp://example.com/x' }), 'documentUrl'],
      [linked('A', { documentSharingType: 'PUBLIC' }), 'documentSharingType'],
      [linked('A', { documentStatus: 'ARCHIVED' }), 'documentStatus'],
      [linked('A', { isExternal: 'yes' }), 'isExternal'],
      [linked('A', { unknownField: 1 }), 'unknownField'],
      [linked('x'.repeat(201)), 'documentName'],
      [linked('A', { documentDescription: 'x'.repeat(5001) }), 'documentDescription'],
      [{ documentName: 'A', documentUploadType: 'LINKED' }, 'documentUrl'],
      [{ documentName: 'A', documentUploadType: 'UPLOADED' }, 'fileId'],
      [linked('A', { documentSharingUsers: [{ userId: 'nope' }] }), 'documentSharingUsers.0.userId'],
      [linked('A', { reviewerUserId: 'not-a-uuid' }), 'reviewerUserId'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expectErrorBody(res, 400, PATH);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const bad = await h.svc.http.get(`${PATH}/not-a-uuid`, { token: h.tokens.admin });
    expectErrorBody(bad, 400);
    expect(await list('limit=101')).toMatchObject({ status: 400 });
    expect(await list('sortBy=owner')).toMatchObject({ status: 400 });
    expect(await list('oversight=SOMETHING')).toMatchObject({ status: 400 });
  });

  it('answers 404 for records the tenant does not have, and for another tenant’s document', async () => {
    const missing = await post(linked('Refs', { documentTypeId: randomUUID(), documentSharingGroups: [{ groupId: randomUUID() }], reviewerPositionId: randomUUID() }));
    expectErrorBody(missing, 404, PATH);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['documentSharingGroups.0.groupId', 'documentTypeId', 'reviewerPositionId']);

    const d = await made(linked('Demo only', { documentSharingType: 'TENANT' }));
    expectErrorBody(await get(d.id, h.tokens.otherAdmin), 404);
    expectErrorBody(await patch(d.id, { documentName: 'Taken over' }, h.tokens.otherAdmin), 404);
    expectErrorBody(await changelog(d.id, '', h.tokens.otherAdmin), 404);
    expect(await namesIn('search=Demo only', h.tokens.otherAdmin)).toEqual([]);
  });

  it('needs create:documents to create, and edit:documents or ownership to change', async () => {
    const refused = await post(linked('By a global user'), h.tokens.user);
    expectErrorBody(refused, 403, PATH);
    expect(refused.body.message).toContain('create:documents');

    const d = await made(linked('Shared with everyone', { documentSharingType: 'TENANT' }));
    const seen = await get(d.id, h.tokens.user);
    expect(seen.status).toBe(200);
    expect(seen.body.data.permissions).toEqual(expect.arrayContaining([{ relationship_key: 'edit:documents', allowed: false }]));
    expectErrorBody(await patch(d.id, { documentName: 'Changed by a user' }, h.tokens.user), 403);
    expectErrorBody(await h.svc.http.delete(`${PATH}/${d.id}`, { token: h.tokens.user }), 403);

    // The owner may change their own document without the key.
    const owned = await made(linked('Owned by the user', { documentSharingType: 'TENANT', documentOwnerId: user }));
    const changed = await patch(owned.id, { documentName: 'Renamed by its owner' }, h.tokens.user);
    expect(changed.status).toBe(200);
    expect(changed.body.data.documentName).toBe('Renamed by its owner');
  });

  it('hides a restricted document from everyone outside its audience: 404 on get and change log, absent from lists and counts', async () => {
    const groups = [...h.refs.groups.values()];
    const parent = groups.find((g) => groups.some((c) => c.parentGroupIds.includes(g.id)))!;
    const child = groups.find((c) => c.parentGroupIds.includes(parent.id))!;
    const d = await made(linked('Board resolution 2026-01', { documentSharingType: 'RESTRICTED', documentSharingGroups: [{ groupId: parent.id }] }));
    const before = (await counts('search=Board resolution 2026', h.tokens.user)).body.data;

    expectErrorBody(await get(d.id, h.tokens.user), 404);
    expectErrorBody(await changelog(d.id, '', h.tokens.user), 404);
    expectErrorBody(await h.svc.http.put(`${PATH}/${d.id}/favourite`, { token: h.tokens.user }), 404);
    expect(await namesIn('search=Board resolution 2026', h.tokens.user)).toEqual([]);
    expect(before).toEqual({ active: 0, inactive: 0, favorites: 0, all: 0 });
    // A Global Authority Manager holds edit:documents, but is not in the audience either.
    expectErrorBody(await get(d.id, h.tokens.manager), 404);
    expectErrorBody(await patch(d.id, { documentName: 'Edited' }, h.tokens.manager), 404);

    // Auditors and System Admins see every document.
    expect((await get(d.id, h.tokens.auditor)).status).toBe(200);
    expect(await namesIn('search=Board resolution 2026', h.tokens.auditor)).toEqual(['Board resolution 2026-01']);

    // A member of a descendant group of a sharing group is in the audience.
    await h.setMembership('user@demo.test', { groupIds: [child.id] });
    expect((await get(d.id, h.tokens.user)).status).toBe(200);
    expect(await namesIn('search=Board resolution 2026', h.tokens.user)).toEqual(['Board resolution 2026-01']);
    expect((await counts('search=Board resolution 2026', h.tokens.user)).body.data).toEqual({ active: 0, inactive: 1, favorites: 0, all: 1 });
    await h.setMembership('user@demo.test', {});
    expectErrorBody(await get(d.id, h.tokens.user), 404);

    // Its creator sees a restricted document made for someone else; a change that shares it away answers it all the same.
    const forUser = await post(linked('Made for the user', { documentSharingType: 'RESTRICTED', documentOwnerId: user }), h.tokens.manager);
    expect(forUser.status).toBe(200);
    expect((await get(forUser.body.data.id, h.tokens.manager)).status).toBe(200);
    const owned = await made(linked('Handed over', { documentSharingType: 'RESTRICTED', documentOwnerId: user }));
    const handed = await patch(owned.id, { documentOwnerId: manager }, h.tokens.user);
    expect(handed.status).toBe(200);
    expect(handed.body.data).toMatchObject({ id: owned.id, documentOwnerId: manager });
    expectErrorBody(await get(owned.id, h.tokens.user), 404);

    // Named people are in the audience: a sharing user, the responsible person.
    await patch(d.id, { documentSharingUsers: [{ userId: user }] });
    expect((await get(d.id, h.tokens.user)).status).toBe(200);
    await patch(d.id, { documentSharingUsers: [], responsibleUserId: user });
    expect((await get(d.id, h.tokens.user)).status).toBe(200);
    await patch(d.id, { responsibleUserId: null });
    expectErrorBody(await get(d.id, h.tokens.user), 404);
  });

  it('lists and counts exactly what the caller sees as sharing, people and status change: totals with and without filters, a document named twice once', async () => {
    const tag = `V${Date.now()}`;
    const groups = [...h.refs.groups.values()];
    const parent = groups.find((g) => groups.some((c) => c.parentGroupIds.includes(g.id)))!;
    const child = groups.find((c) => c.parentGroupIds.includes(parent.id))!;
    const shared = await made(linked(`${tag} shared`, { documentSharingType: 'RESTRICTED', documentStatus: 'PUBLISHED', documentSharingGroups: [{ groupId: parent.id }] }));
    const named = await made(linked(`${tag} named`, { documentSharingType: 'RESTRICTED', documentSharingUsers: [{ userId: user }] }));
    const hidden = await made(linked(`${tag} hidden`, { documentSharingType: 'RESTRICTED' }));
    await made(linked(`${tag} open`, { documentSharingType: 'TENANT' }));
    const seen = async (query: string, token = h.tokens.user) => {
      const res = await list(`search=${tag}${query ? `&${query}` : ''}`, token);
      expect(res.status).toBe(200);
      return { total: res.body.data.total, names: res.body.data.data.map((d: { documentName: string }) => d.documentName) };
    };
    await h.setMembership('user@demo.test', { groupIds: [child.id] });

    expect(await seen('documentSharingType=RESTRICTED')).toEqual({ total: 2, names: [`${tag} named`, `${tag} shared`] });
    expect(await seen('documentSharingType=RESTRICTED&status=PUBLISHED')).toEqual({ total: 1, names: [`${tag} shared`] });
    expect(await seen('documentSharingType=RESTRICTED&limit=1&page=2')).toEqual({ total: 2, names: [`${tag} shared`] });
    expect(await seen('documentSharingType=RESTRICTED&limit=1&page=3')).toEqual({ total: 2, names: [] });
    expect(await seen('documentSharingType=TENANT')).toEqual({ total: 1, names: [`${tag} open`] });
    expect(await seen('')).toEqual({ total: 3, names: [`${tag} named`, `${tag} open`, `${tag} shared`] });
    expect(await seen('status=DRAFT')).toEqual({ total: 2, names: [`${tag} named`, `${tag} open`] });
    expect((await counts(`search=${tag}&documentSharingType=RESTRICTED`, h.tokens.user)).body.data).toEqual({ active: 1, inactive: 1, favorites: 0, all: 2 });
    expect((await counts(`search=${tag}`, h.tokens.user)).body.data).toEqual({ active: 1, inactive: 2, favorites: 0, all: 3 });
    expect((await h.svc.http.put(`${PATH}/${shared.id}/favourite`, { token: h.tokens.user })).status).toBe(200);
    expect(await seen('documentSharingType=RESTRICTED&isFavourite=true')).toEqual({ total: 1, names: [`${tag} shared`] });
    expect(await seen('documentSharingType=RESTRICTED&isFavourite=false')).toEqual({ total: 1, names: [`${tag} named`] });
    expect((await counts(`search=${tag}&documentSharingType=RESTRICTED`, h.tokens.user)).body.data).toEqual({ active: 1, inactive: 1, favorites: 1, all: 2 });

    // Named by a group and by name, a document is seen (and counted) once.
    await patch(shared.id, { documentSharingUsers: [{ userId: user }] });
    expect(await seen('documentSharingType=RESTRICTED')).toEqual({ total: 2, names: [`${tag} named`, `${tag} shared`] });
    // Shared with the tenant, then restricted again.
    await patch(hidden.id, { documentSharingType: 'TENANT' });
    expect(await seen('')).toEqual({ total: 4, names: [`${tag} hidden`, `${tag} named`, `${tag} open`, `${tag} shared`] });
    await patch(hidden.id, { documentSharingType: 'RESTRICTED' });
    expect(await seen('')).toEqual({ total: 3, names: [`${tag} named`, `${tag} open`, `${tag} shared`] });
    // Named as the responsible person: in the audience until someone else is.
    expect((await patch(hidden.id, { responsibleUserId: user })).status).toBe(200);
    expect(await seen('documentSharingType=RESTRICTED')).toEqual({ total: 3, names: [`${tag} hidden`, `${tag} named`, `${tag} shared`] });
    expect((await patch(hidden.id, { responsibleUserId: manager })).status).toBe(200);
    // Deleted: gone from lists and counts.
    await patch(named.id, { documentStatus: 'DELETED' });
    expect(await seen('documentSharingType=RESTRICTED')).toEqual({ total: 1, names: [`${tag} shared`] });
    expect((await counts(`search=${tag}`, h.tokens.user)).body.data).toEqual({ active: 1, inactive: 1, favorites: 1, all: 2 });
    // Out of the group, still named by name.
    await h.setMembership('user@demo.test', {});
    expect(await seen('documentSharingType=RESTRICTED')).toEqual({ total: 1, names: [`${tag} shared`] });
    await patch(shared.id, { documentSharingUsers: [] });
    expect(await seen('documentSharingType=RESTRICTED')).toEqual({ total: 0, names: [] });
    // Those who see everything count every live document.
    expect(await seen('documentSharingType=RESTRICTED', h.tokens.auditor)).toEqual({ total: 2, names: [`${tag} hidden`, `${tag} shared`] });
    expect(await seen('', h.tokens.auditor)).toEqual({ total: 3, names: [`${tag} hidden`, `${tag} open`, `${tag} shared`] });
  });

  it('moves status DRAFT -> PUBLISHED -> ARCHIVED, refuses other moves, deletes softly, and logs every change', async () => {
    const d = await made(linked('Procurement procedure', { documentSharingType: 'TENANT' }));
    expectErrorBody(await patch(d.id, { documentStatus: 'ARCHIVED' }), 409);
    const published = await patch(d.id, { documentStatus: 'PUBLISHED', documentDescription: 'Buying things' });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ documentStatus: 'PUBLISHED', documentDescription: 'Buying things' });
    const archived = await patch(d.id, { documentStatus: 'ARCHIVED' });
    expect(archived.body.data.documentStatus).toBe('ARCHIVED');
    expect(archived.body.data.archivedOn).toMatch(ISO);
    expectErrorBody(await patch(d.id, { documentStatus: 'PUBLISHED' }), 409);
    expectErrorBody(await patch(d.id, {}), 400);

    const deleted = await h.svc.http.delete(`${PATH}/${d.id}`, { token: h.tokens.admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ isDeleted: true, documentStatus: 'DELETED', deletedOn: expect.stringMatching(ISO) });
    expectErrorBody(await get(d.id), 404);
    expectErrorBody(await changelog(d.id), 404);
    expect(await namesIn('search=Procurement procedure')).toEqual([]);

    const events = await eventsOf(d.id);
    expect(events.map((e) => e.subject)).toEqual(['evt.document.document.created', 'evt.document.document.updated', 'evt.document.document.updated', 'evt.document.document.deleted']);
    expect(events.map((e) => e.payload.document.version)).toEqual([1, 2, 3, 4]);
    const revisions = await h.db.query<{ revision_id: number; change: string; changes: { field: string; from: unknown; to: unknown }[] }>(
      `SELECT revision_id, change, changes FROM document.document_revisions WHERE document_id = $1 ORDER BY revision_id`,
      [d.id],
    );
    expect(revisions.map((r) => [r.revision_id, r.change])).toEqual([
      [1, 'created'],
      [2, 'published'],
      [3, 'archived'],
      [4, 'deleted'],
    ]);
    expect(revisions[1].changes).toEqual(
      expect.arrayContaining([
        { field: 'documentStatus', from: 'DRAFT', to: 'PUBLISHED' },
        { field: 'documentDescription', from: null, to: 'Buying things' },
      ]),
    );
  });

  it('switches a document between a link and an uploaded file, sets its linking flags, and keeps a type named without an id', async () => {
    const adminCaller = { userId: admin, tenantId: h.demo.id, email: 'admin@demo.test', name: 'Ada Admin', roleIds: [], keys: new Set<string>(), claims: {} as never };
    // As a request runs it: in the caller's tenant.
    const file = await inTenant(h.demo.id, () =>
      h.svc.app.get(FilesService).upload(adminCaller, {
        filename: 'terms.txt',
        mimetype: 'text/plain',
        content: (async function* () {
          yield Buffer.from('terms');
        })(),
      }),
    );
    const d = await made(linked('Terms of business', { documentSharingType: 'TENANT', documentTypeName: 'Terms' }));
    expect(d).toMatchObject({ documentTypeId: null, documentTypeName: 'Terms' });
    expectErrorBody(await patch(d.id, { documentUploadType: 'UPLOADED' }), 400);
    const uploaded = await patch(d.id, { documentUploadType: 'UPLOADED', fileId: file.id, documentLinking: { decisionLinkAllowed: 'false' } });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data).toMatchObject({
      documentUploadType: 'UPLOADED',
      documentUrl: null,
      fileId: file.id,
      file: { id: file.id, name: 'terms.txt', type: 'text/plain', link: file.link },
      documentLinking: { decisionLinkAllowed: false, delegationLinkAllowed: true },
    });
    const [event] = (await eventsOf(d.id)).filter((e) => e.subject === 'evt.document.document.updated');
    expect(event.payload.document).toMatchObject({ documentUrl: file.link, documentFileType: 'text/plain' });
    // Another file of the same kind, then back to a link: the document holds one kind of content.
    expect((await patch(d.id, { fileId: file.id, documentTypeId: h.refs.documentTypes.get('Contract') })).body.data).toMatchObject({ documentTypeName: 'Contract' });
    const relinked = await patch(d.id, { documentUploadType: 'LINKED', documentUrl: 'https://intranet.example.com/terms.pdf' });
    expect(relinked.body.data).toMatchObject({ documentUploadType: 'LINKED', fileId: null, file: null, documentUrl: 'https://intranet.example.com/terms.pdf' });
    expectErrorBody(await patch(d.id, { fileId: randomUUID(), documentUploadType: 'UPLOADED' }), 404);
  });

  it('pages and sorts the change log by revisionId or revisionDate', async () => {
    const d = await made(linked('Versioned charter', { documentSharingType: 'TENANT' }));
    for (const n of [2, 3, 4]) expect((await patch(d.id, { documentDescription: `Version ${n}` })).status).toBe(200);
    const ids = async (query: string) => (await changelog(d.id, query)).body.data.data.map((e: { revisionId: string }) => e.revisionId);
    expect(await ids('')).toEqual(['1', '2', '3', '4']);
    expect(await ids('sortBy=revisionId&sortOrder=desc')).toEqual(['4', '3', '2', '1']);
    expect(await ids('sortBy=revisionDate&sortOrder=desc&limit=2&page=2')).toEqual(['2', '1']);
    const page = await changelog(d.id, 'limit=3');
    expect(page.body.data).toMatchObject({ page: 1, limit: 3, total: 4 });
    expect(page.body.data.data[3]).toBeUndefined();
    expect((await changelog(d.id, 'limit=101')).status).toBe(400);
    expect((await changelog(d.id, 'sortBy=name')).status).toBe(400);
  });

  it('filters, sorts, selects and counts the list', async () => {
    const tag = `F${Date.now()}`;
    const a = await made(linked(`${tag} alpha`, { documentSharingType: 'TENANT', documentStatus: 'PUBLISHED', documentTypeId: h.refs.documentTypes.get('Charter') }));
    const b = await made(linked(`${tag} beta`, { documentSharingType: 'TENANT', documentDescription: 'contains needle', reviewerUserId: manager }));
    const c = await made(linked(`${tag} gamma`, { documentSharingType: 'RESTRICTED', documentOwnerId: manager }));
    expect(await namesIn(`search=${tag}`)).toEqual([`${tag} alpha`, `${tag} beta`, `${tag} gamma`]);
    expect(await namesIn(`search=${tag}&sortBy=documentName&sortOrder=desc`)).toEqual([`${tag} gamma`, `${tag} beta`, `${tag} alpha`]);
    expect(await namesIn(`search=${tag}&sortBy=documentDisplayId&sortOrder=desc`)).toEqual([`${tag} gamma`, `${tag} beta`, `${tag} alpha`]);
    expect(await namesIn(`search=${tag}&status=PUBLISHED`)).toEqual([`${tag} alpha`]);
    expect(await namesIn(`search=${tag}&documentType=${h.refs.documentTypes.get('Charter')}`)).toEqual([`${tag} alpha`]);
    expect(await namesIn(`search=${tag}&documentSharingType=RESTRICTED`)).toEqual([`${tag} gamma`]);
    expect(await namesIn(`search=${tag}&documentOwnerId=${manager}`)).toEqual([`${tag} gamma`]);
    expect(await namesIn(`search=${tag}&reviewerUserId=${manager}`)).toEqual([`${tag} beta`]);
    expect(await namesIn(`search=${tag}&oversight=REVIEW_PENDING`)).toEqual([`${tag} beta`]);
    expect(await namesIn(`search=${tag}&oversight=APPROVED,REJECTED`)).toEqual([]);
    expect(await namesIn(`search=needle`)).toEqual([`${tag} beta`]);
    expect(await namesIn(`search=${b.documentDisplayId}&documentUploadType=LINKED`)).toContain(`${tag} beta`);
    expect(await namesIn(`search=${tag}&createdStartDate=${encodeURIComponent(b.uploadedOn)}&createdEndDate=${encodeURIComponent(c.uploadedOn)}`)).toEqual([`${tag} beta`, `${tag} gamma`]);
    expect(await namesIn(`search=${tag}&updatedEndDate=2000-01-01T00:00:00.000Z`)).toEqual([]);

    const fav = await h.svc.http.put(`${PATH}/${a.id}/favourite`, { token: h.tokens.admin });
    expect(fav.status).toBe(200);
    expect(fav.body.data.isFavourite).toBe(true);
    expect(await namesIn(`search=${tag}&isFavourite=true`)).toEqual([`${tag} alpha`]);
    expect(await namesIn(`search=${tag}&isFavourite=true`, h.tokens.manager)).toEqual([]);
    expect((await counts(`search=${tag}`)).body.data).toEqual({ active: 1, inactive: 2, favorites: 1, all: 3 });
    // The restricted one is the manager's own; the user sees the two shared with the tenant.
    expect((await counts(`search=${tag}`, h.tokens.user)).body.data).toEqual({ active: 1, inactive: 1, favorites: 0, all: 2 });
    const unfav = await h.svc.http.delete(`${PATH}/${a.id}/favourite`, { token: h.tokens.admin });
    expect(unfav.body.data.isFavourite).toBe(false);

    const selected = await list(`search=${tag}&select=id,documentName&limit=2`);
    expect(selected.body.data).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(selected.body.data.data).toEqual([
      { id: a.id, documentName: `${tag} alpha` },
      { id: b.id, documentName: `${tag} beta` },
    ]);
    const searched = await h.svc.http.get(`${PATH}/global-search?search=${tag}&status=DRAFT`, { token: h.tokens.admin });
    expect(searched.status).toBe(200);
    expect(searched.body.data.data.map((d: { documentName: string }) => d.documentName)).toEqual([`${tag} beta`, `${tag} gamma`]);
  });

  it('runs the review and approval flow: only the named people answer, each step an event', async () => {
    const d = await made(linked('Treasury policy', { documentSharingType: 'RESTRICTED', reviewerUserId: manager, approverUserId: admin, reviewerUsername: 'not trusted' }));
    expect(d.documentOversight).toMatchObject({ reviewStatus: 'REVIEW_PENDING', approvalStatus: null, reviewerUserId: manager, reviewerUsername: 'Max Manager', approverUserId: admin });
    expect(d).toMatchObject({ oversightStatuses: ['REVIEW_PENDING'], isReviewerEnable: true, isApprovalEnable: true, isReviewerActionExist: true, isApprovalUser: true, isReviewerUser: false });
    const asReviewer = (await get(d.id, h.tokens.manager)).body.data;
    expect(asReviewer).toMatchObject({ isReviewerUser: true, isSettingReviewerActionEnabled: true });
    expect(asReviewer.permissions).toEqual(expect.arrayContaining([{ relationship_key: 'review:documents', allowed: true }]));

    // Only the reviewer answers the review, whatever keys others hold.
    expectErrorBody(await h.svc.http.post(`${PATH}/${d.id}/review`, { token: h.tokens.admin, body: { decision: 'APPROVED' } }), 403);
    expectErrorBody(await h.svc.http.post(`${PATH}/${d.id}/approve`, { token: h.tokens.admin, body: { decision: 'APPROVED' } }), 409);
    expectErrorBody(await h.svc.http.post(`${PATH}/${d.id}/review`, { token: h.tokens.manager, body: { decision: 'MAYBE' } }), 400);
    expectErrorBody(await h.svc.http.post(`${PATH}/${d.id}/review`, { token: h.tokens.manager, body: { decision: 'APPROVED', comment: 'x'.repeat(2001) } }), 400);

    const changes = await h.svc.http.post(`${PATH}/${d.id}/review`, { token: h.tokens.manager, body: { decision: 'CHANGES_REQUESTED', comment: 'Add the limits table' } });
    expect(changes.status).toBe(200);
    expect(changes.body.data.documentOversight.reviewStatus).toBe('CHANGES_REQUESTED');
    expectErrorBody(await h.svc.http.post(`${PATH}/${d.id}/review`, { token: h.tokens.manager, body: { decision: 'APPROVED' } }), 409);

    // The next change of the content requests a new review (a new cycle).
    const revised = await patch(d.id, { documentDescription: 'Now with the limits table' });
    expect(revised.body.data.documentOversight.reviewStatus).toBe('REVIEW_PENDING');
    const reviewed = await h.svc.http.post(`${PATH}/${d.id}/review`, { token: h.tokens.manager, body: { decision: 'APPROVED', comment: 'Fine' } });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.data.documentOversight).toMatchObject({ reviewStatus: 'REVIEWED', approvalStatus: 'APPROVAL_PENDING', reviewedOn: expect.stringMatching(ISO), approvedOn: null });
    expect(reviewed.body.data.oversightStatuses).toEqual(['REVIEWED', 'APPROVAL_PENDING']);
    expectErrorBody(await h.svc.http.post(`${PATH}/${d.id}/approve`, { token: h.tokens.manager, body: { decision: 'APPROVED' } }), 403);
    const approved = await h.svc.http.post(`${PATH}/${d.id}/approve`, { token: h.tokens.admin, body: { decision: 'APPROVED', comment: 'Go' } });
    expect(approved.status).toBe(200);
    expect(approved.body.data.documentOversight).toMatchObject({ approvalStatus: 'APPROVED', approvedOn: expect.stringMatching(ISO) });
    expect((await list('oversight=APPROVED&search=Treasury')).body.data.total).toBe(1);

    const oversight = (await eventsOf(d.id)).filter((e) => e.subject.startsWith('evt.document.oversight.'));
    expect(oversight.map((e) => [e.subject, e.payload.status, e.payload.assigneeUserIds, e.payload.actedById])).toEqual([
      ['evt.document.oversight.review-requested', 'REVIEW_PENDING', [manager], null],
      ['evt.document.oversight.reviewed', 'CHANGES_REQUESTED', [manager], manager],
      ['evt.document.oversight.review-requested', 'REVIEW_PENDING', [manager], null],
      ['evt.document.oversight.reviewed', 'REVIEWED', [manager], manager],
      ['evt.document.oversight.approval-requested', 'APPROVAL_PENDING', [admin], null],
      ['evt.document.oversight.approved', 'APPROVED', [admin], admin],
    ]);
    const cycles = oversight.map((e) => e.payload.cycleId);
    expect(cycles[0]).toBe(cycles[1]);
    expect(cycles[2]).toBe(cycles[3]);
    expect(cycles[4]).toBe(cycles[5]);
    expect(new Set(cycles).size).toBe(3);
    expect(oversight[1].payload).toMatchObject({ documentId: d.id, documentName: 'Treasury policy', documentDisplayId: d.documentDisplayId, ownerId: admin, comment: 'Add the limits table' });

    const kinds = (await changelog(d.id, 'limit=100')).body.data.data.map((e: { change: string }) => e.change);
    expect(kinds).toEqual(['created', 'changes-requested', 'updated', 'reviewed', 'approved']);
  });

  it('withdraws a pending request when its person is replaced or removed, or the document is deleted', async () => {
    const d = await made(linked('Withdrawn reviews', { documentSharingType: 'TENANT', reviewerUserId: manager }));
    const replaced = await patch(d.id, { reviewerUserId: admin });
    expect(replaced.body.data.documentOversight).toMatchObject({ reviewerUserId: admin, reviewStatus: 'REVIEW_PENDING' });
    await patch(d.id, { reviewerUserId: null, approverUserId: manager });
    await h.svc.http.delete(`${PATH}/${d.id}`, { token: h.tokens.admin });
    const oversight = (await eventsOf(d.id)).filter((e) => e.subject.startsWith('evt.document.oversight.'));
    expect(oversight.map((e) => [e.subject, e.payload.status, e.payload.assigneeUserIds])).toEqual([
      ['evt.document.oversight.review-requested', 'REVIEW_PENDING', [manager]],
      ['evt.document.oversight.withdrawn', 'WITHDRAWN', [manager]],
      ['evt.document.oversight.review-requested', 'REVIEW_PENDING', [admin]],
      ['evt.document.oversight.withdrawn', 'WITHDRAWN', [admin]],
      ['evt.document.oversight.approval-requested', 'APPROVAL_PENDING', [manager]],
      ['evt.document.oversight.withdrawn', 'WITHDRAWN', [manager]],
    ]);
    // Each withdrawal closes the cycle of the request it withdraws.
    expect(oversight[1].payload.cycleId).toBe(oversight[0].payload.cycleId);
    expect(oversight[3].payload.cycleId).toBe(oversight[2].payload.cycleId);
    expect(oversight[5].payload.cycleId).toBe(oversight[4].payload.cycleId);
    expect(oversight[1].payload.actedById).toBe(admin);
  });

  it('refuses a reviewer or approver who does not hold the key of the step (400 naming the field)', async () => {
    await h.setMembership('user@demo.test', { keys: ['view:decisions', 'create:actions'] });
    const reviewer = await post(linked('Reviewed by a user', { reviewerUserId: user }));
    expectErrorBody(reviewer, 400, PATH);
    expect(reviewer.body.errors).toEqual([{ field: 'reviewerUserId', message: `User ${user} does not hold "review:documents"` }]);
    const approver = await post(linked('Approved by a user', { approverUserId: user }));
    expect(approver.body.errors).toEqual([{ field: 'approverUserId', message: `User ${user} does not hold "approve:documents"` }]);
    const d = await made(linked('Reviewed later', { documentSharingType: 'TENANT' }));
    expect((await patch(d.id, { documentOversights: { reviewerUserId: user } })).body.errors).toEqual([{ field: 'reviewerUserId', message: expect.any(String) }]);
    await h.setMembership('user@demo.test', { keys: ['view:decisions', 'review:documents'] });
    const named = await patch(d.id, { documentOversights: { reviewerUserId: user } });
    expect(named.status).toBe(200);
    expect(named.body.data.documentOversight).toMatchObject({ reviewerUserId: user, reviewStatus: 'REVIEW_PENDING' });
    await h.setMembership('user@demo.test', {});
  });

  it('asks for approval at once without a reviewer; a position names its holders, who may answer', async () => {
    const [positionId] = [...h.refs.positions.values()];
    await h.setMembership('user@demo.test', { positionIds: [positionId] });
    const d = await made(linked('Signing charter', { documentSharingType: 'RESTRICTED', approverPositionId: positionId, approverPositionName: 'ignored' }));
    expect(d.documentOversight).toMatchObject({ reviewStatus: null, approvalStatus: 'APPROVAL_PENDING', approverPositionId: positionId });
    expect(d.documentOversight.approverPositionName).not.toBe('ignored');
    const [requested] = (await eventsOf(d.id)).filter((e) => e.subject === 'evt.document.oversight.approval-requested');
    expect(requested.payload.assigneeUserIds).toEqual([user]);
    // The holder is in the audience of the restricted document, and may answer.
    const seen = await get(d.id, h.tokens.user);
    expect(seen.body.data).toMatchObject({ isApprovalUser: true, isSettingApprovalActionEnabled: true });
    const rejected = await h.svc.http.post(`${PATH}/${d.id}/approve`, { token: h.tokens.user, body: { decision: 'REJECTED', comment: 'Not yet' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.documentOversight.approvalStatus).toBe('REJECTED');
    expect((await eventsOf(d.id)).map((e) => e.subject)).toContain('evt.document.oversight.rejected');
    await h.setMembership('user@demo.test', {});
  });

  it('shows the names the settings area gives its records: a document type renamed there is renamed on the document (by event)', async () => {
    const created = await httpClient(h.processes.settings.url).post('/settings/v1/document-types', { token: h.tokens.admin, body: { documentTypeName: 'Guideline' } });
    expect(created.status).toBe(200);
    const typeId = created.body.data.id;
    await until(async () => (await h.db.query(`SELECT 1 FROM document.document_type_projection WHERE id = $1`, [typeId])).length > 0, 'the new type in the projection');
    const d = await made(linked('Brand guideline', { documentSharingType: 'TENANT', documentTypeId: typeId }));
    expect(d.documentTypeName).toBe('Guideline');
    expect((await httpClient(h.processes.settings.url).patch(`/settings/v1/document-types/${typeId}`, { token: h.tokens.admin, body: { documentTypeName: 'Guidelines' } })).status).toBe(200);
    await until(async () => (await get(d.id)).body.data.documentTypeName === 'Guidelines', 'the renamed type on the document');
    // The document publishes itself again, with the new name and a newer version, for the areas that show it.
    const updated = await until(async () => (await eventsOf(d.id)).find((e) => e.subject === 'evt.document.document.updated'), 'the document republished');
    expect(updated.payload.document).toMatchObject({ documentTypeName: 'Guidelines', version: 2 });
  });

  it("serves every tenant's documents, deleted ones too, in id order, as the updated event carries them (sync.document.documents: a projection's backfill)", async () => {
    const kept = await made(linked('Snapshot kept', { documentSharingType: 'TENANT' }));
    const gone = await made(linked('Snapshot deleted', { documentSharingType: 'TENANT' }));
    expect((await h.svc.http.delete(`${PATH}/${gone.id}`, { token: h.tokens.admin })).status).toBe(200);
    const theirs = await made(linked('Other Co snapshot'), h.tokens.otherAdmin);
    const { items } = await snapshotOf<{ tenantId: string; document: { id: string; documentName: string; isDeleted: boolean; version: number } }>(h.svc, 'document.documents');
    const [{ n }] = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.documents`);
    expect(items).toHaveLength(n);
    expect(items.map((i) => i.document.id)).toEqual(items.map((i) => i.document.id).sort());
    for (const item of items) expect(readEvent('evt.document.document.updated', item).problems).toEqual([]);
    const byId = new Map(items.map((i) => [i.document.id, i]));
    expect(byId.get(kept.id)).toMatchObject({ tenantId: h.demo.id, document: { documentName: 'Snapshot kept', isDeleted: false } });
    expect(byId.get(gone.id)).toMatchObject({ tenantId: h.demo.id, document: { isDeleted: true } });
    expect(byId.get(theirs.id)).toMatchObject({ tenantId: h.other.id, document: { documentName: 'Other Co snapshot' } });
    // The version is the document's own (a newer event than the snapshot wins in a projection, an older one does not).
    const [{ version }] = await h.db.query<{ version: string }>(`SELECT version FROM document.documents WHERE id = $1`, [gone.id]);
    expect(byId.get(gone.id)!.document.version).toBe(Number(version));
  });

  it('counts the decisions and delegations that link a document, from the decision area’s events', async () => {
    const d = await made(linked('Linked policy', { documentSharingType: 'TENANT' }));
    const decisionId = randomUUID();
    const decision = (version: number, documentIds: string[], isDeleted = false) => ({
      tenantId: h.demo.id,
      decision: {
        id: decisionId, decisionDisplayId: '10000', name: 'Approve budgets', status: 'PUBLISHED', sectionId: null, categoryId: null, ownerId: null,
        delegable: true, delegationPathway: [], groupIds: [], authorities: [], isDeleted, documentIds, version,
      },
    });
    await publishEvent(h.svc, 'evt.decision.decision.created', decision(1, [d.id]));
    const delegation = delegationEvent(h.demo.id, { documentIds: [d.id], version: 1, status: 'ISSUED' });
    await publishEvent(h.svc, 'evt.decision.delegation.issued', delegation);
    await until(async () => {
      const v = (await get(d.id)).body.data;
      return v.decisionsCount === 1 && v.delegationsCount === 1;
    }, 'the counts of the linked document');
    await publishEvent(h.svc, 'evt.decision.delegation.revoked', { ...delegation, version: 2, status: 'REVOKED' });
    await publishEvent(h.svc, 'evt.decision.decision.updated', decision(2, []));
    await until(async () => {
      const v = (await get(d.id)).body.data;
      return v.decisionsCount === 0 && v.delegationsCount === 0;
    }, 'the counts after the unlink and the revocation');
  });
});
