// While an entity is new and its id untouched, the id follows its title or
// name as a slug ("Summer Sale!" → "summer-sale"); once the id is typed in,
// it is the author's. An entity saved already keeps its id: the field is
// read-only (focusable and copyable, unlike a disabled one).
import * as React from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { slugOf } from '@/lib/console/slug';

/**
 * Props for the name field and the id field (`<TextFormField {...nameProps}>`).
 * `open`: for a dialog kept mounted, each opening starts over.
 */
export function useIdFollowsName<TValues extends FieldValues & { id: string }, TOut>(form: UseFormReturn<TValues, unknown, TOut>, editing: boolean, open = true) {
  const idTouched = React.useRef(editing);
  React.useEffect(() => {
    if (open) idTouched.current = editing;
  }, [open, editing]);

  return {
    nameProps: {
      onValueChange: (name: string) => {
        // Validated once a save was tried, so the id's error follows the name too.
        if (!idTouched.current) form.setValue('id' as Path<TValues>, slugOf(name) as PathValue<TValues, Path<TValues>>, { shouldValidate: form.formState.isSubmitted });
      },
    },
    idProps: {
      readOnly: editing,
      onValueChange: () => {
        idTouched.current = true;
      },
    },
  };
}
