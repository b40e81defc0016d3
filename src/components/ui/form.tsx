import { createContext, useContext, useId, type ComponentProps } from 'react';
import { Controller, FormProvider, useFormContext, useFormState, type ControllerProps, type FieldPath, type FieldValues } from 'react-hook-form';
import { Slot } from 'radix-ui';
import { cn } from '@/lib/utils';
import { Label } from './label';

/** shadcn's form parts over react-hook-form: Form, FormField, FormItem, FormLabel, FormControl, FormMessage. */
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

export function FormItem({ className, ...props }: ComponentProps<'div'>) {
  const id = useId();
  return (
    <ItemContext.Provider value={{ id }}>
      <div className={cn('grid gap-2', className)} {...props} />
    </ItemContext.Provider>
  );
}

export function FormLabel({ className, ...props }: ComponentProps<typeof Label>) {
  const { error, itemId } = useFormField();
  return <Label className={cn(error && 'text-red-700', className)} htmlFor={itemId} {...props} />;
}

export function FormControl(props: ComponentProps<typeof Slot.Root>) {
  const { error, itemId, descriptionId, messageId } = useFormField();
  return (
    <Slot.Root
      id={itemId}
      aria-describedby={error ? `${descriptionId} ${messageId}` : descriptionId}
      aria-invalid={!!error}
      {...props}
    />
  );
}

export function FormDescription({ className, ...props }: ComponentProps<'p'>) {
  const { descriptionId } = useFormField();
  return <p id={descriptionId} className={cn('text-sm text-slate-600', className)} {...props} />;
}

export function FormMessage({ className, ...props }: ComponentProps<'p'>) {
  const { error, messageId } = useFormField();
  const body = error ? String(error.message ?? '') : props.children;
  if (!body) return null;
  return (
    <p id={messageId} role="alert" className={cn('text-sm text-red-700', className)} {...props}>
      {body}
    </p>
  );
}
