import { SetMetadata, Type, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PermissionKey } from '../permission-keys';

export const PUBLIC_KEY = 'ddm:public';
export const PERMISSION_KEY = 'ddm:permission';
export const TENANT_PARAM_KEY = 'ddm:tenant-param';
export const TICKET_KEY = 'ddm:ticket';

/** Whom a one-time ticket was issued to: the token's subject in a tenant, as the person it resolved to then. */
export interface TicketHolder {
  sub: string;
  email?: string;
  userId: string;
  tenantId: string;
  /** Until when the ticket was good (the caller's claims end there). */
  expiresAt: Date;
}

/** A provider of the service that redeems (uses up) a ticket: its holder, or null for an unknown, used or expired one. */
export interface TicketRedeemer {
  redeem(ticket: string): Promise<TicketHolder | null>;
}

/** No token needed (health, docs). API routes never use it. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The caller needs this relationship key in the request's tenant (403 otherwise). */
export const RequirePermission = (key: PermissionKey) =>
  applyDecorators(
    SetMetadata(PERMISSION_KEY, key),
    ApiForbiddenResponse({ description: `Not a member of the tenant, or missing the "${key}" permission` }),
  );

/**
 * The path parameter that names the request's tenant, where it is not called `tenantId`
 * (for example `/tenants/{id}/roles/list`).
 */
export const TenantFromParam = (name: string) => SetMetadata(TENANT_PARAM_KEY, name);

/**
 * The route also takes a one-time ticket in the query (`?ticket=`) in place of the bearer token,
 * for clients that cannot send a header (a browser's EventSource). The guard redeems it with the
 * named provider: single use, then the caller is resolved in the ticket's tenant like any other.
 * With a bearer token as well, the ticket must be that caller's.
 */
export const AcceptsTicket = (redeemer: Type<TicketRedeemer>) => SetMetadata(TICKET_KEY, redeemer);

/** Swagger: bearer scheme `accessToken`, 401 and 403 documented. Put on every controller. */
export const ApiAuth = () =>
  applyDecorators(
    ApiBearerAuth('accessToken'),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired token' }),
    ApiForbiddenResponse({ description: 'Not a member of the tenant, or missing permission' }),
  );
