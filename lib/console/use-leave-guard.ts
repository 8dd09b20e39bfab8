'use client';

// Leaving a form with unsaved changes asks first: a browser reload or close
// (beforeunload: the browser's own question), a click on an in-app link
// (window.confirm before the router moves; the click is dropped when the
// answer is no), and whatever the form calls confirmDiscard for (a dialog's
// Cancel, Escape or close button).
import * as React from 'react';

const LEAVE_QUESTION = 'You have unsaved changes. Leave without saving them?';

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
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [dirty]);
}
