'use client';

// Leaving a form with unsaved changes asks first: a browser reload or close
// (beforeunload: the browser's own question), a click on an in-app link
// (window.confirm before the router moves; the click is dropped when the
// answer is no), the browser's Back button, and whatever the form calls
// confirmDiscard for (a dialog's Cancel, Escape or close button).
//
// Back: while the form is dirty, one more history entry of the same URL (a
// copy of the router's state, marked) sits on top, so Back first lands on the
// form's own entry (the router restores the same page) and the question is
// asked there: yes goes back once more, no puts the marked entry back. Once
// the form is clean again the marked entry loses its mark but stays (a
// history entry cannot be removed, and going back for it could race a
// navigation the save starts): Back then passes one entry of the same page.
import * as React from 'react';

const LEAVE_QUESTION = 'You have unsaved changes. Leave without saving them?';
/** The mark of the history entry Back lands on first while a form is dirty. */
const GUARD_MARK = '__questlineLeaveGuard';

/** Asks when `dirty`; true when there is nothing to lose or the person chose to leave. */
export function confirmDiscard(dirty: boolean): boolean {
  return !dirty || window.confirm(LEAVE_QUESTION);
}

export function useLeaveGuard(dirty: boolean): void {
  React.useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers ask only when returnValue is set.
      e.returnValue = '';
    };
    const click = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.hasAttribute('download')) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      if (window.confirm(LEAVE_QUESTION)) return;
      // Captured on the document, before React's (and so the router's) handler.
      e.preventDefault();
      e.stopPropagation();
    };
    const guarded = (state: unknown) => typeof state === 'object' && state !== null && (state as Record<string, unknown>)[GUARD_MARK] === true;
    const mark = () => window.history.pushState({ ...(window.history.state as object | null), [GUARD_MARK]: true }, '', window.location.href);
    let leaving = false;
    const popstate = (e: PopStateEvent) => {
      // Forward onto the marked entry, or our own second step back: nothing to ask.
      if (leaving || guarded(e.state)) return;
      if (window.confirm(LEAVE_QUESTION)) {
        leaving = true;
        window.history.back();
      } else mark();
    };
    if (!guarded(window.history.state)) mark();
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('popstate', popstate);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('popstate', popstate);
      document.removeEventListener('click', click, true);
      if (guarded(window.history.state)) {
        const { [GUARD_MARK]: _mark, ...state } = window.history.state as Record<string, unknown>;
        window.history.replaceState(state, '', window.location.href);
      }
    };
  }, [dirty]);
}
