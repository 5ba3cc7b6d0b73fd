/**
 * NATS names. Every stream, consumer and subject carries a namespace (NATS_NAMESPACE), so
 * parallel test files and environments sharing one cluster never see each other's messages.
 * Code speaks in logical subjects (`evt.auth.user.updated`); `Subjects` adds the namespace.
 */
const NAMESPACE_PATTERN = /^[A-Za-z0-9_-]{0,40}$/;

export const LOGICAL = {
  callerResolve: 'auth.caller.resolve',
  callerChanged: 'auth.caller.changed',
} as const;

export class Subjects {
  readonly eventsStream: string;
  readonly jobsStream: string;
  private readonly prefix: string;

  constructor(readonly namespace = '') {
    if (!NAMESPACE_PATTERN.test(namespace)) {
      throw new Error(`NATS_NAMESPACE must match ${NAMESPACE_PATTERN} (got "${namespace}")`);
    }
    this.prefix = namespace ? `${namespace}.` : '';
    this.eventsStream = namespace ? `${namespace}_EVENTS` : 'EVENTS';
    this.jobsStream = namespace ? `${namespace}_JOBS` : 'JOBS';
  }

  /** Logical subject -> wire subject. */
  wire(logical: string): string {
    return this.prefix + logical;
  }

  /** Wire subject -> logical subject. */
  logical(wire: string): string {
    return this.prefix && wire.startsWith(this.prefix) ? wire.slice(this.prefix.length) : wire;
  }

  /** Durable consumer names may not contain dots. */
  durable(name: string): string {
    return (this.namespace ? `${this.namespace}_${name}` : name).replace(/[^A-Za-z0-9_-]/g, '_');
  }

  get eventsSubjects(): string[] {
    return [this.wire('evt.>'), this.wire(LOGICAL.callerChanged)];
  }

  get jobsSubjects(): string[] {
    return [this.wire('job.>')];
  }

  get callerResolve(): string {
    return this.wire(LOGICAL.callerResolve);
  }

  get callerChanged(): string {
    return this.wire(LOGICAL.callerChanged);
  }
}

/** `evt.<area>.<entity>.<verb>` */
export function eventSubject(area: string, entity: string, verb: string): string {
  return `evt.${area}.${entity}.${verb}`;
}

/** `job.<area>.<name>` */
export function jobSubject(area: string, name: string): string {
  return `job.${area}.${name}`;
}

/** Header names carried on every message we publish. */
export const HEADERS = {
  requestId: 'x-request-id',
  msgId: 'Nats-Msg-Id',
  /** The change (the publishing transaction, a uuid v7) the event belongs to: what a consistency token names. */
  changeId: 'Ddm-Change-Id',
} as const;
