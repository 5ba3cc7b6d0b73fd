import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PermissionKey } from '../permission-keys';

export const PUBLIC_KEY = 'ddm:public';
export const PERMISSION_KEY = 'ddm:permission';
export const TENANT_PARAM_KEY = 'ddm:tenant-param';

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

/** Swagger: bearer scheme `accessToken`, 401 and 403 documented. Put on every controller. */
export const ApiAuth = () =>
  applyDecorators(
    ApiBearerAuth('accessToken'),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired token' }),
    ApiForbiddenResponse({ description: 'Not a member of the tenant, or missing permission' }),
  );
