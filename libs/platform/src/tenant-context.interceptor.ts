import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Caller } from '@ddm/contracts';
import { Observable } from 'rxjs';
import { enterTenant } from './request-context';

/**
 * Hands the caller's tenant (and user, the actor of the audit trail) to the work of the request
 * once the guard has resolved it, so every statement of the request runs in that tenant
 * (row-level security, tenancy.ts). Runs first of the interceptors; public routes have no caller.
 */
@Injectable()
export class TenantContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const caller = context.switchToHttp().getRequest<{ caller?: Caller }>().caller;
    if (caller) enterTenant(caller.tenantId, caller.userId);
    return next.handle();
  }
}
