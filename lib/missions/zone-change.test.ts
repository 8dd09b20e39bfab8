// Issue 37 §2 in the pure engine: a zone change never moves a window already
// begun (docs/api.md, "What a zone change does"). Properties over random
// walks through zones at random times: a recurring mission's claimed windows
// never overlap and their calendar periods strictly increase, so no walk
// yields more than one claim per period (a day, a week, a month) of real
// time; a slow walk (one zone an hour, the windows that would end soonest)
// farms nothing either.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { missionSchema } from '@/lib/contract/mission';
import { explainEvent, toMissionProgress } from './engine';
import type { EngineEvent, Mission, MissionWindow, ProgressRecord } from './schema';
import { nextPeriodStart, nextWindowStart, windowStart } from './windows';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Etc/GMT-12', 'Pacific/Chatham', 'Asia/Kathmandu', 'Europe/London', 'Europe/Athens', 'America/New_York', 'America/St_Johns', 'Pacific/Marquesas', 'Australia/Lord_Howe', 'Pacific/Honolulu', 'Asia/Tokyo'];

function mission(window: MissionWindow, streak?: { length: number; repeat?: boolean }): Mission {
  return missionSchema.parse({
    id: 'm',
    title: 'M',
    criteria: { eventName: 'login', count: 1, window, ...(streak ? { streak } : {}) },
    reward: { kind: 'currency', currency: 'coins', amount: 100 },
  });
}

const event = (timestamp: number): EngineEvent => ({ userId: 'u', name: 'login', payload: {}, timestamp });

/** The wall date (as a UTC day number) of an instant in a zone: the calendar period's label. */
function wallDay(zone: string, t: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day')) / DAY;
}

/** A player claiming at once every cycle the engine lets them complete, at `steps` of (zone, time). */
function farm(m: Mission, steps: Array<{ zone: string; t: number }>) {
  let record: ProgressRecord | null = null;
  const claimed: Array<{ zone: string; start: number; end: number; label: number; at: number }> = [];
  for (const { zone, t } of steps) {
    const { evaluation } = explainEvent({ mission: m, campaign: null, record, event: event(t), lock: null, now: t, zone });
    if (!evaluation) continue;
    record = evaluation.record;
    if (record.status === 'completed') {
      record = { ...record, status: 'claimed' };
      const wz = record.state?.zone ?? 'UTC';
      const start = windowStart(m.criteria.window, record.windowStart, wz);
      claimed.push({ zone: wz, start, end: nextWindowStart(m.criteria.window, start, wz), label: wallDay(wz, start), at: t });
    }
  }
  return claimed;
}

describe('random zone walks', () => {
  const walk = fc
    .array(fc.record({ zone: fc.constantFrom(...ZONES), step: fc.integer({ min: 1, max: 30 * 60 }) }), { minLength: 1, maxLength: 120 })
    .map((steps) => {
      let t = Date.UTC(2031, 0, 14, 9, 50);
      return steps.map(({ zone, step }) => ({ zone, t: (t += step * 60_000) }));
    });

  it.each(['daily', 'weekly', 'monthly'] as const)('%s: claimed windows never overlap, their periods strictly increase, at most one claim per period of real time', (window) => {
    const m = mission(window);
    fc.assert(
      fc.property(walk, (steps) => {
        const claimed = farm(m, steps);
        for (let i = 1; i < claimed.length; i += 1) {
          // The next cycle starts only once the claimed window has ended in absolute time…
          expect(claimed[i].at).toBeGreaterThanOrEqual(claimed[i - 1].end);
          // …in a later calendar period, whatever the zones.
          expect(claimed[i].label).toBeGreaterThan(claimed[i - 1].label);
        }
        // Periods spanned by the walk in real time (the local date is within a day of the UTC one).
        const span = steps[steps.length - 1].t - steps[0].t;
        const period = window === 'daily' ? DAY : window === 'weekly' ? 7 * DAY : 28 * DAY;
        expect(claimed.length).toBeLessThanOrEqual(Math.floor(span / period) + 3);
      }),
      { numRuns: 150 },
    );
  });

  it('a slow walk, one zone an hour (each step to the zone whose window would end soonest), gains nothing', () => {
    const m = mission('daily');
    // From Kiritimati (UTC+14) west, an hour at a time, for 26 hours.
    const zones = ['Pacific/Kiritimati', 'Etc/GMT-13', 'Etc/GMT-12', 'Etc/GMT-11', 'Etc/GMT-10', 'Etc/GMT-9', 'Etc/GMT-8', 'Etc/GMT-7', 'Etc/GMT-6', 'Etc/GMT-5', 'Etc/GMT-4', 'Etc/GMT-3', 'Etc/GMT-2', 'Etc/GMT-1', 'UTC', 'Etc/GMT+1', 'Etc/GMT+2', 'Etc/GMT+3', 'Etc/GMT+4', 'Etc/GMT+5', 'Etc/GMT+6', 'Etc/GMT+7', 'Etc/GMT+8', 'Etc/GMT+9', 'Etc/GMT+10', 'Etc/GMT+11', 'Etc/GMT+12'];
    const start = Date.UTC(2031, 0, 14, 9, 30); // 23:30 in Kiritimati
    const steps = zones.flatMap((zone, i) => [0, 40].map((minutes) => ({ zone, t: start + i * HOUR + minutes * 60_000 })));
    expect(farm(m, steps).length).toBeLessThanOrEqual(2);
  });
});

