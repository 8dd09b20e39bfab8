// The console's plain-words mapping, fed the messages the contract's schemas
// really produce (parsed here, not copied), so a zod upgrade that rewords them
// shows up as a failure.
import { describe, expect, it } from 'vitest';
import { zodResolver } from '@hookform/resolvers/zod';
import { campaignFormSchema } from '@/lib/contract/campaign';
import { missionSchema } from '@/lib/contract/mission';
import { plainMessage, plainResolver } from './plain-errors';

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('plainMessage', () => {
  it('words the mission schema’s own messages', () => {
    const raw = messages(missionSchema.safeParse({ id: 'a b', title: '', criteria: { eventName: 'e', count: 0, window: 'x' }, reward: { kind: 'currency', currency: 'g', amount: 1.5 }, iconUrl: 'nope' }));
    expect(plainMessage(raw['criteria.count'], 'Count')).toBe('Count must be at least 1');
    expect(plainMessage(raw['title'], 'Title')).toBe('Enter title');
    expect(plainMessage(raw['id'], 'Mission ID')).toBe('Mission ID may use only letters, digits and _ . : -');
    expect(plainMessage(raw['criteria.window'], 'Window')).toBe('Choose window');
    expect(plainMessage(raw['reward.amount'], 'Amount')).toBe('Amount must be a whole number');
    const nan = messages(missionSchema.safeParse({ id: 'a', title: 't', criteria: { eventName: 'e', count: Number.NaN }, reward: { kind: 'currency', currency: 'g', amount: 1 } }));
    expect(plainMessage(nan['criteria.count'], 'Count')).toBe('Enter a number for count');
  });

  it('words an id of "." or ".."', () => {
    for (const id of ['.', '..']) {
      const raw = messages(missionSchema.safeParse({ id, title: 't', criteria: { eventName: 'e', count: 1 }, reward: { kind: 'currency', currency: 'g', amount: 1 } }));
      expect(plainMessage(raw['id'], 'Mission ID')).toBe('Mission ID cannot be "." or ".."');
    }
  });

  it('words the campaign’s end before its start', () => {
    const raw = messages(campaignFormSchema.safeParse({ id: 'c', title: 't', startAt: 10_000, endAt: 5_000 }));
    expect(plainMessage(raw['endAt'], 'End')).toBe('The end must be after the start');
  });

  it('keeps an unknown message, without zod’s prefix', () => {
    expect(plainMessage('Invalid input: something odd', 'X')).toBe('Something odd');
  });
});

describe('plainResolver', () => {
  it('rewrites every error of a form by the field’s label, nested paths included', async () => {
    const resolver = plainResolver(zodResolver(campaignFormSchema), { endAt: 'End', title: 'Title' });
    const result = await resolver({ id: 'c', title: '', startAt: 10_000, endAt: 5_000 } as never, undefined, { fields: {}, shouldUseNativeValidation: false });
    const errors = result.errors as Record<string, { message: string }>;
    expect(errors.endAt.message).toBe('The end must be after the start');
    expect(errors.title.message).toBe('Enter title');
  });
});
