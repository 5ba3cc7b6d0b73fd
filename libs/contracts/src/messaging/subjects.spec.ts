import { HEADERS, LOGICAL, Subjects, eventSubject, jobSubject } from './subjects';

describe('Subjects', () => {
  it('puts the namespace in front of every wire subject', async () => {
    const s = new Subjects('t1a2');
    expect(s.wire('evt.auth.user.updated')).toBe('t1a2.evt.auth.user.updated');
    expect(s.callerResolve).toBe('t1a2.auth.caller.resolve');
    expect(s.callerChanged).toBe('t1a2.auth.caller.changed');
    expect(s.eventsSubjects).toEqual(['t1a2.evt.>', 't1a2.auth.caller.changed']);
    expect(s.jobsSubjects).toEqual(['t1a2.job.>']);
  });

  it('names the streams after the namespace', async () => {
    const s = new Subjects('t1a2');
    expect(s.eventsStream).toBe('t1a2_EVENTS');
    expect(s.jobsStream).toBe('t1a2_JOBS');
  });

  it('without a namespace uses the plain names', async () => {
    const s = new Subjects();
    expect(s.namespace).toBe('');
    expect(s.wire('job.decision.bulk-duplicate')).toBe('job.decision.bulk-duplicate');
    expect(s.logical('job.decision.bulk-duplicate')).toBe('job.decision.bulk-duplicate');
    expect(s.eventsStream).toBe('EVENTS');
    expect(s.jobsStream).toBe('JOBS');
    expect(s.callerResolve).toBe(LOGICAL.callerResolve);
    expect(s.durable('notifications.delegation-issued')).toBe('notifications_delegation-issued');
  });

  it.each(['evt.decision.delegation.issued', 'job.decision.bulk-duplicate', LOGICAL.callerChanged])('round-trips %s between logical and wire', async (logical) => {
    const s = new Subjects('ns_1-x');
    expect(s.logical(s.wire(logical))).toBe(logical);
  });

  it('leaves a subject of another namespace as it is', async () => {
    const s = new Subjects('t1');
    expect(s.logical('t10.evt.auth.user.updated')).toBe('t10.evt.auth.user.updated');
    expect(s.logical('t2.evt.auth.user.updated')).toBe('t2.evt.auth.user.updated');
  });

  it('makes durable names with the namespace and without dots, wildcards or spaces', async () => {
    const s = new Subjects('t1');
    const name = s.durable('notifications.delegation issued.*.>');
    expect(name).toBe('t1_notifications_delegation_issued____');
    expect(name).not.toMatch(/[.*>\s]/);
  });

  it('gives different namespaces different names for the same consumer', async () => {
    expect(new Subjects('a').durable('x.y')).not.toBe(new Subjects('b').durable('x.y'));
  });

  it.each(['a.b', 'a b', 'a*', 'a>', 'ns/1', 'é', 'x'.repeat(41)])('throws on the invalid namespace %j', async (ns) => {
    expect(() => new Subjects(ns)).toThrow(/NATS_NAMESPACE/);
  });

  it('accepts a namespace of 40 characters', async () => {
    expect(new Subjects('x'.repeat(40)).eventsStream).toBe(`${'x'.repeat(40)}_EVENTS`);
  });
});

describe('subject helpers', () => {
  it('builds evt.<area>.<entity>.<verb> and job.<area>.<name>', async () => {
    expect(eventSubject('decision', 'delegation', 'issued')).toBe('evt.decision.delegation.issued');
    expect(jobSubject('decision', 'bulk-duplicate')).toBe('job.decision.bulk-duplicate');
  });

  it('names the dedup header as JetStream expects', async () => {
    expect(HEADERS.msgId).toBe('Nats-Msg-Id');
    expect(HEADERS.requestId).toBe('x-request-id');
  });
});
