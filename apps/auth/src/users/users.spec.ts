import { validate } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { CreateUserDto } from '../invitations/dto/invite-user.dto';
import { UpdateUserEntitiesDto } from './dto/update-user.dto';
import { managerProblem } from './user.rules';

const G1 = '0190a000-0000-7000-8000-000000000001';
const G2 = '0190a000-0000-7000-8000-000000000002';
const T = '0190a000-0000-7000-8000-0000000000aa';

describe('users rules', () => {
  describe('groups: at most one primary organisation', () => {
    it('is enforced by the request DTOs as a 400 naming groups', async () => {
      const dto = plainToInstance(CreateUserDto, {
        tenantId: T,
        email: 'a@b.test',
        firstName: 'A',
        lastName: 'B',
        groups: [{ groupId: G1, isPrimaryOrg: true }, { groupId: G2, isPrimaryOrg: 'true' }],
      });
      const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
      expect(errors.map((e) => e.property)).toEqual(['groups']);
      const update = await validate(plainToInstance(UpdateUserEntitiesDto, { groups: [{ groupId: G1, isPrimaryOrg: true }, { groupId: G2, isPrimaryOrg: true }] }));
      expect(update.map((e) => e.property)).toEqual(['groups']);
    });
  });

  it('refuses a manager that is the user or reports to the user', async () => {
    expect(managerProblem('u1', null, [])).toBeNull();
    expect(managerProblem('u1', 'm1', ['m2'])).toBeNull();
    expect(managerProblem('u1', 'u1', [])).toMatch(/own manager/);
    expect(managerProblem('u1', 'm1', ['m2', 'u1'])).toMatch(/cycle/);
  });
});
