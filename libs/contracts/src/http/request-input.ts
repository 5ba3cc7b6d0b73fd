import { ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { FieldError, badRequest } from './errors';
import { capErrors } from './validation';

/** Deepest nesting a request body may have (arrays and objects); no request of the API needs more. */
export const MAX_BODY_DEPTH = 32;

/**
 * The request's strings that hold a NUL character (`\u0000`, which PostgreSQL cannot store), and
 * whether the body nests deeper than `MAX_BODY_DEPTH`. Walks without recursion, so no body can
 * overflow the stack; `prefix` names the value's place (a body field as a dotted path, a query or
 * path parameter by its name).
 */
export function inputProblems(value: unknown, prefix = ''): FieldError[] {
  const problems: FieldError[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: prefix, depth: 0 }];
  while (stack.length && problems.length <= 50) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) problems.push({ field: path || 'body', message: 'must not contain the NUL character (\\u0000)' });
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      problems.push({ field: path || 'body', message: `is nested more than ${MAX_BODY_DEPTH} levels deep` });
      continue;
    }
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      if (key.includes('\u0000')) problems.push({ field: path ? `${path}.${key}` : key, message: 'must not contain the NUL character (\\u0000)' });
      stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return problems;
}

interface QueryRule {
  /** The handler takes the whole query as a DTO: the validation pipe refuses unknown parameters. */
  dto: boolean;
  /** Otherwise, the parameters it reads one by one (`@Query('x')`). */
  names: ReadonlySet<string>;
}

/** The guard reads `tenantId` from the query of every operation (ARCHITECTURE §4), so it is always accepted. */
const ALWAYS_ACCEPTED = ['tenantId'];

/**
 * Checks what no DTO can, once for every operation of every service, before the handler's pipes:
 * no string anywhere (body, query, path) holds a NUL character, the body is not nested absurdly
 * deep, and an operation that declares no query parameters refuses the ones it is sent (list
 * operations declare theirs in a DTO, whose pipe refuses unknown ones). Each problem is a 400
 * naming the field.
 */
@Injectable()
export class RequestInputChecks {
  private readonly rules = new WeakMap<object, QueryRule>();

  /** A 400 naming every problem (a step of every request, RequestStepsGuard in libs/platform). */
  check(context: ExecutionContext): void {
    const request = context.switchToHttp().getRequest<{ body?: unknown; query?: Record<string, unknown>; params?: Record<string, unknown> }>();
    const problems = [...inputProblems(request.params ?? {}), ...inputProblems(request.query ?? {}), ...inputProblems(request.body ?? null)];
    const rule = this.ruleFor(context);
    if (!rule.dto) {
      for (const name of Object.keys(request.query ?? {})) {
        if (!rule.names.has(name) && !ALWAYS_ACCEPTED.includes(name)) problems.push({ field: name, message: 'is not an accepted query parameter' });
      }
    }
    if (problems.length) {
      const { shown, message } = capErrors(problems);
      throw badRequest(`Invalid input: ${message}`, shown);
    }
  }

  private ruleFor(context: ExecutionContext): QueryRule {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (!rule) {
      const args: Record<string, { data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {};
      const queryArgs = Object.entries(args)
        .filter(([key]) => key.split(':')[0] === String(RouteParamtypes.QUERY))
        .map(([, arg]) => arg.data);
      rule = {
        dto: queryArgs.some((data) => data === undefined),
        names: new Set(queryArgs.filter((data): data is string => typeof data === 'string')),
      };
      this.rules.set(handler, rule);
    }
    return rule;
  }
}
