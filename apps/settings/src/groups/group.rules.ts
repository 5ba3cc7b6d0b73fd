import { randomInt } from 'node:crypto';

/** The rules of groups that need no database; unit-tested in groups.spec.ts. */

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const GROUP_CODE_LENGTH = 6;

/** A group's `groupId`: 6 random upper-case letters and digits (uniqueness per tenant is the table's job). */
export function randomGroupCode(random: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < GROUP_CODE_LENGTH; i++) code += CODE_ALPHABET[random(CODE_ALPHABET.length)];
  return code;
}

/** Fields of PATCH /groups/{id} that change something (tenantId only names the tenant). */
export const GROUP_UPDATE_FIELDS = [
  'tenantGroupTypeId',
  'baseCurrency',
  'groupName',
  'displayName',
  'status',
  'isSynced',
  'legalName',
  'externalId',
  'instanceId',
  'address',
  'addParentGroupIds',
  'removeParentGroupIds',
  'isDeleted',
  'disableOption',
] as const;

/** What may come with `isDeleted: true` (a deletion changes nothing else). */
const WITH_DELETE = new Set<string>(['isDeleted', 'disableOption']);

export interface GroupChange {
  addParentGroupIds?: readonly string[];
  removeParentGroupIds?: readonly string[];
  isDeleted?: boolean;
  [field: string]: unknown;
}

export interface ChangeProblem {
  message: string;
  field?: string;
}

/** Why an update is a 400 before anything is read (null = go on). `isDeleted: false` changes nothing, so alone it is "nothing to change". */
export function groupUpdateProblem(groupId: string, change: GroupChange): ChangeProblem | null {
  const given = GROUP_UPDATE_FIELDS.filter((f) => (f === 'isDeleted' ? change.isDeleted === true : change[f] !== undefined));
  if (!given.length) return { message: `Nothing to change: send at least one of ${GROUP_UPDATE_FIELDS.join(', ')}` };
  if (change.isDeleted === true) {
    const others = given.filter((f) => !WITH_DELETE.has(f));
    if (others.length) return { field: 'isDeleted', message: `isDeleted: true deletes the group and cannot be combined with ${others.join(', ')}` };
  }
  const add = (change.addParentGroupIds ?? []).map((id) => id.toLowerCase());
  const removing = new Set((change.removeParentGroupIds ?? []).map((id) => id.toLowerCase()));
  const both = add.filter((id) => removing.has(id));
  if (both.length) return { field: 'removeParentGroupIds', message: `cannot add and remove the same parent: ${both.join(', ')}` };
  if (add.includes(groupId.toLowerCase())) return { field: 'addParentGroupIds', message: 'a group cannot be its own parent (that would make a cycle)' };
  return null;
}

export interface AddressFields {
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  stateCode: string | null;
  zipCode: string | null;
  country: string | null;
  countryCode: string | null;
}

export const ADDRESS_FIELDS: readonly (keyof AddressFields)[] = ['street1', 'street2', 'city', 'state', 'stateCode', 'zipCode', 'country', 'countryCode'];

/** An address after a PATCH: the fields sent replace the stored ones, the others stay (null when there was none). */
export function mergeAddress(current: AddressFields | null, patch: Partial<AddressFields>): AddressFields {
  const out = {} as AddressFields;
  for (const f of ADDRESS_FIELDS) out[f] = patch[f] !== undefined ? patch[f] : (current?.[f] ?? null);
  return out;
}

/** Why the group's address is refused (400), given whether its (new) type allows addresses. */
export function addressProblem(args: { typeAllowsAddress: boolean; addressSent: boolean; addressCleared: boolean; hasAddress: boolean; typeChanged: boolean }): ChangeProblem | null {
  if (args.typeAllowsAddress) return null;
  if (args.addressSent) return { field: 'address', message: 'the group type does not allow an address (addressEnabled is false)' };
  if (args.typeChanged && args.hasAddress && !args.addressCleared) {
    return { field: 'tenantGroupTypeId', message: 'the new group type does not allow an address; send address: null to remove it' };
  }
  return null;
}
