'use client';

import { BoxIcon } from 'lucide-react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useSelectedApp } from './use-selected-app';

/** Picks the app the per-app screens show; the choice goes into the URL (?app=) and is remembered. */
export function AppSwitcher() {
  const { apps, app, isLoading, selectApp } = useSelectedApp();
  if (isLoading) return <Skeleton className="h-9 w-full" />;
  if (!apps || apps.length === 0) return <p className="px-1 text-xs text-muted-foreground">No app yet</p>;
  return (
    <Select value={app?.id} onValueChange={selectApp}>
      <SelectTrigger aria-label="Selected app" className="h-9 bg-background">
        <span className="flex min-w-0 items-center gap-2">
          <BoxIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <SelectValue placeholder="Choose an app" />
        </span>
      </SelectTrigger>
      <SelectContent>
        {apps.map((a) => (
          <SelectItem key={a.id} value={a.id}>
            <span className="font-medium">{a.name}</span>
            <span className="ml-2 font-mono text-xs text-muted-foreground">{a.id}</span>
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
