import { createContext, useContext, useId, type ComponentProps, type ComponentType } from 'react';
import {
  Controller,
  FormProvider,
  useFormContext,
  useFormState,
  type ControllerProps,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';
import { Slot } from 'radix-ui';
import type { JoinClasses } from '@/components/ui/label-base';

/**
 * shadcn's form parts over react-hook-form: Form, FormField, FormItem, FormLabel, FormControl,
 * FormMessage. The parts with classes come from `formWith`, with the class joining and the label
 * given (form.tsx: `cn` and ui/label; see label-base.tsx).
 */
export const Form = FormProvider;

const FieldContext = createContext<{ name: string }>({ name: '' });
const ItemContext = createContext<{ id: string }>({ id: '' });

export function FormField<TValues extends FieldValues, TName extends FieldPath<TValues>>(props: ControllerProps<TValues, TName>) {
  return (
    <FieldContext.Provider value={{ name: props.name }}>
      <Controller {...props} />
    </FieldContext.Provider>
  );
}

function useFormField() {
  const field = useContext(FieldContext);
  const { id } = useContext(ItemContext);
  const { getFieldState } = useFormContext();
  const formState = useFormState({ name: field.name });
  const state = getFieldState(field.name, formState);
  return { id, name: field.name, itemId: `${id}-item`, descriptionId: `${id}-description`, messageId: `${id}-message`, ...state };
}

export function FormControl(props: ComponentProps<typeof Slot.Root>) {
  const { error, itemId, descriptionId, messageId } = useFormField();
  return (
    <Slot.Root id={itemId} aria-describedby={error ? `${descriptionId} ${messageId}` : descriptionId} aria-invalid={!!error} {...props} />
  );
}

type LabelProps = ComponentProps<'label'> & { 'data-error'?: boolean };

export function formWith<P extends LabelProps>(join: JoinClasses, Label: ComponentType<P>) {
  function FormItem({ className, ...props }: ComponentProps<'div'>) {
    const id = useId();
    return (
      <ItemContext.Provider value={{ id }}>
        <div className={join('grid gap-2', className)} {...props} />
      </ItemContext.Provider>
    );
  }

  // The error colour is a data-error variant (as in shadcn), not a class replacing the label's
  // own colour: so joining without tailwind-merge gives the same label.
  function FormLabel({ className, ...props }: P) {
    const { error, itemId } = useFormField();
    return <Label {...(props as P)} className={join('data-[error=true]:text-red-700', className)} data-error={!!error} htmlFor={itemId} />;
  }

  function FormDescription({ className, ...props }: ComponentProps<'p'>) {
    const { descriptionId } = useFormField();
    return <p id={descriptionId} className={join('text-sm text-slate-600', className)} {...props} />;
  }

  function FormMessage({ className, ...props }: ComponentProps<'p'>) {
    const { error, messageId } = useFormField();
    const body = error ? String(error.message ?? '') : props.children;
    if (!body) return null;
    return (
      <p id={messageId} role="alert" className={join('text-sm text-red-700', className)} {...props}>
        {body}
      </p>
    );
  }

  return { FormItem, FormLabel, FormDescription, FormMessage };
}
