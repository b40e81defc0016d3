import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { PriceBreakdown } from '@/components/price-breakdown';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import {
  StepBerthData,
  StepChooseBerth,
  useStayText,
  quoteQueryOptions,
  emptyBerthData,
  parseDecimal,
  stayParams,
  type BerthDataValues,
  searchPlacesQueryOptions,
  type PlaceResult,
} from '@/features/booking';
import { EMAIL_PATTERN, messages, optionalPhone, requiredText } from '@/lib/validation';
import { harbourKeys } from '@/features/harbour/shared/keys';
import { staffCreateBooking } from '@/features/harbour/orders/api/orders';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => messages.max(max) });

/** The guest as staff type it: name required, e-mail optional (a confirmation goes out when given). */
const walkInPersonSchema = () =>
  z.object({
    firstName: requiredText(100),
    lastName: requiredText(100),
    email: z
      .string()
      .trim()
      .refine((v) => v === '' || EMAIL_PATTERN.test(v), { error: messages.emailInvalid }),
    phone: optionalPhone(),
    company: optionalText(100),
    street: optionalText(200),
    postalCode: optionalText(20),
    city: optionalText(100),
    country: optionalText(100),
    locale: z.enum(['de', 'en']),
    saleCode: optionalText(40),
  });
type WalkInPerson = z.infer<ReturnType<typeof walkInPersonSchema>>;

function PersonStep({
  berth,
  place,
  onBack,
  onBooked,
}: {
  berth: BerthDataValues;
  place: PlaceResult;
  onBack: () => void;
  onBooked: (id: string) => void;
}) {
  const { t, i18n } = useLingui();
  const stayText = useStayText();
  const queryClient = useQueryClient();
  const form = useForm<WalkInPerson>({
    resolver: zodResolver(walkInPersonSchema()),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      phone: '',
      company: '',
      street: '',
      postalCode: '',
      city: '',
      country: '',
      locale: i18n.locale === 'en' ? 'en' : 'de',
      saleCode: '',
    },
  });
  // The price shown is quote_booking's with the applied code, as in the booking flow's summary:
  // the same server function staff_create_booking prices with, so preview and order agree to the cent.
  const [lastApplied, setAppliedCode] = useState('');
  // As in the booking's summary: a cleared field takes the code away, with its message.
  const typedCode = (useWatch({ control: form.control, name: 'saleCode' }) ?? '').trim().toUpperCase();
  const appliedCode = typedCode === '' ? '' : lastApplied;
  const quote = useQuery(quoteQueryOptions(berth, appliedCode));
  const codeInvalid = !!appliedCode && quote.data?.sale_code_valid === false;
  const showInvalid = codeInvalid && typedCode === appliedCode;
  const applyCode = () => setAppliedCode(form.getValues('saleCode').trim().toUpperCase());
  const book = useMutation({
    mutationFn: (v: WalkInPerson) =>
      staffCreateBooking({
        placeId: place.place_id,
        stay: stayParams(berth),
        boat: {
          name: berth.boatName.trim(),
          tag: berth.boatTag.trim() || null,
          length: parseDecimal(berth.boatLength),
          width: parseDecimal(berth.boatWidth),
        },
        person: {
          first_name: v.firstName,
          last_name: v.lastName,
          email: v.email || undefined,
          phone: v.phone || undefined,
          company: v.company || undefined,
          street: v.street || undefined,
          postal_code: v.postalCode || undefined,
          city: v.city || undefined,
          country: v.country || undefined,
          locale: v.locale,
        },
        saleCode: appliedCode,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: harbourKeys.all }),
    onSuccess: (order) => onBooked(order.id),
  });
  const onSubmit = form.handleSubmit((v) => {
    const typed = v.saleCode.trim().toUpperCase();
    if (typed !== appliedCode) {
      // Staff confirm the price they see: a code typed but not applied is applied first.
      setAppliedCode(typed);
      return;
    }
    if (codeInvalid || !quote.data) return;
    book.mutate(v);
  });
  const fields: [keyof WalkInPerson, string, string?][] = [
    ['firstName', t`Vorname`, 'off'],
    ['lastName', t`Nachname`, 'off'],
    ['email', t`E-Mail (optional)`, 'off'],
    ['phone', t`Telefon (optional)`, 'off'],
    ['company', t`Firma (optional)`, 'off'],
    ['street', t`Straße (optional)`, 'off'],
    ['postalCode', t`Postleitzahl (optional)`, 'off'],
    ['city', t`Ort (optional)`, 'off'],
    ['country', t`Land (optional)`, 'off'],
  ];
  return (
    <div className="flex flex-col gap-6">
      <p className="text-slate-800">
        <Trans>
          Liegeplatz {place.name}, {stayText(berth)}, Boot „{berth.boatName}“.
        </Trans>
      </p>
      <Form {...form}>
        <form noValidate aria-label={t`Gast`} className="flex flex-col gap-4" onSubmit={onSubmit}>
          <div className="grid gap-4 sm:grid-cols-2">
            {fields.map(([name, label, autoComplete]) => (
              <FormField
                key={name}
                control={form.control}
                name={name}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{label}</FormLabel>
                    <FormControl>
                      <Input autoComplete={autoComplete} type={name === 'email' ? 'email' : 'text'} {...field} />
                    </FormControl>
                    {name === 'email' && (
                      <FormDescription>
                        <Trans>Mit E-Mail-Adresse erhält der Gast die Buchungsbestätigung.</Trans>
                      </FormDescription>
                    )}
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
            <FormField
              control={form.control}
              name="locale"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    <Trans>Sprache der Bestätigung</Trans>
                  </FormLabel>
                  <FormControl>
                    <select
                      className="h-9 rounded-md border border-slate-300 bg-white px-2"
                      value={field.value}
                      onChange={(e) => field.onChange(e.target.value === 'en' ? 'en' : 'de')}
                    >
                      <option value="de">Deutsch</option>
                      <option value="en">English</option>
                    </select>
                  </FormControl>
                </FormItem>
              )}
            />
          </div>
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
          {quote.isError && <FormAlert className="text-sm">{staffErrorMessage(quote.error)}</FormAlert>}
          {quote.data ? (
            <PriceBreakdown quote={quote.data} />
          ) : (
            quote.isPending && (
              <p role="status">
                <Trans>Preis wird berechnet …</Trans>
              </p>
            )
          )}
          {book.isError && <FormAlert box>{staffErrorMessage(book.error)}</FormAlert>}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" size="lg" disabled={book.isPending || !quote.data}>
              <Trans>Verbindlich buchen</Trans>
            </Button>
            <Button type="button" variant="outline" onClick={onBack}>
              <Trans>Anderen Liegeplatz wählen</Trans>
            </Button>
          </div>
        </form>
      </Form>
    </div>
  );
}

