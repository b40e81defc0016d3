import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSuspenseQuery, type UseMutationResult } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { formatDay } from '@/lib/dates';
import { DatevSettingsSection } from '@/features/admin/datev';
import { AdminTable, Cell } from '@/features/admin/shared/admin-table';
import { ConfirmDialog } from '@/components/confirm-dialog';
import {
  fairPeriodsQueryOptions,
  harbourAccessQueryOptions,
  paymentModeColumns,
  paymentModes,
  paymentModesQueryOptions,
  twoFactorQueryOptions,
  useDeleteFairPeriod,
  useSaveFairPeriod,
  useSaveHarbourAccess,
  useSavePaymentModes,
  useSaveTwoFactor,
  type FairPeriod,
  type HarbourAccess,
  type PaymentMode,
  type PaymentModes,
  type TwoFactor,
} from '@/features/admin/settings/api/settings';
import { StartIntroSection } from '@/features/admin/settings/components/start-intro-section';
import { CancellationPolicySection } from '@/features/admin/settings/components/cancellation-policy-section';
import { SellerSection } from '@/features/admin/settings/components/seller-section';
import { SepaSection } from '@/features/admin/settings/components/sepa-section';
import { BookingHorizonSection } from '@/features/admin/settings/components/booking-horizon-section';
import { DepthMarginSection } from '@/features/admin/settings/components/depth-margin-section';
import { GaugeThresholdsSection } from '@/features/admin/settings/components/gauge-thresholds-section';
import {
  accessSchema,
  fairPeriodSchema,
  paymentModesSchema,
  type AccessValues,
  type FairPeriodValues,
  type PaymentModesValues,
} from '@/features/admin/settings/schemas/settings';
import { DatePicker } from '@/components/ui/date-picker';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** /account/admin/settings: fair periods (for fair boater berths), the door code and wifi, how each kind of order is paid, and the DATEV export's numbers and accounts. */
export function SettingsPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Einstellungen`}>
      <FairPeriodsSection />
      <StartIntroSection />
      <AccessSection />
      <PaymentModesSection />
      <CancellationPolicySection />
      <BookingHorizonSection />
      <DepthMarginSection />
      <GaugeThresholdsSection />
      <TwoFactorSection />
      <SellerSection />
      <SepaSection />
      <DatevSettingsSection />
    </Page>
  );
}

function FairPeriodsSection() {
  const { t, i18n } = useLingui();
  const { data: fairs } = useSuspenseQuery(fairPeriodsQueryOptions());
  // null: closed; 'new': create; a period: edit.
  const [editing, setEditing] = useState<FairPeriod | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<FairPeriod | null>(null);
  const deleting = useDeleteFairPeriod();

  const confirmDelete = () => {
    if (!toDelete) return;
    deleting.mutate(toDelete.id, { onSuccess: () => setToDelete(null) });
  };

  return (
    <Section title={t`Messezeiträume`} aria-label={t`Messezeiträume`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          In diesen Zeiträumen (erster und letzter Tag eingeschlossen) können Gäste Messe-Liegeplätze buchen, z. B. zur boot Düsseldorf.
        </Trans>
      </p>
      <div>
        <Button type="button" onClick={() => setEditing('new')}>
          <Trans>Messezeitraum hinzufügen</Trans>
        </Button>
      </div>
      {fairs.length === 0 ? (
        <p className="text-slate-600">
          <Trans>Es sind keine Messezeiträume eingetragen.</Trans>
        </p>
      ) : (
        <AdminTable caption={t`Messezeiträume`} head={[t`Name`, t`Beginn`, t`Ende`, t`Aktionen`]}>
          {fairs.map((f) => (
            <tr key={f.id}>
              <Cell className="font-medium">{i18n.locale === 'en' && f.name_en ? f.name_en : f.name}</Cell>
              <Cell className="whitespace-nowrap">{formatDay(f.starts_on, i18n.locale)}</Cell>
              <Cell className="whitespace-nowrap">{formatDay(f.ends_on, i18n.locale)}</Cell>
              <Cell>
                <div className="flex flex-wrap gap-2">
                  <Button type="button" variant="outline" size="sm" aria-label={t`${f.name} bearbeiten`} onClick={() => setEditing(f)}>
                    <Trans>Bearbeiten</Trans>
                  </Button>
                  <Button
                    type="button"
                    variant="destructive"
                    size="sm"
                    aria-label={t`${f.name} löschen`}
                    onClick={() => {
                      deleting.reset();
                      setToDelete(f);
                    }}
                  >
                    <Trans>Löschen</Trans>
                  </Button>
                </div>
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{editing === 'new' ? t`Messezeitraum hinzufügen` : t`Messezeitraum bearbeiten`}</DialogTitle>
            <DialogDescription>
              <Trans>Erster und letzter Messetag.</Trans>
            </DialogDescription>
          </DialogHeader>
          {editing !== null && (
            <FairPeriodForm
              key={editing === 'new' ? 'new' : editing.id}
              fair={editing === 'new' ? null : editing}
              onDone={() => setEditing(null)}
            />
          )}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        key={toDelete?.id}
        open={!!toDelete}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t`Messezeitraum löschen`}
        description={t`Möchten Sie den Messezeitraum „${toDelete?.name ?? ''}“ wirklich löschen? Bestehende Buchungen bleiben erhalten.`}
        confirmLabel={t`Löschen`}
        destructive
        busy={deleting.isPending}
        error={deleting.error ? staffErrorMessage(deleting.error) : undefined}
        onConfirm={confirmDelete}
      />
    </Section>
  );
}

function FairPeriodForm({ fair, onDone }: { fair: FairPeriod | null; onDone: () => void }) {
  const { t } = useLingui();
  const saving = useSaveFairPeriod();
  const form = useForm<FairPeriodValues>({
    resolver: zodResolver(fairPeriodSchema),
    defaultValues: { name: fair?.name ?? '', nameEn: fair?.name_en ?? '', startsOn: fair?.starts_on ?? '', endsOn: fair?.ends_on ?? '' },
  });
  const onSubmit = form.handleSubmit((v) =>
    saving.mutate(
      { id: fair?.id ?? null, row: { name: v.name, name_en: v.nameEn || null, starts_on: v.startsOn, ends_on: v.endsOn } },
      { onSuccess: onDone },
    ),
  );
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Messezeitraum`} className="grid gap-4">
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Name (Deutsch)</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="nameEn"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Name (Englisch, optional)</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="startsOn"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Erster Messetag</Trans>
                </FormLabel>
                <FormControl>
                  <DatePicker {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="endsOn"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Letzter Messetag</Trans>
                </FormLabel>
                <FormControl>
                  <DatePicker {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        {saving.error && <FormAlert className="text-sm">{staffErrorMessage(saving.error)}</FormAlert>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onDone}>
            <Trans>Abbrechen</Trans>
          </Button>
          <Button type="submit" disabled={saving.isPending}>
            <Trans>Speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}

/** A section's save, kept in the section: its form remounts with the saved values (key), the message must outlive it. */
type Saving<V> = UseMutationResult<void, Error, V>;

/** "Gespeichert." or the refusal of a section's last save. */
function SaveStatus({ saving }: { saving: Pick<Saving<never>, 'isSuccess' | 'error'> }) {
  return (
    <div aria-live="polite">
      {saving.isSuccess && (
        <p role="status" className="text-sm text-green-800">
          <Trans>Gespeichert.</Trans>
        </p>
      )}
      {saving.error && <FormAlert className="text-sm">{staffErrorMessage(saving.error)}</FormAlert>}
    </div>
  );
}

function AccessSection() {
  const { t } = useLingui();
  const { data: access } = useSuspenseQuery(harbourAccessQueryOptions());
  // Kept here: the form below remounts with the saved values (key), the message must outlive it.
  const saving = useSaveHarbourAccess();
  return (
    <Section title={t`Türcode und WLAN`} aria-label={t`Türcode und WLAN`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>Sichtbar für das Hafenteam, aktive Langzeitlieger und bestätigte Gäste mit eingecheckter Buchung bis zur Abreise.</Trans>
      </p>
      {access ? (
        <AccessForm key={access.updated_at} access={access} saving={saving} />
      ) : (
        <FormAlert>
          <Trans>Die Zugangsdaten konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
    </Section>
  );
}

function AccessForm({ access, saving }: { access: HarbourAccess; saving: Saving<Omit<HarbourAccess, 'updated_at'>> }) {
  const { t } = useLingui();
  const form = useForm<AccessValues>({
    resolver: zodResolver(accessSchema),
    defaultValues: { doorCode: access.door_code, wifiSsid: access.wifi_ssid, wifiPassword: access.wifi_password },
  });
  const onSubmit = form.handleSubmit((v) => saving.mutate({ door_code: v.doorCode, wifi_ssid: v.wifiSsid, wifi_password: v.wifiPassword }));
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Türcode und WLAN`} className="grid max-w-md gap-4">
        <FormField
          control={form.control}
          name="doorCode"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Türcode</Trans>
              </FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="wifiSsid"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>WLAN-Name (SSID)</Trans>
              </FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="wifiPassword"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>WLAN-Passwort</Trans>
              </FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
              <FormDescription>
                <Trans>Gäste sehen das neue Passwort sofort.</Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SaveStatus saving={saving} />
        <div>
          <Button type="submit" disabled={saving.isPending}>
            <Trans>Speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}

function PaymentModesSection() {
  const { t } = useLingui();
  const { data: modes } = useSuspenseQuery(paymentModesQueryOptions());
  // Kept here: the form remounts with the saved values (key), the message must outlive it.
  const saving = useSavePaymentModes();
  return (
    <Section title={t`Zahlungsweise`} aria-label={t`Zahlungsweise`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Wie Buchungen bezahlt werden, je nach Art. Gilt für neue Buchungen; jede Buchung behält die Zahlungsweise, die bei ihrer Buchung
          galt und dem Gast genannt wurde.
        </Trans>
      </p>
      {modes ? (
        <PaymentModesForm
          key={[...paymentModeColumns.map((c) => modes[c]), modes.payment_hold_minutes].join()}
          modes={modes}
          saving={saving}
        />
      ) : (
        <FormAlert>
          <Trans>Die Zahlungseinstellungen konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
    </Section>
  );
}

function PaymentModesForm({ modes, saving }: { modes: PaymentModes; saving: Saving<PaymentModes> }) {
  const { t } = useLingui();
  const form = useForm<PaymentModesValues>({
    resolver: zodResolver(paymentModesSchema),
    defaultValues: { ...modes, payment_hold_minutes: String(modes.payment_hold_minutes) },
  });
  const kinds: { name: keyof PaymentModesValues; label: string }[] = [
    { name: 'payment_mode_day', label: t`Tagesliegeplatz` },
    { name: 'payment_mode_overnight', label: t`Übernachtung` },
    { name: 'payment_mode_fair', label: t`Messe-Liegeplatz` },
    { name: 'payment_mode_walk_in', label: t`Walk-in (vom Hafenteam gebucht)` },
  ];
  const modeLabels: Record<PaymentMode, [string, string]> = {
    online_required: [
      t`Online vorab`,
      t`Gäste bezahlen direkt nach der Buchung online; unbezahlt verfällt die Buchung nach der Haltezeit.`,
    ],
    online_optional: [t`Online oder im Hafenbüro`, t`Gäste können online bezahlen oder später im Hafenbüro.`],
    desk: [t`Nur im Hafenbüro`, t`Keine Online-Zahlung; bezahlt wird am Hafenbüro.`],
  };
  const onSubmit = form.handleSubmit((v) => saving.mutate({ ...v, payment_hold_minutes: Number(v.payment_hold_minutes) }));
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Zahlungsweise`} className="grid gap-4">
        <div className="grid gap-4 lg:grid-cols-2">
          {kinds.map((kind) => (
            <FormField
              key={kind.name}
              control={form.control}
              name={kind.name}
              render={({ field }) => (
                <FormItem className="rounded-xl border border-slate-200 bg-white p-4">
                  <fieldset className="grid gap-2">
                    <legend className="mb-2 font-semibold">{kind.label}</legend>
                    <RadioGroup value={field.value} onValueChange={field.onChange} aria-label={kind.label} className="gap-2">
                      {paymentModes.map((mode) => (
                        <Label
                          key={mode}
                          className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[[data-state=checked]]:border-primary-dark has-[[data-state=checked]]:bg-sky-50"
                        >
                          <RadioGroupItem value={mode} className="mt-0.5" />
                          <span className="flex flex-col gap-0.5">
                            <span className="font-medium">{modeLabels[mode][0]}</span>
                            <span className="text-sm font-normal text-slate-600">{modeLabels[mode][1]}</span>
                          </span>
                        </Label>
                      ))}
                    </RadioGroup>
                  </fieldset>
                  <FormMessage />
                </FormItem>
              )}
            />
          ))}
        </div>
        <FormField
          control={form.control}
          name="payment_hold_minutes"
          render={({ field }) => (
            <FormItem className="max-w-md">
              <FormLabel>
                <Trans>Haltezeit bis zur Online-Zahlung (Minuten)</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} inputMode="numeric" autoComplete="off" className="w-32" />
              </FormControl>
              <FormDescription>
                <Trans>
                  Bei „Online vorab“: So lange hält eine unbezahlte Buchung ihren Liegeplatz (höchstens bis zur Ankunft). Wer in dieser Zeit
                  die Zahlung beginnt, behält ihn, bis die Zahlungsseite abläuft.
                </Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SaveStatus saving={saving} />
        <div>
          <Button type="submit" disabled={saving.isPending}>
            <Trans>Zahlungseinstellungen speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}

function TwoFactorSection() {
  const { t } = useLingui();
  const { data: twoFactor } = useSuspenseQuery(twoFactorQueryOptions());
  const saving = useSaveTwoFactor();
  return (
    <Section title={t`Zwei-Faktor-Anmeldung`} aria-label={t`Zwei-Faktor-Anmeldung`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Wer es muss, meldet sich mit Passwort und einem Code aus einer Authenticator-App an. Ohne den zweiten Schritt hat die Sitzung
          keine Rechte im Hafenbüro. Wer noch keine App eingerichtet hat, wird bei der nächsten Anmeldung dazu geführt.
        </Trans>
      </p>
      {twoFactor ? (
        <TwoFactorForm key={`${twoFactor.mfa_required_admin}${twoFactor.mfa_required_harbor}`} twoFactor={twoFactor} saving={saving} />
      ) : (
        <FormAlert>
          <Trans>Die Einstellungen zur Anmeldung konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
    </Section>
  );
}

function TwoFactorForm({ twoFactor, saving }: { twoFactor: TwoFactor; saving: Saving<TwoFactor> }) {
  const { t } = useLingui();
  const form = useForm<TwoFactor>({ defaultValues: twoFactor });
  const onSubmit = form.handleSubmit((v) => saving.mutate(v));
  const roles: { name: keyof TwoFactor; label: string }[] = [
    { name: 'mfa_required_admin', label: t`Pflicht für Admins` },
    { name: 'mfa_required_harbor', label: t`Pflicht für das Hafenteam` },
  ];
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Zwei-Faktor-Anmeldung`} className="grid max-w-md gap-4">
        {roles.map((role) => (
          <FormField
            key={role.name}
            control={form.control}
            name={role.name}
            render={({ field }) => (
              <FormItem className="flex items-center gap-3">
                <FormControl>
                  <Checkbox checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                </FormControl>
                <FormLabel className="font-normal">{role.label}</FormLabel>
              </FormItem>
            )}
          />
        ))}
        <SaveStatus saving={saving} />
        <div>
          <Button type="submit" disabled={saving.isPending}>
            <Trans>Speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}
