import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Form, FormControl, FormField, FormItem, FormLabel } from '@/components/ui/form';
import { formatEuro } from '@/lib/prices';
import { extrasCatalogueQueryOptions, useExtraName, useExtraUnitLabel } from '@/features/harbour/extras';
import { useAcceptServiceRequest, type InboxMessage } from '@/features/harbour/inbox/api/inbox';
import { acceptSchema, type AcceptInput, type AcceptValues } from '@/features/harbour/inbox/schemas/accept';
import { refusalOf } from '@/lib/refused';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** Which catalogue entry a request's service suggests. */
const suggested: Record<string, string> = { washing_machine: 'washing_machine', boat_lift: 'boat_lift', ice: 'ice_2kg' };

/**
 * An open service request taken on as an extra: staff type the booking number, choose the extra
 * and the quantity; one action adds it to that booking and marks the request done
 * (accept_service_request, which checks staff and every value again).
 */
export function AcceptRequestForm({ message }: { message: InboxMessage }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        <Trans>Als Extra übernehmen</Trans>
      </Button>
    );
  }
  return <AcceptFields message={message} />;
}

function AcceptFields({ message }: { message: InboxMessage }) {
  const { t, i18n } = useLingui();
  const nameOf = useExtraName();
  const unitLabel = useExtraUnitLabel();
  const catalogue = useQuery(extrasCatalogueQueryOptions());
  const entries = (catalogue.data ?? []).filter((e) => e.active);
  const accept = useAcceptServiceRequest();
  const form = useForm<AcceptValues, unknown, AcceptInput>({
    resolver: zodResolver(acceptSchema),
    defaultValues: { booking: '', extraId: '', quantity: '1' },
  });
  // The extra the request's service suggests, until staff choose one.
  const suggestion = entries.find((e) => e.code === suggested[message.service ?? ''])?.id ?? '';
  const formError = form.formState.errors.root?.message;
  const error =
    formError ??
    (refusalOf<'no_booking'>(accept.error) === 'no_booking'
      ? t`Keine Buchung mit dieser Nummer.`
      : accept.error
        ? staffErrorMessage(accept.error)
        : null);

  const submit = form.handleSubmit(
    (v) => accept.mutate({ messageId: message.id, bookingNumber: v.booking, extraId: v.extraId, quantity: Number(v.quantity) }),
    () => accept.reset(),
  );
  return (
    <Form {...form}>
      <form
        noValidate
        aria-label={t`Als Extra übernehmen`}
        className="mt-2 grid gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[9rem_minmax(0,1fr)_5rem_auto] sm:items-end"
        onSubmit={(e) => {
          if (!form.getValues('extraId') && suggestion) form.setValue('extraId', suggestion);
          accept.reset();
          void submit(e);
        }}
      >
        <FormField
          control={form.control}
          name="booking"
          render={({ field }) => (
            <FormItem className="gap-1 text-sm">
              <FormLabel className="font-normal">
                <Trans>Buchungsnummer</Trans>
              </FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="extraId"
          render={({ field }) => (
            <FormItem className="gap-1 text-sm">
              <FormLabel className="font-normal">
                <Trans>Extra</Trans>
              </FormLabel>
              <FormControl>
                <select
                  className="h-10 w-full rounded-md border border-slate-300 bg-white px-3"
                  {...field}
                  value={field.value || suggestion}
                >
                  <option value="">{t`Bitte wählen`}</option>
                  {entries.map((e) => (
                    <option key={e.id} value={e.id}>
                      {nameOf(e)} – {formatEuro(e.price_cents, i18n.locale)} / {unitLabel(e.unit)}
                    </option>
                  ))}
                </select>
              </FormControl>
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="quantity"
          render={({ field }) => (
            <FormItem className="gap-1 text-sm">
              <FormLabel className="font-normal">
                <Trans>Menge</Trans>
              </FormLabel>
              <FormControl>
                <Input inputMode="numeric" autoComplete="off" {...field} />
              </FormControl>
            </FormItem>
          )}
        />
        <Button type="submit" size="sm" disabled={accept.isPending}>
          <Trans>Übernehmen</Trans>
        </Button>
        {error && <FormAlert className="text-sm sm:col-span-4">{error}</FormAlert>}
      </form>
    </Form>
  );
}