/**
 * A booking on behalf of a walk-in or phone guest: the booking flow's berth data and search
 * (same rules and prices), then the guest's data typed by staff; confirmed at once, no e-mail code.
 */
/** Berth and stay preset by the timeline (a drag over free days): dates fill step 1, the berth is offered first in step 2. */
export interface WalkInPreset {
  place?: string;
  arrival?: string;
  departure?: string;
}

/** The preset berth, when the search found it free and fitting: chosen with one click (the list below stays). */
function PresetChoice({ berth, placeId, onChoose }: { berth: BerthDataValues; placeId: string; onChoose: (p: PlaceResult) => void }) {
  const search = useQuery(searchPlacesQueryOptions(berth));
  const preset = search.data?.find((p) => p.place_id === placeId);
  if (!search.data) return null;
  if (!preset) {
    return (
      <p role="status" className="rounded-md bg-amber-50 p-3 text-amber-950">
        <Trans>
          Der im Belegungsplan gewählte Liegeplatz ist für diesen Aufenthalt und dieses Boot nicht frei oder passt nicht. Bitte einen
          anderen wählen.
        </Trans>
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-md border border-sky-200 bg-sky-50 p-3">
      <span>
        <Trans>Im Belegungsplan gewählt: Liegeplatz {preset.name}</Trans>
      </span>
      <Button onClick={() => onChoose(preset)}>
        <Trans>Liegeplatz {preset.name} wählen</Trans>
      </Button>
    </div>
  );
}

export function WalkInPage({ onBooked, preset }: { onBooked: (orderId: string) => void; preset?: WalkInPreset }) {
  const { t } = useLingui();
  const [berth, setBerth] = useState<BerthDataValues>();
  const [draft, setDraft] = useState<BerthDataValues | undefined>(() =>
    preset?.arrival && preset.departure && preset.departure > preset.arrival
      ? { ...emptyBerthData, arrival: preset.arrival, departure: preset.departure }
      : undefined,
  );
  const [place, setPlace] = useState<PlaceResult>();
  const step = !berth ? 1 : !place ? 2 : 3;
  const titles = [t`Aufenthalt und Boot`, t`Liegeplatz wählen`, t`Daten des Gastes`];
  return (
    <Page
      title={t`Neue Buchung (Walk-in / Telefon)`}
      lead={t`Für Gäste im Hafenbüro oder am Telefon: gleiche Suche und Preise wie online, sofort bestätigt, ohne E-Mail-Code.`}
    >
      <Section title={t`Schritt ${step} von 3: ${titles[step - 1]}`}>
        {step === 1 && (
          <StepBerthData
            forStaff
            initial={draft}
            onSubmit={(v) => {
              setDraft(v);
              setBerth(v);
              setPlace(undefined);
            }}
          />
        )}
        {step === 2 && berth && preset?.place && <PresetChoice berth={berth} placeId={preset.place} onChoose={setPlace} />}
        {step === 2 && berth && <StepChooseBerth forStaff berth={berth} onBack={() => setBerth(undefined)} onChoose={setPlace} />}
        {step === 3 && berth && place && <PersonStep berth={berth} place={place} onBack={() => setPlace(undefined)} onBooked={onBooked} />}
      </Section>
    </Page>
  );
}
