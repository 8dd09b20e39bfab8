// The theme choice's storage key and the inline script that applies it before
// the first paint (a plain module: the server layout imports the string).
export const THEME_STORAGE_KEY = 'questline-theme';

export const THEME_SCRIPT = `(function(){try{var c=localStorage.getItem('${THEME_STORAGE_KEY}');var d=c==='dark'||((c===null||c==='system')&&matchMedia('(prefers-color-scheme: dark)').matches);document.documentElement.classList.toggle('dark',d)}catch(e){}})()`;
