import { CanActivate, ExecutionContext } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Caller, CallerGuard, RequestInputChecks, ResponseEnvelope, bodyErrorOf, envelopeAnswer, errorBody } from '@ddm/contracts';
import type { FastifyError, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { TenantLimit } from './hardening';
import type { IdempotencyStep } from './idempotency';
import { enterTenant } from './request-context';

/**
 * What the platform does with a request before its handler, in this order (the one global guard):
 * 1. the caller (CallerGuard: the token, the caller in the tenant, the route's permission key);
 * 2. the caller's tenant (and user, the audit trail's actor) to the work of the request, so every
 *    statement of the request, the later steps' own included, runs in that tenant (row-level
 *    security, tenancy.ts); public routes have no caller;
 * 3. the tenant's rate budget (hardening.ts), when the limits are on;
 * 4. the input checks (RequestInputChecks: NUL characters, nesting, unknown query parameters);
 * 5. the Idempotency-Key of a POST or bulk PATCH (idempotency.ts): a retry is answered with the
 *    first request's answer and the handler does not run; the answer is stored as it leaves;
 * 6. the answer marked for the envelope, which ServiceHttpAdapter puts around the handler's result.
 * A guard and the adapter, not interceptors: Nest pays an async resource (AsyncResource.bind, with
 * two deprecation wrappers) and a chain of observables for each interceptor a request passes,
 * measured at a third of the service's CPU for a small read.
 */
export class RequestStepsGuard implements CanActivate {
  constructor(
    private readonly callerGuard: CallerGuard,
    private readonly tenantLimit: TenantLimit | undefined,
    private readonly input: RequestInputChecks,
    private readonly idempotency: IdempotencyStep,
    private readonly envelope: ResponseEnvelope,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.callerGuard.canActivate(context);
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { caller?: Caller }>();
    const reply = http.getResponse<FastifyReply>();
    const caller = request.caller;
    if (caller) {
      enterTenant(caller.tenantId, caller.userId);
      if (this.tenantLimit) await this.tenantLimit(request, reply, caller.tenantId);
    }
    this.input.check(context);
    await this.idempotency.begin(request, reply);
    this.envelope.mark(context);
    return true;
  }
}

type ErrorHandler = Parameters<FastifyAdapter['setErrorHandler']>[0];

/**
 * Fastify for Nest, with the envelope: Nest hands every controller's result to `reply`, which
 * sends it in the envelope when the request steps marked it (envelopeAnswer). Routes that write
 * their own answer (`@Res()`: streams, downloads) and errors (the exception filter) do not pass here.
 *
 * And one error path for every route: Fastify gives a route the error handler its instance had
 * when the plugin queue is next loaded after the route was added, and Nest sets its handler (the
 * exception filter, the house error body) only at the end of `init`, after the modules'
 * `onModuleInit`. A module that registered a Fastify plugin there (the document area's multipart)
 * loaded the queue early, so its routes kept Fastify's default handler and answered body-parser
 * errors as Fastify's own body. So the instance gets one handler as it is made, before any route,
 * which hands each error to the handler Nest gives later; Fastify's refusals of a body go to it as
 * the AppError of their status, in the house wording (bodyErrorOf).
 */
export class ServiceHttpAdapter extends FastifyAdapter {
  private nestErrorHandler: ErrorHandler | undefined;

  constructor(...args: ConstructorParameters<typeof FastifyAdapter<RawServerDefault>>) {
    super(...args);
    const handOn = (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const error = bodyErrorOf(err) ?? err;
      if (this.nestErrorHandler) return this.nestErrorHandler.call(this.getInstance(), error as FastifyError, request as never, reply as never);
      // Only before `init` has finished, when no route answers yet.
      void reply.code(500).send(errorBody(500, 'Internal server error', request.url.split('?')[0], request.id));
    };
    this.getInstance().setErrorHandler(handOn);
  }

  override setErrorHandler(handler: ErrorHandler): ReturnType<FastifyAdapter['setErrorHandler']> {
    this.nestErrorHandler = handler;
    return this.getInstance();
  }

  override reply(response: Parameters<FastifyAdapter['reply']>[0], body: unknown, statusCode?: number): ReturnType<FastifyAdapter['reply']> {
    return super.reply(response, envelopeAnswer(response as FastifyReply, body, statusCode), statusCode);
  }
}
