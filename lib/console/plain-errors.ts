// The contract's validation messages (zod's, and the schemas' own) in the words
// of a live-ops person: "Count must be at least 1", "The end must be after the
// start". One mapping for every console form: plainMessage turns one message
// for a field (named by its label) into a sentence, plainResolver applies it
// to every error a form's resolver gives. A message it does not know is kept,
// without zod's "Invalid input: " prefix.
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Rules in order: the first whose pattern matches words the message. */
const RULES: Array<[RegExp, (label: string, m: RegExpExecArray) => string]> = [
  [/^Too small: expected string to have >=1 characters?$/, (l) => `Enter ${l.toLowerCase()}`],
  [/^Too small: expected string to have >=(\d+) characters$/, (l, m) => `${upper(l)} must be at least ${m[1]} characters`],
  [/^Too big: expected string to have <=(\d+) characters$/, (l, m) => `${upper(l)} must be at most ${m[1]} characters`],
  [/^Too small: expected number to be >=(-?[\d.]+)$/, (l, m) => `${upper(l)} must be at least ${m[1]}`],
  // Counts and amounts are whole numbers: "> 0" reads as "at least 1".
  [/^Too small: expected number to be >0$/, (l) => `${upper(l)} must be at least 1`],
  [/^Too small: expected number to be >(-?[\d.]+)$/, (l, m) => `${upper(l)} must be more than ${m[1]}`],
  [/^Too big: expected number to be <=(-?[\d.]+)$/, (l, m) => `${upper(l)} must be at most ${m[1]}`],
  [/^Too big: expected number to be <(-?[\d.]+)$/, (l, m) => `${upper(l)} must be less than ${m[1]}`],
  [/^Too small: expected array to have >=1 items?$/, (l) => `Add at least one ${l.toLowerCase()}`],
  [/^Too big: expected array to have <=(\d+) items$/, (l, m) => `${upper(l)}: at most ${m[1]}`],
  [/^Invalid input: expected int, received number$/, (l) => `${upper(l)} must be a whole number`],
  [/^Invalid input: expected number, received (NaN|undefined|null|string)$/, (l) => `Enter a number for ${l.toLowerCase()}`],
  [/^Invalid input: expected (string|nonoptional), received (undefined|null)$/, (l) => `Enter ${l.toLowerCase()}`],
  [/^Invalid option: expected one of .*$/, (l) => `Choose ${l.toLowerCase()}`],
  [/^Invalid (URL|url)$/, (l) => `${upper(l)} must be a web address (https://…)`],
  [/^letters, digits and _ \. : - only$/, (l) => `${upper(l)} may use only letters, digits and _ . : -`],
  [/^not "\." or "\.\." \(.*\)$/, (l) => `${upper(l)} cannot be "." or ".."`],
  [/^must be after startAt$/, () => 'The end must be after the start'],
  [/^must be a CSS colour: .*$/, (l) => `${upper(l)} is not a colour: use #rrggbb, rgb(…), hsl(…) or a colour name`],
  [/^give a theme preset \(themeId\) or an own theme, not both$/, () => 'Choose a theme preset or set colours, not both'],
  [/^"(.+)" has a budget already$/, (_l, m) => `${m[1]} has a budget already`],
];

/** One validation message for the field called `label`, in plain words. */
export function plainMessage(message: string, label: string): string {
  for (const [pattern, word] of RULES) {
    const m = pattern.exec(message);
    if (m) return word(label, m);
  }
  return upper(message.replace(/^Invalid input: /, ''));
}

/** A field's label from its path: the form's own label when given, else the last path segment in words. */
function labelOf(path: string, labels: Record<string, string>): string {
  const generic = path.replace(/\.\d+(?=\.|$)/g, '.*');
  if (labels[path] ?? labels[generic]) return (labels[path] ?? labels[generic])!;
  const last = path.split('.').filter((p) => !/^\d+$/.test(p)).pop() ?? 'this field';
  return last.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ').toLowerCase();
}

function rewrite(errors: Record<string, unknown>, prefix: string, labels: Record<string, string>): void {
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object' || key === 'ref' || key === 'types') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const error = value as { message?: unknown; type?: unknown; ref?: unknown };
    if (typeof error.message === 'string' && typeof error.type === 'string') error.message = plainMessage(error.message, labelOf(path, labels));
    rewrite(value as Record<string, unknown>, path, labels);
  }
}

/**
 * The form's resolver with every error message in plain words; `labels` names fields by path
 * (`budget.*.amount` for rows), or is read from the values when a field's label changes with them
 * (the mission's target reads Count, Total or Different values), so a message names the field the user sees.
 */
export function plainResolver<T extends FieldValues, C, O>(resolver: Resolver<T, C, O>, labels: Record<string, string> | ((values: T) => Record<string, string>) = {}): Resolver<T, C, O> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    const named = typeof labels === 'function' ? labels(values) : labels;
    if (result.errors && Object.keys(result.errors).length > 0) rewrite(result.errors as FieldErrors as Record<string, unknown>, '', named);
    return result;
  };
}

/** After a refused save: the first field marked invalid is scrolled into view and focused. */
export function revealFirstError(form: HTMLElement | null, frames = 10): void {
  // After React has rendered the errors (aria-invalid is set by the render): a few frames at most.
  requestAnimationFrame(() => {
    // The first invalid element that takes focus (a group marked invalid hands it to its first control).
    const marked = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const first = marked?.matches('input, select, textarea, button, [tabindex]') ? marked : (marked?.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]') ?? marked);
    if (!first) {
      if (frames > 0) revealFirstError(form, frames - 1);
      return;
    }
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
  });
}
