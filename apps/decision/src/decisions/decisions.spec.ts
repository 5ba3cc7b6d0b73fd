import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ALL_PERMISSION_KEYS, Caller, validateEvent } from '@ddm/contracts';
import { changedFields, copyNameCandidate, statusMoveProblem, uniqueIds } from './decision.rules';
import { BulkDecisionIdsDto, CreateDecisionDto, UpdateDecisionDto } from './dto/decision-change.dto';
import { StoredDecisionView, selectDecisionFields, toDecisionPayload, toDecisionView } from './dto/decision.response';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

const TYPE = '0190f5c4-0000-7000-8000-000000000001';

function caller(keys: string[], userId = 'u1'): Caller {
  return { userId, tenantId: 't1', email: 'x@y.z', name: 'X', roleIds: [], keys: new Set(keys), claims: { sub: userId, iss: 'i', aud: 'a', exp: 0 } };
}

describe('decision status moves', () => {
  it('DRAFT -> PUBLISHED -> ARCHIVED -> PUBLISHED; staying is allowed; anything else names both states', () => {
    expect(statusMoveProblem('DRAFT', 'PUBLISHED')).toBeNull();
    expect(statusMoveProblem('PUBLISHED', 'ARCHIVED')).toBeNull();
    expect(statusMoveProblem('ARCHIVED', 'PUBLISHED')).toBeNull();
    for (const s of ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const) expect(statusMoveProblem(s, s)).toBeNull();
    expect(statusMoveProblem('PUBLISHED', 'DRAFT')).toMatch(/from PUBLISHED to DRAFT/);
    expect(statusMoveProblem('DRAFT', 'ARCHIVED')).toMatch(/from DRAFT to ARCHIVED/);
    expect(statusMoveProblem('ARCHIVED', 'DRAFT')).toMatch(/from ARCHIVED to DRAFT/);
  });
});

describe('names of copies', () => {
  it('"Copy of <name>", then " (2)", " (3)" ..., cut so the whole is at most 150 characters', () => {
    expect(copyNameCandidate('Approve travel', 1)).toBe('Copy of Approve travel');
    expect(copyNameCandidate('Approve travel', 2)).toBe('Copy of Approve travel (2)');
    expect(copyNameCandidate('Approve travel', 12)).toBe('Copy of Approve travel (12)');
    const long = 'x'.repeat(150);
    expect(copyNameCandidate(long, 1)).toBe(`Copy of ${'x'.repeat(142)}`);
    expect(copyNameCandidate(long, 2)).toBe(`Copy of ${'x'.repeat(138)} (2)`);
    expect(copyNameCandidate(long, 100)).toHaveLength(150);
    // No space left dangling before the cut.
    expect(copyNameCandidate(`${'a'.repeat(141)} b`, 1)).toBe(`Copy of ${'a'.repeat(141)}`);
  });
});

describe('revisions name what changed', () => {
  it('top-level fields whose values differ, ignoring the ids of list items (a replaced list gets new ones) and bookkeeping', () => {
    const before = { name: 'A', description: null, decisionGroups: [{ id: 'g1', groupId: 'x' }], updatedAt: '1' };
    expect(changedFields(before, { ...before, decisionGroups: [{ id: 'g2', groupId: 'x' }], updatedAt: '2' }, ['updatedAt'])).toEqual([]);
    expect(changedFields(before, { ...before, name: 'B', decisionGroups: [{ id: 'g2', groupId: 'y' }] }, ['updatedAt'])).toEqual(['decisionGroups', 'name']);
    expect(changedFields(null, before)).toEqual([]);
  });

  it('bulk ids are taken once each, in lower case, in the order given', () => {
    expect(uniqueIds(['B', 'a', 'b', 'A'])).toEqual(['b', 'a']);
  });
});

