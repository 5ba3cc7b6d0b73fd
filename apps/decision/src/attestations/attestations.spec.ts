import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { validateEvent } from '@ddm/contracts';
import {
  MAX_SCOPE_IDS,
  REPORT_COLUMNS,
  REPORT_HEADER,
  ReportLine,
  answerProblem,
  campaignStatusOf,
  csvCell,
  csvLine,
  dueDateProblem,
  flagChange,
  normalizeScope,
  reportCsvLine,
  reportFileName,
} from './attestation.rules';
import { CreateAttestationCampaignDto, RespondAttestationDto } from './dto/attestation-change.dto';
import { AttestationReportQuery } from './dto/attestation-query.dto';
import { toItemEvent } from './dto/attestation.response';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

const D1 = '0190f5c4-0000-7000-8000-000000000001';
const D2 = '0190f5c4-0000-7000-8000-000000000002';
const G1 = '0190f5c4-0000-7000-8000-0000000000a1';
const NOW = new Date('2026-03-01T12:00:00.000Z');

describe('a campaign scope', () => {
  it('names decisions, groups or both (ids lower case, each once)', () => {
    expect(normalizeScope({ decisionIds: [D1, D1.toUpperCase(), D2] })).toEqual({ decisionIds: [D1, D2], groupIds: [], all: false });
    expect(normalizeScope({ groupIds: [G1], decisionIds: [] })).toEqual({ decisionIds: [], groupIds: [G1], all: false });
    expect(normalizeScope({ all: true, decisionIds: [], groupIds: null })).toEqual({ decisionIds: [], groupIds: [], all: true });
  });

  it('must name something, and all excludes naming ids', () => {
    expect(normalizeScope({})).toEqual([{ field: 'scope', message: expect.stringContaining('decisionIds, groupIds, or all') }]);
    expect(normalizeScope({ all: false, decisionIds: [] })).toEqual([expect.objectContaining({ field: 'scope' })]);
    expect(normalizeScope({ all: true, groupIds: [G1] })).toEqual([expect.objectContaining({ field: 'scope.all' })]);
  });

  it('the request: name 1..200, at most 500 ids per list, each a UUID, a due date, nothing unknown', async () => {
    const ok = { name: 'Q3 review', scope: { decisionIds: [D1] }, dueDate: '2026-04-01T00:00:00Z', suspendOverdue: true };
    expect(await problems(CreateAttestationCampaignDto, ok)).toEqual([]);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, name: 'x'.repeat(200) })).toEqual([]);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, name: 'x'.repeat(201) })).toEqual(['name']);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, name: '   ' })).toEqual(['name']);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `0190f5c4-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, scope: { groupIds: ids(MAX_SCOPE_IDS) } })).toEqual([]);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, scope: { groupIds: ids(MAX_SCOPE_IDS + 1) } })).toEqual(['scope']);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, scope: { decisionIds: ['nope'] } })).toEqual(['scope']);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, scope: { decisionIds: [D1], owner: 'me' } })).toEqual(['scope']);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, scope: undefined })).toEqual(['scope']);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, dueDate: '2026-02-30T00:00:00Z' })).toEqual(['dueDate']);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, suspendOverdue: 'yes' })).toEqual(['suspendOverdue']);
    expect(await problems(CreateAttestationCampaignDto, { ...ok, status: 'CLOSED' })).toEqual(['status']);
  });

  it('is due in the future', () => {
    expect(dueDateProblem(new Date(NOW.getTime() + 1), NOW)).toBeNull();
    expect(dueDateProblem(NOW, NOW)).toMatch(/must be in the future/);
    expect(dueDateProblem(new Date('2020-01-01T00:00:00Z'), NOW)).toMatch(/2020-01-01T00:00:00.000Z/);
  });
});

describe('an answer', () => {
  const pending = { itemStatus: 'PENDING' as const, dueDate: new Date(NOW.getTime() + 60_000), delegationStatus: 'ISSUED' as const, delegationDisplayId: '10007' };

  it('is taken once, from a held delegation, before the due date', () => {
    expect(answerProblem(pending, NOW)).toBeNull();
    expect(answerProblem({ ...pending, delegationStatus: 'ACCEPTED' }, NOW)).toBeNull();
    expect(answerProblem({ ...pending, itemStatus: 'CONFIRMED' }, NOW)).toMatch(/already answered in this campaign \(CONFIRMED\)/);
    expect(answerProblem({ ...pending, itemStatus: 'DISPUTED' }, NOW)).toMatch(/already answered/);
    expect(answerProblem({ ...pending, itemStatus: 'OVERDUE' }, NOW)).toMatch(/can no longer be answered/);
    expect(answerProblem({ ...pending, dueDate: NOW }, NOW)).toMatch(/was due at 2026-03-01T12:00:00.000Z/);
    for (const status of ['SUSPENDED', 'REVOKED', 'EXPIRED', 'PENDING'] as const) {
      expect(answerProblem({ ...pending, delegationStatus: status }, NOW)).toMatch(new RegExp(`Delegation 10007 is ${status}`));
    }
  });

  it('flags a disputed delegation, and a confirmation clears an earlier flag', () => {
    expect(flagChange('DISPUTED', null)).toBe('flag');
    expect(flagChange('DISPUTED', D1)).toBe('flag');
    expect(flagChange('CONFIRMED', D1)).toBe('clear');
    expect(flagChange('CONFIRMED', null)).toBeNull();
  });

  it('the request: CONFIRMED or DISPUTED, a comment of at most 2000 characters (null allowed)', async () => {
    expect(await problems(RespondAttestationDto, { outcome: 'CONFIRMED' })).toEqual([]);
    expect(await problems(RespondAttestationDto, { outcome: 'DISPUTED', comment: 'x'.repeat(2000) })).toEqual([]);
    expect(await problems(RespondAttestationDto, { outcome: 'DISPUTED', comment: null })).toEqual([]);
    expect(await problems(RespondAttestationDto, { outcome: 'DISPUTED', comment: 'x'.repeat(2001) })).toEqual(['comment']);
    expect(await problems(RespondAttestationDto, { outcome: 'MAYBE' })).toEqual(['outcome']);
    expect(await problems(RespondAttestationDto, {})).toEqual(['outcome']);
  });

  it('a campaign is open while an item is pending', () => {
    expect(campaignStatusOf({ pending: 1 })).toBe('OPEN');
    expect(campaignStatusOf({ pending: 0 })).toBe('CLOSED');
  });
});

describe('the report', () => {
  it('writes cells as RFC 4180 asks: quotes, commas and line breaks quoted, quotes doubled, null empty', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
    expect(csvCell('')).toBe('');
    expect(csvLine(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });

  it('neutralises formulas: a cell starting with = + - @ (or tab, CR) is prefixed with a quote', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('has a header naming every column, and one line per item in the columns\' order', () => {
    expect(REPORT_HEADER).toBe('Delegation ID,Decision ID,Decision,Recipient type,Holder,Holder email,Holder position,Status,Responded by,Responded by email,Responded at,Comment\r\n');
    const line = Object.fromEntries(REPORT_COLUMNS.map(([key]) => [key, null])) as ReportLine;
    expect(reportCsvLine({ ...line, delegationDisplayId: '10001', decisionName: 'Approve, "big" ones', status: 'DISPUTED', comment: '=cmd|x' })).toBe(
      '10001,,"Approve, ""big"" ones",,,,,DISPUTED,,,,\'=cmd|x\r\n',
    );
  });

  it('is named by the campaign\'s display id, and only csv is a format', async () => {
    expect(reportFileName('10004')).toBe('attestation-campaign-10004.csv');
    expect(reportFileName('10004"; x=y')).toBe('attestation-campaign-10004xy.csv');
    expect(await problems(AttestationReportQuery, { format: 'csv' })).toEqual([]);
    expect(await problems(AttestationReportQuery, {})).toEqual([]);
    expect(await problems(AttestationReportQuery, { format: 'xlsx' })).toEqual(['format']);
    expect(await problems(AttestationReportQuery, { format: 'json' })).toEqual(['format']);
  });
});

describe('the events', () => {
  const campaign = { id: '0190f5c4-0000-7000-8000-0000000000c1', name: 'Q3', due_date: new Date('2026-04-01T00:00:00Z'), created_by: D2 };
  const item = {
    delegation_id: D1, delegation_display_id: '10001', decision_id: D2, issuer_user_id: null,
    recipient_type: 'POSITION_ONLY', recipient_user_id: null, recipient_position_id: G1,
  };
  const tenantId = '0190f5c4-0000-7000-8000-0000000000ff';

  it('carry the campaign, the delegation and its recipient at the opening, as the registry checks them', () => {
    const base = toItemEvent(tenantId, campaign, item);
    expect(base).toEqual({
      tenantId, campaignId: campaign.id, campaignName: 'Q3', delegationId: D1, delegationDisplayId: '10001', decisionId: D2,
      recipientType: 'POSITION_ONLY', recipientUserId: null, recipientPositionId: G1, issuerUserId: null, requestedById: D2, dueDate: '2026-04-01T00:00:00.000Z',
    });
    expect(validateEvent('evt.decision.attestation.requested', { ...base, holderUserIds: [D2] })).toEqual([]);
    expect(validateEvent('evt.decision.attestation.requested', base)).toEqual(['holderUserIds must be an array']);
    const responded = { ...base, outcome: 'DISPUTED', comment: null, respondedById: D2, respondedAt: '2026-03-01T12:00:00.000Z' };
    expect(validateEvent('evt.decision.attestation.responded', responded)).toEqual([]);
    expect(validateEvent('evt.decision.attestation.responded', { ...responded, outcome: 'MAYBE' })).toEqual(['outcome must be one of CONFIRMED, DISPUTED']);
    expect(validateEvent('evt.decision.attestation.disputed', { ...responded, notifyUserIds: [] })).toEqual([]);
    expect(validateEvent('evt.decision.attestation.overdue', { ...base, suspended: true, notifyUserIds: [D2] })).toEqual([]);
  });
});
