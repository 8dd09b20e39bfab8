// The names rewards are shown under: the app's defined currencies, items and
// badges (the draft's sections, else the live list); an id the app does not
// define keeps its id (rewardLabel).
import * as React from 'react';
import { useEconomyOptions } from '@/components/console/economy-picker';
import type { RewardNames } from './labels';

export function useRewardNames(appId: string | undefined): RewardNames {
  const { options } = useEconomyOptions(appId);
  return React.useMemo(() => new Map((options ?? []).filter((o) => !o.implied).map((o) => [`${o.kind}:${o.id}`, o.name])), [options]);
}