describe('nextPeriodStart', () => {
  it('is the start, in the new zone, of the period after the record’s', () => {
    const londonDay = Date.UTC(2031, 0, 14); // 14 Jan, London (UTC+0)
    expect(nextPeriodStart('daily', londonDay, 'Europe/London', 'Europe/Athens')).toBe(Date.UTC(2031, 0, 14, 22)); // 15 Jan in Athens
    expect(nextPeriodStart('daily', londonDay, 'Europe/London', 'America/New_York')).toBe(Date.UTC(2031, 0, 15, 5));
    expect(nextPeriodStart('weekly', londonDay, 'Europe/London', 'UTC')).toBe(Date.UTC(2031, 0, 20));
    expect(nextPeriodStart('monthly', londonDay, 'Europe/London', 'Asia/Tokyo')).toBe(Date.UTC(2031, 0, 31, 15));
    expect(nextPeriodStart('daily', londonDay, 'UTC', 'UTC')).toBe(Date.UTC(2031, 0, 15));
    expect(nextPeriodStart('lifetime', londonDay, 'UTC', 'Asia/Tokyo')).toBe(Infinity);
  });
});

describe('a streak across a zone change', () => {
  it('goes on when the new window is the day after the last one met, and breaks after a skipped day', () => {
    const m = mission('daily', { length: 5 });
    const run = (steps: Array<{ zone: string; t: number }>) => {
      let record: ProgressRecord | null = null;
      for (const { zone, t } of steps) {
        const { evaluation } = explainEvent({ mission: m, campaign: null, record, event: event(t), lock: null, now: t, zone });
        if (evaluation) record = evaluation.record;
      }
      return record;
    };
    // 14 Jan met in London; 15 Jan in Tokyo (from 15:00 UTC on the 14th, but not before London's midnight).
    const london = { zone: 'Europe/London', t: Date.UTC(2031, 0, 14, 12) };
    const tokyo15 = { zone: 'Asia/Tokyo', t: Date.UTC(2031, 0, 15, 1) };
    const r = run([london, tokyo15]);
    expect(toMissionProgress({ mission: m, record: r, locked: false, now: tokyo15.t, zone: 'Asia/Tokyo' })?.streak).toEqual({ current: 2, length: 5 });
    // Tokyo's 16th (from 15:00 UTC on the 15th) follows; Tokyo's 17th read on the 18th there: broken.
    expect(toMissionProgress({ mission: m, record: r, locked: false, now: Date.UTC(2031, 0, 15, 16), zone: 'Asia/Tokyo' })?.streak).toEqual({ current: 2, length: 5 });
    expect(toMissionProgress({ mission: m, record: r, locked: false, now: Date.UTC(2031, 0, 16, 16), zone: 'Asia/Tokyo' })?.streak).toEqual({ current: 0, length: 5 });
    // London's 14th, then New York's 16th: the 15th was skipped.
    const skipped = run([london, { zone: 'America/New_York', t: Date.UTC(2031, 0, 16, 12) }]);
    expect(skipped?.state?.streak?.current).toBe(1);
  });
});

describe('a window a zone change began inside its bucket', () => {
  it('never counts a late event from before the old window ended, even after its first event was stored', () => {
    // Daily, 2 events: claimed in Pago Pago (its 27th: 27th 11:00 → 28th 11:00 UTC), then the zone is Kiritimati.
    const m = missionSchema.parse({ id: 'm', title: 'M', criteria: { eventName: 'login', count: 2, window: 'daily' }, reward: { kind: 'currency', currency: 'coins', amount: 100 } });
    const pago = 'Pacific/Pago_Pago';
    const kiri = 'Pacific/Kiritimati';
    const oldStart = windowStart('daily', Date.UTC(2031, 0, 27, 12), pago);
    const oldEnd = nextWindowStart('daily', oldStart, pago);
    expect(oldEnd).toBe(Date.UTC(2031, 0, 28, 11));
    const claimed: ProgressRecord = { userId: 'u', missionId: 'm', status: 'claimed', currentCount: 2, targetCount: 2, windowStart: oldStart, cycle: 1, updatedAt: oldStart, state: { zone: pago } } as ProgressRecord;
    const late = event(Date.UTC(2031, 0, 28, 10, 30)); // inside the old window: never the new one's
    const at = (now: number, record: ProgressRecord, e: EngineEvent) => explainEvent({ mission: m, campaign: null, record, event: e, lock: null, now, zone: kiri });
    const sentAt = Date.UTC(2031, 0, 28, 11, 5);
    expect(at(sentAt, claimed, late).evaluation).toBeNull();
    const first = at(sentAt, claimed, event(sentAt)).evaluation!;
    expect(first.record).toMatchObject({ cycle: 2, currentCount: 1, status: 'active' });
    // The new window's record is stored; the same late event, resent a minute later, is still not in it.
    const again = at(sentAt + 60_000, first.record, late);
    expect(again.evaluation).toBeNull();
    expect(at(sentAt + 120_000, first.record, event(sentAt + 120_000)).evaluation!.record.status).toBe('completed');
  });
});
