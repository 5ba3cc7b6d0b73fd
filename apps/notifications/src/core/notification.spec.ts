import { toNotificationView } from './notification.response';
import { relativeTime } from './notification.rules';

describe('a notification as every resource shows it', () => {
  it('relativeTime: just now under a minute, then the largest whole unit', () => {
    const now = new Date('2026-01-10T00:00:00.000Z');
    const ago = (s: number) => relativeTime(new Date(now.getTime() - s * 1000), now);
    expect(ago(0)).toBe('just now');
    expect(ago(59)).toBe('just now');
    expect(ago(60)).toBe('1 minute ago');
    expect(ago(5 * 60 + 30)).toBe('5 minutes ago');
    expect(ago(3600)).toBe('1 hour ago');
    expect(ago(2 * 24 * 3600)).toBe('2 days ago');
    expect(ago(8 * 24 * 3600)).toBe('1 week ago');
    expect(ago(65 * 24 * 3600)).toBe('2 months ago');
    expect(ago(800 * 24 * 3600)).toBe('2 years ago');
    expect(relativeTime(new Date(now.getTime() + 5000), now)).toBe('just now'); // clock skew: never "in the future"
  });

  it('the view computes relativeTime when answered and keeps every §2.14 field', () => {
    const view = toNotificationView(
      't',
      {
        id: 'n',
        templateKey: 'DELEGATION_ISSUED',
        category: 'DELEGATION',
        title: 'T',
        message: 'M',
        isActionable: false,
        status: 'UNREAD',
        createdAt: '2026-01-01T00:00:00.000Z',
        userId: 'u',
        entityType: null,
        entityId: null,
        readAt: null,
        actionUrl: null,
        payload: null,
      },
      new Date('2026-01-01T00:05:00.000Z'),
    );
    expect(view.relativeTime).toBe('5 minutes ago');
    expect(Object.keys(view).length).toBe(16);
  });
});
