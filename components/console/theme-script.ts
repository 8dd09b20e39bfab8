// The theme choice's storage key and the inline script that applies it before
// the first paint (a plain module: the server layout imports the string).
export const THEME_STORAGE_KEY = 'questline-theme';

// It also follows the system's light or dark while the choice is "system", on
// pages without the console's ThemeProvider too (the home page, the
// walkthrough): it re-reads the choice on every change of the system's scheme.
export const THEME_SCRIPT = `(function(){var q='(prefers-color-scheme: dark)';function a(){try{var c=localStorage.getItem('${THEME_STORAGE_KEY}');var d=c==='dark'||((c===null||c==='system')&&matchMedia(q).matches);document.documentElement.classList.toggle('dark',d)}catch(e){}}a();try{matchMedia(q).addEventListener('change',a)}catch(e){}})()`;
