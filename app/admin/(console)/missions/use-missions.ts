'use client';

// The missions screens' server state: the filtered list, one mission, the
// app's campaigns (for names and the campaign picker) and event-name suggestions.
import { useQuery } from '@tanstack/react-query';
import { adminFetch, queryKeys } from '@/components/console/api';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { EventNameList, MissionRecord, PayloadFieldList } from '@/lib/contract/mission-admin';

export interface MissionFilters {
  campaignId: string;
  status: 'live' | 'archived' | 'all';
  eventName: string;
  window: string;
}

export const ANY = 'any';

const appPath = (appId: string) => `/api/admin/apps/${encodeURIComponent(appId)}`;

export function useMissions(appId: string | undefined, filters?: MissionFilters) {
  const params = new URLSearchParams();
  if (filters) {
    params.set('status', filters.status);
    if (filters.campaignId !== ANY) params.set('campaignId', filters.campaignId);
    if (filters.eventName !== ANY) params.set('eventName', filters.eventName);
    if (filters.window !== ANY) params.set('window', filters.window);
  }
  const query = params.toString();
  return useQuery({
    queryKey: queryKeys.missionList(appId ?? '', query),
    queryFn: () => adminFetch<{ missions: MissionRecord[] }>(`${appPath(appId!)}/missions${query ? `?${query}` : ''}`).then((r) => r.missions),
    enabled: !!appId,
    placeholderData: (previous) => previous,
  });
}

export function useMission(appId: string | undefined, id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.mission(appId ?? '', id ?? ''),
    queryFn: () => adminFetch<MissionRecord>(`${appPath(appId!)}/missions/${encodeURIComponent(id!)}`),
    enabled: !!appId && !!id,
    // Read afresh whenever a form opens; never behind the open form's back.
    refetchOnMount: 'always',
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useCampaigns(appId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.catalog(appId ?? ''),
    queryFn: () => adminFetch<CatalogDocument>(`${appPath(appId!)}/catalog`),
    enabled: !!appId,
    select: (catalog) => catalog.campaigns,
  });
}

export function useEventNames(appId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.eventNames(appId ?? ''),
    queryFn: () => adminFetch<EventNameList>(`${appPath(appId!)}/event-names`).then((r) => r.eventNames),
    enabled: !!appId,
  });
}

/** The payload fields (with example values) the app's recent events of this name carried: the filter rows' suggestions. */
export function usePayloadFields(appId: string | undefined, eventName: string) {
  const name = eventName.trim();
  return useQuery({
    queryKey: queryKeys.payloadFields(appId ?? '', name),
    queryFn: () => adminFetch<PayloadFieldList>(`${appPath(appId!)}/event-payload-fields?name=${encodeURIComponent(name)}`).then((r) => r.fields),
    enabled: !!appId && name !== '',
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

