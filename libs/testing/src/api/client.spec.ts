import { join } from 'node:path';
import { ROOT } from '../env';
import { ResponseChecker } from './client';

const role = { id: '0190a000-0000-7000-8000-000000000001', tenantId: '0190a000-0000-7000-8000-000000000002', roleName: 'Approver', isDeleted: false, status: 'ACTIVE' };
const envelope = (data: unknown, statusCode = 200) => ({ statusCode, timestamp: '2026-01-01T00:00:00.000Z', message: 'Decision role updated successfully', data });

describe('ResponseChecker: answers against docs/openapi.json', () => {
  const checker = new ResponseChecker(join(ROOT, 'docs/openapi.json'));
  const patchRole = (status: number, body: unknown) => checker.problems('patch', '/settings/v1/decision-roles/{id}', status, body);

  it('accepts what the document describes, envelope included', () => {
    expect(patchRole(200, envelope(role))).toEqual([]);
  });

  it('refuses an answer that differs from its schema: a missing field, a wrong type, no envelope, a wrong status code in the envelope', () => {
    const { roleName: _roleName, ...withoutName } = role;
    expect(patchRole(200, envelope(withoutName)).join()).toMatch(/roleName/);
    expect(patchRole(200, envelope({ ...role, isDeleted: 'no' })).join()).toMatch(/isDeleted/);
    expect(patchRole(200, role)).not.toEqual([]);
    expect(patchRole(200, envelope(role, 201))).not.toEqual([]);
  });

  it('refuses a success status the operation does not document, and checks every failure against the error body', () => {
    expect(patchRole(201, envelope(role, 201))).toEqual(['PATCH /settings/v1/decision-roles/{id} answered 201, which the OpenAPI document does not describe']);
    const error = { statusCode: 404, timestamp: '2026-01-01T00:00:00.000Z', message: 'Decision role x not found', error: 'Not Found', path: '/settings/v1/decision-roles/x', requestId: 'r1' };
    expect(patchRole(404, error)).toEqual([]);
    expect(patchRole(404, { message: 'not found' })).not.toEqual([]);
  });

  it('reads nullable objects as the document means them (null, or the object)', () => {
    const userDetails = (manager: unknown) => checker.problems('get', '/auth/v1/user/details', 200, envelope({ manager }));
    expect(userDetails(null).join()).not.toMatch(/\/data\/manager /);
    expect(userDetails('a string').join()).toMatch(/\/data\/manager/);
  });
});
