import { Injectable } from '@nestjs/common';
import { Caller, EVENT_SUBJECTS } from '@ddm/contracts';
import { Db, MailOutcome, MailService, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { CallerChanges } from '../core/caller-changes';
import { TenantRefs } from '../tenants/tenant-refs';
import { UserRefs, UserView } from '../users/user-refs';
import { BulkResendInviteDto } from './dto/bulk-resend.dto';
import { BulkItemResult, BulkResult, toBulkResult } from './dto/invitation.response';
import { BulkInviteItemDto, CreateUserDto } from './dto/invite-user.dto';
import { invitationMail } from './invitation.mail';
import { InviteFailure, MESSAGES, invitationError, invitationProblem, invitedMessage, repeatedEmails, resendRefusal, resentMessage } from './invitation.rules';
import { invitees, takenEmails } from './invitation.sql';

interface Outcome {
  email: string;
  userId?: string;
  failure?: InviteFailure;
  mail?: MailOutcome;
}

interface Recipient {
  userId: string;
  email: string;
  firstName: string | null;
}

/**
 * Invitations: a person joins a tenant as INVITED (the person is created when the email is new)
 * and, unless told not to, gets an email with a sign-in link. Bulk work is set-based; email goes
 * out after the commit, so no transaction waits on the mail server.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly db: Db,
    private readonly changes: CallerChanges,
    private readonly mail: MailService,
    private readonly userRefs: UserRefs,
    private readonly tenants: TenantRefs,
  ) {}

  /** One invitation; a problem is an HTTP error (409 duplicate email, 404 unknown id, 403 key not held). */
  async create(caller: Caller, dto: CreateUserDto): Promise<UserView> {
    const [outcome] = await this.invite(caller, [dto]);
    if (outcome.failure) throw invitationError(outcome.failure);
    return this.userRefs.view(this.db, caller.tenantId, outcome.userId as string);
  }

  async bulkInvite(caller: Caller, items: BulkInviteItemDto[]): Promise<BulkResult> {
    const outcomes = await this.invite(caller, items);
    return toBulkResult(
      outcomes.map((o) => ({ email: o.email, success: !o.failure, message: invitedMessage(o) })),
    );
  }

  /** Sends the invitation again to users of the tenant who have not accepted it yet. */
  async resend(caller: Caller, dto: BulkResendInviteDto): Promise<BulkResult> {
    const tenantId = caller.tenantId;
    const rows = await invitees(this.db, tenantId, dto.userIds);
    const byId = new Map(rows.map((r) => [r.user_id, r]));
    const results: BulkItemResult[] = new Array(dto.userIds.length);
    const recipients: (Recipient & { index: number })[] = [];
    dto.userIds.forEach((raw, index) => {
      const id = raw.toLowerCase();
      const row = byId.get(id);
      const refusal = resendRefusal(id, row);
      if (refusal) results[index] = refusal;
      else recipients.push({ index, userId: id, email: row!.email, firstName: row!.first_name });
    });
    const sent = await this.sendInvitations(caller, recipients);
    recipients.forEach((r, i) => {
      const m = sent[i];
      results[r.index] = { email: r.email, success: m.ok, message: resentMessage(m) };
    });
    return toBulkResult(results);
  }

  /**
   * Invites each item into the caller's tenant: per-item checks (email taken or repeated, unknown
   * ids, keys the caller does not hold), then one transaction that writes every valid item with a
   * few set-based statements, then the emails. Outcomes are in the order of `items`.
   */
  private async invite(caller: Caller, items: (CreateUserDto | BulkInviteItemDto)[]): Promise<Outcome[]> {
    const tenantId = caller.tenantId;
    const emails = items.map((i) => i.email.trim().toLowerCase());
    const outcomes: Outcome[] = emails.map((email) => ({ email }));
    const repeated = repeatedEmails(emails);
    const known = await this.userRefs.known(this.db, tenantId, {
      roleIds: items.flatMap((i) => i.roleIds ?? []),
      positionIds: items.flatMap((i) => i.positionIds ?? []),
      groupIds: items.flatMap((i) => (i.groups ?? []).map((g) => g.groupId)),
      managerIds: items.flatMap((i) => (i.managerId ? [i.managerId] : [])),
    });
    const taken = await takenEmails(this.db, tenantId, emails);
    items.forEach((item, i) => {
      const problem = invitationProblem(item, { tenantId, repeated: repeated.has(i), taken: taken.has(emails[i]), known, callerKeys: caller.keys });
      if (problem) outcomes[i].failure = problem;
    });

    const valid = items.map((item, i) => ({ item, i })).filter(({ i }) => !outcomes[i].failure);
    if (valid.length) {
      const joined = await this.changes.transaction(async (tx, callerChanged) => {
        const ids = await this.writeMembers(tx, caller, valid.map(({ item, i }) => ({ item, email: emails[i] })));
        const userIds = [...ids.values()];
        await this.userRefs.replaceLinks(
          tx,
          tenantId,
          valid
            .filter(({ i }) => ids.has(emails[i]))
            .map(({ item, i }) => ({ userId: ids.get(emails[i]) as string, roleIds: item.roleIds ?? [], positionIds: item.positionIds ?? [], groups: item.groups ?? [] })),
        );
        await this.userRefs.publish(tx, EVENT_SUBJECTS.userCreated, tenantId, userIds);
        if (userIds.length) await callerChanged({ tenantId, userIds });
        return ids;
      });
      for (const { i } of valid) {
        const userId = joined.get(emails[i]);
        // Another request added the same person a moment before this one committed.
        if (!userId) outcomes[i].failure = { kind: 'conflict', message: MESSAGES.emailExists };
        else outcomes[i].userId = userId;
      }
      const toMail = valid.filter(({ item, i }) => outcomes[i].userId && item.inviteViaEmail !== false);
      const sent = await this.sendInvitations(
        caller,
        toMail.map(({ item, i }) => ({ userId: outcomes[i].userId as string, email: emails[i], firstName: item.firstName.trim() })),
      );
      toMail.forEach(({ i }, k) => (outcomes[i].mail = sent[k]));
    }
    return outcomes;
  }

  /**
   * Creates the persons that are new (the email is global), allocates the display ids in one
   * step, and adds (or revives a deleted) membership as INVITED. Answers email -> user id for the
   * memberships written; an email missing from the answer lost a race with another invitation.
   */
  private async writeMembers(tx: Tx, caller: Caller, rows: { item: CreateUserDto | BulkInviteItemDto; email: string }[]): Promise<Map<string, string>> {
    const tenantId = caller.tenantId;
    const names = rows.map(({ item }) => ({ first: item.firstName.trim(), last: item.lastName.trim() }));
    await tx.query(
      `INSERT INTO auth.users (id, email, login_id, first_name, last_name, name, display_name, mobile_phone, active_tenant_id,
                               display_language, date_format, created_by, updated_by)
       SELECT x.id, x.email, x.email, x.first_name, x.last_name, x.name, x.name, x.mobile_phone, $1, 'en', 'MM/DD/YYYY', $2, $2
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS x(id, email, first_name, last_name, name, mobile_phone)
       ON CONFLICT ((lower(email))) DO NOTHING`,
      [
        tenantId,
        caller.userId,
        rows.map(() => uuidv7()),
        rows.map((r) => r.email),
        names.map((n) => n.first),
        names.map((n) => n.last),
        names.map((n) => `${n.first} ${n.last}`),
        rows.map((r) => r.item.mobilePhone ?? null),
      ],
    );
    const persons = await tx.query<{ id: string; email: string }>(`SELECT id, lower(email) AS email FROM auth.users WHERE lower(email) = ANY($1::text[])`, [
      rows.map((r) => r.email),
    ]);
    const personOf = new Map(persons.map((p) => [p.email, p.id]));
    const displayIds = await tx.nextDisplayIds(tenantId, 'user', rows.length);
    const inserted = await tx.query<{ user_id: string }>(
      `INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status, employee_id, employee_type, custom_attributes,
                                      manager_id, created_by, updated_by)
       SELECT x.id, $1, x.user_id, x.display_id, 'INVITED', x.employee_id, x.employee_type, x.attrs, x.manager_id, $2, $2
         FROM unnest($3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::uuid[])
              AS x(id, user_id, display_id, employee_id, employee_type, attrs, manager_id)
       ON CONFLICT (tenant_id, user_id) DO UPDATE
          SET status = 'INVITED', is_deleted = false, deleted_on = NULL, deleted_by = NULL,
              employee_id = EXCLUDED.employee_id, employee_type = EXCLUDED.employee_type,
              custom_attributes = EXCLUDED.custom_attributes, manager_id = EXCLUDED.manager_id,
              created_on = now(), created_by = EXCLUDED.created_by, updated_on = now(), updated_by = EXCLUDED.updated_by
        WHERE tenant_users.is_deleted
       RETURNING user_id`,
      [
        tenantId,
        caller.userId,
        rows.map(() => uuidv7()),
        rows.map((r) => personOf.get(r.email)),
        displayIds,
        rows.map((r) => r.item.employeeId ?? null),
        rows.map((r) => r.item.employeeType ?? null),
        rows.map((r) => JSON.stringify(r.item.customAttributes ?? {})),
        rows.map((r) => r.item.managerId ?? null),
      ],
    );
    const written = new Set(inserted.map((r) => r.user_id));
    return new Map(rows.filter((r) => written.has(personOf.get(r.email) as string)).map((r) => [r.email, personOf.get(r.email) as string]));
  }

  /** Emails the invitations (no transaction open) and records each outcome. */
  private async sendInvitations(caller: Caller, recipients: Recipient[]): Promise<MailOutcome[]> {
    if (!recipients.length) return [];
    const tenantName = await this.tenants.nameOf(this.db, caller.tenantId);
    const outcomes = await this.mail.sendAll(
      recipients.map((r) =>
        invitationMail({ email: r.email, firstName: r.firstName, tenantId: caller.tenantId, tenantName, inviterName: caller.name, appUrl: this.mail.options.appUrl }),
      ),
    );
    await this.db.query(
      `INSERT INTO auth.invitations (id, tenant_id, user_id, email, status, error, message_id, sent_by)
       SELECT x.id, $1, x.user_id, x.email, x.status, x.error, x.message_id, $2
         FROM unnest($3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[]) AS x(id, user_id, email, status, error, message_id)`,
      [
        caller.tenantId,
        caller.userId,
        recipients.map(() => uuidv7()),
        recipients.map((r) => r.userId),
        recipients.map((r) => r.email),
        outcomes.map((o) => (o.ok ? 'SENT' : 'FAILED')),
        outcomes.map((o) => o.error?.slice(0, 500) ?? null),
        outcomes.map((o) => o.messageId?.slice(0, 255) ?? null),
      ],
    );
    return outcomes;
  }
}
