'use client';

// Light, dark or the system's preference, kept in localStorage. THEME_SCRIPT
// (in the root layout's <head>) applies it before the first paint; this
// provider keeps React in step and follows the system while set to "system".
import * as React from 'react';

import { THEME_STORAGE_KEY } from './theme-script';

export type ThemeChoice = 'light' | 'dark' | 'system';

interface ThemeState {
  choice: ThemeChoice;
  resolved: 'light' | 'dark';
  setChoice(choice: ThemeChoice): void;
}

const ThemeContext = React.createContext<ThemeState>({ choice: 'system', resolved: 'light', setChoice: () => undefined });

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

const prefersDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

export function ThemeProvider({ children }: { children: React.ReactNode }) {
  const [choice, setChoiceState] = React.useState<ThemeChoice>('system');
  const [systemDark, setSystemDark] = React.useState(false);

  React.useEffect(() => {
    setChoiceState(readChoice());
    setSystemDark(prefersDark());
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setSystemDark(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);

  const resolved = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  React.useEffect(() => {
    document.documentElement.classList.toggle('dark', resolved === 'dark');
  }, [resolved]);

  const setChoice = React.useCallback((next: ThemeChoice) => {
    setChoiceState(next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
  }, []);

  const value = React.useMemo(() => ({ choice, resolved, setChoice }), [choice, resolved, setChoice]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  return React.useContext(ThemeContext);
}
