'use client';

// The mission form's aggregate and streak builder (issue 19): count events,
// sum a payload field or count its distinct values; optionally a streak of
// consecutive daily or weekly windows. The contract's missionSchema validates
// what it builds (lib/console/mission-aggregate-form.ts turns it into
// criteria.aggregate and criteria.streak).
import * as React from 'react';
import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import { NumberFormField, SelectFormField, TextFormField } from '@/components/ui/form-fields';
import type { Mission } from '@/lib/contract/mission';
import type { MissionFormValues } from '@/lib/console/mission-form';
import { streakLengthLabel } from '@/lib/missions/describe-mission';

const OPS = [
  { value: 'count', label: 'Count events' },
  { value: 'sum', label: 'Sum of a payload field' },
  { value: 'distinct', label: 'Distinct values of a field' },
];

const OP_HINTS: Record<string, string> = {
  count: 'Each matching event adds 1.',
  sum: 'Each matching event adds the field’s value (missing, non-numeric or negative values add nothing; fractions count to the millionth).',
  distinct: 'Each different value of the field adds 1 per window (at most 1000).',
};

type CriteriaErrors = FieldErrors<MissionFormValues>['criteria'] & { streak?: { message?: string; length?: { message?: string } } };

export function AggregateStreakFields({ form }: { form: UseFormReturn<MissionFormValues, unknown, Mission> }) {
  const values = form.watch('criteria');
  const op = values?.aggregate?.op ?? 'count';
  const streakOn = values?.aggregate?.streak ?? false;
  const window = values?.window ?? 'lifetime';
  const errors = form.formState.errors.criteria as CriteriaErrors | undefined;
  const streakError = errors?.streak?.length?.message ?? errors?.streak?.message;
  // The streak's error is the schema's (no field of its own revalidates it): a changed window, length or switch clears it until the next save.
  const length = values?.aggregate?.length;
  const { clearErrors } = form;
  React.useEffect(() => {
    clearErrors('criteria.streak' as never);
  }, [window, length, streakOn, clearErrors]);

  return (
    <fieldset className="grid gap-3" aria-label="What counts and streak">
      <legend className="mb-1 text-sm font-medium">What counts</legend>
      <div className="grid gap-5 sm:grid-cols-[16rem_minmax(0,1fr)]">
        <SelectFormField control={form.control} name="criteria.aggregate.op" label="Measure" description={OP_HINTS[op]} options={OPS} />
        {op !== 'count' && (
          <TextFormField
            control={form.control}
            name="criteria.aggregate.field"
            label="Payload field"
            description="Dot path into the event’s payload, as in filters."
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            placeholder={op === 'sum' ? 'gold' : 'mode'}
          />
        )}
      </div>
      <div className="grid gap-3 rounded-lg border bg-muted/30 p-3">
        <label className="flex cursor-pointer items-center gap-2 text-sm font-medium">
          <input type="checkbox" className="size-4 accent-(--color-primary)" {...form.register('criteria.aggregate.streak')} />
          Streak: the target must be met in consecutive windows
        </label>
        {streakOn && (
          <div className="grid items-start gap-5 sm:grid-cols-[10rem_minmax(0,1fr)]">
            <NumberFormField
              control={form.control}
              name="criteria.aggregate.length"
              label={streakLengthLabel(window)}
              description="2 to 365"
            />
            <div className="grid gap-2 sm:pt-7">
              <label className="flex cursor-pointer items-center gap-2 text-sm">
                <input type="checkbox" className="size-4 accent-(--color-primary)" {...form.register('criteria.aggregate.repeat')} />
                Repeat: after the claim, the streak starts again
              </label>
              <p className="text-[13px] text-muted-foreground">
                {window === 'daily' || window === 'weekly'
                  ? `A ${window === 'daily' ? 'day' : 'week'} that ends without meeting the target starts the streak again.`
                  : 'A streak needs a daily or weekly window.'}
              </p>
            </div>
          </div>
        )}
        {streakOn && streakError && (
          <p role="alert" className="text-[13px] font-medium text-destructive">
            Streak: {streakError.replace(/^Invalid input: /, '')}
          </p>
        )}
      </div>
    </fieldset>
  );
}