describe('decision input', () => {
  it('create: name 1..150 (trimmed) required; enumerations checked; unknown fields refused', async () => {
    expect(await problems(CreateDecisionDto, { name: 'Approve' })).toEqual([]);
    expect(await problems(CreateDecisionDto, {})).toEqual(['name']);
    expect(await problems(CreateDecisionDto, { name: 'x'.repeat(151) })).toEqual(['name']);
    expect(await problems(CreateDecisionDto, { name: '   ' })).toEqual(['name']);
    expect(await problems(CreateDecisionDto, { name: 'A', status: 'ARCHIVED' })).toEqual(['status']);
    expect(await problems(CreateDecisionDto, { name: 'A', delegationPathway: ['Matrix', 'Matrix'] })).toEqual(['delegationPathway']);
    expect(await problems(CreateDecisionDto, { name: 'A', delegationPathway: ['Down-Line', 'Functional'] })).toEqual([]);
    expect(await problems(CreateDecisionDto, { name: 'A', guidance: 'x'.repeat(5001) })).toEqual(['guidance']);
    expect(await problems(CreateDecisionDto, { name: 'A', colour: 'red' })).toEqual(['colour']);
    expect(await problems(CreateDecisionDto, { name: 'A', decisionGroups: Array.from({ length: 101 }, () => ({ groupId: TYPE })) })).toEqual(['decisionGroups']);
  });

  it('update: every field optional, name and ownerId never null, status may archive', async () => {
    expect(await problems(UpdateDecisionDto, {})).toEqual([]);
    expect(await problems(UpdateDecisionDto, { status: 'ARCHIVED' })).toEqual([]);
    expect(await problems(UpdateDecisionDto, { name: null })).toEqual(['name']);
    expect(await problems(UpdateDecisionDto, { ownerId: null })).toEqual(['ownerId']);
    expect(await problems(UpdateDecisionDto, { description: null, sectionId: null })).toEqual([]);
  });

  it('bulk: 1..1000 UUIDs', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `0190f5c4-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect(await problems(BulkDecisionIdsDto, { decisionIds: ids(1000) })).toEqual([]);
    expect(await problems(BulkDecisionIdsDto, { decisionIds: ids(1001) })).toEqual(['decisionIds']);
    expect(await problems(BulkDecisionIdsDto, { decisionIds: [] })).toEqual(['decisionIds']);
    expect(await problems(BulkDecisionIdsDto, { decisionIds: ['x'] })).toEqual(['decisionIds']);
  });
});

describe('decision views', () => {
  const stored = {
    id: '0190f5c4-0000-7000-8000-0000000000d1',
    tenantId: '0190f5c4-0000-7000-8000-0000000000e1',
    name: 'Approve',
    decisionDisplayId: '10000',
    status: 'PUBLISHED',
    sectionId: null,
    categoryId: null,
    owner: 'owner-1',
    delegable: true,
    delegationPathway: ['Matrix'],
    isDeleted: false,
    decisionGroups: [{ id: 'x', denormalizedDecisionId: 'd', groupId: '0190f5c4-0000-7000-8000-0000000000f1', tenantGroupTypeId: null, displayName: null, groupName: 'Finance' }],
    decisionAuthorities: [],
    decisionDocuments: [{ documentId: '0190f5c4-0000-7000-8000-0000000000a1' }],
  } as unknown as StoredDecisionView;

  it('the link is the app URL and the decision; permissions by role keys, plus edit and view for the owner', () => {
    const asOwner = toDecisionView(stored, caller([], 'owner-1'), 'https://app.example.com/');
    expect(asOwner.link).toBe(`https://app.example.com/decisions/${stored.id}`);
    expect(asOwner.permissions).toEqual([
      { relationship_key: 'view:decisions', allowed: true },
      { relationship_key: 'edit:decisions', allowed: true },
      { relationship_key: 'delete:decisions', allowed: false },
      { relationship_key: 'create:root_delegations', allowed: false },
      { relationship_key: 'create:delegations', allowed: false },
    ]);
    const admin = toDecisionView(stored, caller(ALL_PERMISSION_KEYS), 'https://app.example.com');
    expect(admin.permissions.every((p) => p.allowed)).toBe(true);
    expect(toDecisionView(stored, caller(['view:decisions']), 'x').permissions.filter((p) => p.allowed).map((p) => p.relationship_key)).toEqual(['view:decisions']);
  });

  it('select keeps only the fields named', () => {
    const view = toDecisionView(stored, caller([]), 'x');
    expect(selectDecisionFields(view, ['id', 'name'])).toEqual({ id: stored.id, name: 'Approve' });
    expect(selectDecisionFields(view, [])).toBe(view);
  });

  it('the event payload is what the registry accepts', () => {
    const payload = toDecisionPayload(stored, 3);
    expect(payload).toMatchObject({ id: stored.id, ownerId: 'owner-1', groupIds: ['0190f5c4-0000-7000-8000-0000000000f1'], version: 3, authorities: [], documentIds: ['0190f5c4-0000-7000-8000-0000000000a1'] });
    expect(validateEvent('evt.decision.decision.updated', { tenantId: stored.tenantId, decision: { ...payload, ownerId: null } })).toEqual([]);
  });
});
