'use client';

// Light, dark or the system's preference, kept in localStorage. THEME_SCRIPT
// (in the root layout's <head>) applies it before the first paint; this
// provider keeps React in step and follows the system while set to "system".
import * as React from 'react';

import { localStorageValue } from './browser-store';
import { THEME_STORAGE_KEY } from './theme-script';

export type ThemeChoice = 'light' | 'dark' | 'system';

interface ThemeState {
  choice: ThemeChoice;
  resolved: 'light' | 'dark';
  setChoice(choice: ThemeChoice): void;
}

const ThemeContext = React.createContext<ThemeState>({ choice: 'system', resolved: 'light', setChoice: () => undefined });

const storedChoice = localStorageValue<ThemeChoice>(THEME_STORAGE_KEY, (stored) => (stored === 'light' || stored === 'dark' ? stored : 'system'), 'system');

const DARK_QUERY = '(prefers-color-scheme: dark)';
const prefersDark = () => window.matchMedia(DARK_QUERY).matches;
function onSystemChange(listener: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

export function ThemeProvider({ children }: { children: React.ReactNode }) {
  const choice = storedChoice.useValue();
  const systemDark = React.useSyncExternalStore(onSystemChange, prefersDark, () => false);

  const resolved = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  React.useEffect(() => {
    document.documentElement.classList.toggle('dark', resolved === 'dark');
  }, [resolved]);

  // Private mode without storage: the choice lasts for this page only.
  const setChoice = storedChoice.set;

  const value = React.useMemo(() => ({ choice, resolved, setChoice }), [choice, resolved, setChoice]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  return React.useContext(ThemeContext);
}
