import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { FactList, Section } from '@/components/page';
import { PriceBreakdown } from '@/components/price-breakdown';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { formatBerlinDateTime } from '@/lib/dates';
import { formatSize } from '@/lib/numbers';

import { isBerthTaken, useCreateBooking } from '@/features/booking/api/create-booking';
import { paymentTermsQueryOptions, type PaymentTerms } from '@/features/booking/api/payment-terms';
import { quoteQueryOptions } from '@/features/booking/api/quote-booking';
import type { PlaceResult } from '@/features/booking/api/types';
import { updateFlow } from '@/features/booking/hooks/use-booking-flow';
import { parseDecimal, type BerthDataValues } from '@/features/booking/schemas/berth-values';
import { personSchema, storedPersonFields, type PersonValues } from '@/features/booking/schemas/person';
import { storePerson } from '@/features/booking/components/person-draft';
import { CancellationPolicyNote } from '@/features/booking/components/cancellation-policy-note';
import { errorMessage } from '@/lib/errors/guest-messages';
import { FormAlert } from '@/components/form-alert';

/**
 * Step 5, summary: person form, boat, berth, dates, the price from quote_booking, a sale code,
 * the terms, confirm. A berth taken meanwhile sends the person back to step 2 with fresh results.
 */
export function StepSummary({
  berth,
  place,
  initial,
  emailLocked,
  loggedIn,
  onBooked,
  onBerthTaken,
}: {
  berth: BerthDataValues;
  place: PlaceResult;
  initial: PersonValues;
  emailLocked: boolean;
  loggedIn: boolean;
  onBooked: (order: { id: string } & Record<string, unknown>) => void;
  onBerthTaken: () => void;
}) {
  const { t, i18n } = useLingui();
  const [lastApplied, setAppliedCode] = useState(initial.saleCode);
  const create = useCreateBooking();
  const form = useForm<PersonValues>({ resolver: zodResolver(personSchema), defaultValues: initial });

  // Keep what is typed across a reload (session storage, with the rest of the flow).
  const typed = useWatch({ control: form.control });
  useEffect(() => {
    updateFlow({ person: Object.fromEntries(storedPersonFields.map((k) => [k, typed[k] ?? ''])) });
  }, [typed]);

  // A cleared field takes the applied code away (price without it, no message about it); a code
  // typed over the applied one is judged when it is applied, not by the old one's message.
  const typedCode = (typed.saleCode ?? '').trim().toUpperCase();
  const appliedCode = typedCode === '' ? '' : lastApplied;
  // The summary panel beside the step prices with the same code (the same quote query).
  useEffect(() => {
    updateFlow({ saleCode: appliedCode });
  }, [appliedCode]);
  const quote = useQuery(quoteQueryOptions(berth, appliedCode));
  const terms = useQuery(paymentTermsQueryOptions(berth.kind));
  const codeInvalid = !!appliedCode && quote.data?.sale_code_valid === false;
  const showInvalid = codeInvalid && typedCode === appliedCode;
  const applyCode = () => setAppliedCode(form.getValues('saleCode').trim().toUpperCase());

  const onSubmit = form.handleSubmit(async (values) => {
    const typed = values.saleCode.trim().toUpperCase();
    if (typed !== appliedCode) {
      // The person confirms the price they see: apply the code first, then confirm again.
      setAppliedCode(typed);
      return;
    }
    if (codeInvalid || !quote.data) return;
    try {
      const order = await create.mutateAsync({
        placeId: place.place_id,
        berth,
        person: { ...values, saleCode: typed },
        saveProfile: loggedIn && values.saveData,
        locale: i18n.locale,
      });
      storePerson(values);
      onBooked(order);
    } catch (error) {
      if (isBerthTaken(error)) onBerthTaken();
    }
  });

  const boatSize = formatSize(parseDecimal(berth.boatLength), parseDecimal(berth.boatWidth), i18n.locale);
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-8" aria-label={t`Zusammenfassung`}>
        <Section title={t`Ihr Aufenthalt`}>
          <FactList
            items={[
              { label: t`Liegeplatz`, value: place.name },
              {
                label: t`Art`,
                value: berth.kind === 'day' ? t`Tagesliegeplatz` : berth.kind === 'fair' ? t`Messe-Liegeplatz` : t`Übernachtung`,
              },
              ...(quote.data
                ? [
                    {
                      label: berth.kind === 'day' ? t`Beginn` : t`Anreise`,
                      value: formatBerlinDateTime(quote.data.starts_at, i18n.locale),
                    },
                    { label: berth.kind === 'day' ? t`Ende` : t`Abreise`, value: formatBerlinDateTime(quote.data.ends_at, i18n.locale) },
                  ]
                : []),
              { label: t`Boot`, value: `${berth.boatName}${berth.boatTag ? ` (${berth.boatTag})` : ''}, ${boatSize}` },
            ]}
          />
        </Section>

        <Section title={t`Ihre Angaben`}>
          <div className="grid gap-4 sm:grid-cols-2">
            {(
              [
                ['firstName', t`Vorname`, 'given-name'],
                ['lastName', t`Nachname`, 'family-name'],
                ['email', t`E-Mail`, 'email'],
                ['phone', t`Telefon (optional)`, 'tel'],
                ['company', t`Firma (optional)`, 'organization'],
                ['street', t`Straße und Hausnummer (optional)`, 'street-address'],
                ['postalCode', t`Postleitzahl (optional)`, 'postal-code'],
                ['city', t`Ort (optional)`, 'address-level2'],
                ['country', t`Land (optional)`, 'country-name'],
              ] as const
            ).map(([name, label, autoComplete]) => (
              <FormField
                key={name}
                control={form.control}
                name={name}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{label}</FormLabel>
                    <FormControl>
                      <Input
                        autoComplete={autoComplete}
                        type={name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text'}
                        readOnly={name === 'email' && emailLocked}
                        {...field}
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
          </div>
          <FormField
            control={form.control}
            name="saveData"
            render={({ field }) => (
              <FormItem className="flex items-center gap-3">
                <FormControl>
                  <Checkbox checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                </FormControl>
                <FormLabel className="font-normal">
                  {loggedIn ? (
                    <Trans>Meine Daten speichern (im Profil und auf diesem Gerät)</Trans>
                  ) : (
                    <Trans>Meine Daten auf diesem Gerät speichern</Trans>
                  )}
                </FormLabel>
              </FormItem>
            )}
          />
        </Section>

        <Section title={t`Preis`}>
          <div className="flex flex-wrap items-end gap-3">
            <FormField
              control={form.control}
              name="saleCode"
              render={({ field }) => (
                <FormItem className="max-w-xs flex-1">
                  <FormLabel>
                    <Trans>Aktionscode (optional)</Trans>
                  </FormLabel>
                  <FormControl>
                    <Input autoComplete="off" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button type="button" variant="outline" onClick={applyCode}>
              <Trans>Einlösen</Trans>
            </Button>
          </div>
          {showInvalid && (
            <FormAlert className="text-sm">
              <Trans>Dieser Aktionscode ist nicht gültig.</Trans>
            </FormAlert>
          )}
          {quote.data?.sale_code && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Aktionscode {quote.data.sale_code} ist berücksichtigt.</Trans>
            </p>
          )}
          {quote.isError && <FormAlert className="text-sm">{errorMessage(quote.error)}</FormAlert>}
          {quote.data ? (
            <PriceBreakdown quote={quote.data} />
          ) : (
            quote.isPending && (
              <p role="status">
                <Trans>Preis wird berechnet …</Trans>
              </p>
            )
          )}
          {terms.data && <PaymentTermsNote terms={terms.data} />}
          <CancellationPolicyNote />
        </Section>

        <FormField
          control={form.control}
          name="acceptTerms"
          render={({ field }) => (
            <FormItem>
              <div className="flex items-center gap-3">
                <FormControl>
                  <Checkbox checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                </FormControl>
                <FormLabel className="font-normal">
                  <Trans>
                    Ich akzeptiere die{' '}
                    <Link to="/{-$locale}/terms" target="_blank" className="text-primary-dark underline underline-offset-4">
                      AGB
                    </Link>
                    .
                  </Trans>
                </FormLabel>
              </div>
              <FormMessage />
            </FormItem>
          )}
        />

        <div aria-live="polite">
          {create.isError && !isBerthTaken(create.error) && <FormAlert box>{errorMessage(create.error)}</FormAlert>}
        </div>
        <div>
          <Button type="submit" size="lg" disabled={form.formState.isSubmitting || create.isPending || !quote.data}>
            <Trans>Verbindlich buchen</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}

/** How the stay will be paid, said before the guest confirms (the mode the order will keep). */
function PaymentTermsNote({ terms }: { terms: PaymentTerms }) {
  const hold = terms.hold_minutes;
  const duration =
    hold % 60 === 0 ? (
      <Plural value={hold / 60} one="# Stunde" other="# Stunden" />
    ) : (
      <Plural value={hold} one="# Minute" other="# Minuten" />
    );
  return (
    <p className="rounded-md bg-sky-50 p-3 text-sm text-sky-950" data-testid="payment-terms">
      {terms.mode === 'online_required' ? (
        <Trans>
          Bezahlt wird online, direkt nach der Buchung. Bitte bezahlen Sie innerhalb von {duration}, sonst verfällt die Buchung und der
          Liegeplatz wird wieder frei.
        </Trans>
      ) : terms.mode === 'online_optional' ? (
        <Trans>
          Sie können nach der Buchung online bezahlen oder später im Hafenbüro (bar oder mit Karte); bis dahin ist Ihre Buchung als „Zahlung
          offen“ vermerkt.
        </Trans>
      ) : (
        <Trans>Bezahlt wird im Hafenbüro (bar oder mit Karte); Ihre Buchung ist bis dahin als „Zahlung offen“ vermerkt.</Trans>
      )}
    </p>
  );
}
