import { AsyncLocalStorage } from 'node:async_hooks';

/** The request id of the work in progress, so outbox rows and NATS requests carry it on. */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
