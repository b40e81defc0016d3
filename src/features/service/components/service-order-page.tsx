import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input, Textarea } from '@/components/ui/input';
import { useHarbourContact } from '@/components/harbour-facts';
import { submissionStatus } from '@/lib/submit-message';
import { useRequestService } from '@/features/service/api/request-service';
import { serviceRequestSchema, type ServiceRequestValues } from '@/features/service/schemas/service-request';
import { DatePicker } from '@/components/ui/date-picker';

/** /service/order: a service request (ice, lift, washing machine, mechanic...) to the harbour team. */
export function ServiceOrderPage() {
  const { t, i18n } = useLingui();
  const harbour = useHarbourContact();
  const request = useRequestService();
  const status = submissionStatus(request);
  const form = useForm<ServiceRequestValues>({
    resolver: zodResolver(serviceRequestSchema),
    defaultValues: { topic: 'ice', name: '', email: '', phone: '', berth: '', date: '', message: '' },
  });
  const topics: Record<ServiceRequestValues['topic'], string> = {
    ice: t`Eis und Kühlbox`,
    boat_lift: t`Bootskran`,
    washing_machine: t`Waschmaschine`,
    mechanic: t`Mechaniker`,
    diesel: t`Care Diesel`,
    charter: t`Charter`,
    skipper_training: t`Skipperschulung`,
    parking: t`Parken`,
    other: t`Sonstiges`,
  };
  const onSubmit = form.handleSubmit((v) =>
    request.mutate(
      {
        p_service: v.topic,
        p_name: v.name,
        p_email: v.email,
        p_phone: v.phone || undefined,
        p_preferred_date: v.date,
        p_boat: v.berth ? { name: v.berth } : undefined,
        p_message: v.message,
        p_locale: i18n.locale,
      },
      { onSuccess: () => form.reset() },
    ),
  );
  return (
    <Page title={t`Service anfragen`} lead={t`Sagen Sie uns, was Sie brauchen – das Hafenteam bestätigt Ihre Anfrage per E-Mail.`}>
      <Form {...form}>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex max-w-xl flex-col gap-4" aria-label={t`Serviceanfrage`}>
          <FormField
            control={form.control}
            name="topic"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Leistung</Trans>
                </FormLabel>
                <FormControl>
                  <select {...field} className="h-10 rounded-md border border-slate-300 bg-white px-3 text-base">
                    {Object.entries(topics).map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Name</Trans>
                </FormLabel>
                <FormControl>
                  <Input autoComplete="name" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="email"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>E-Mail</Trans>
                </FormLabel>
                <FormControl>
                  <Input type="email" autoComplete="email" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="phone"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Telefon (optional)</Trans>
                </FormLabel>
                <FormControl>
                  <Input type="tel" autoComplete="tel" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="berth"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Liegeplatz oder Bootsname (optional)</Trans>
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
            name="date"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Wunschtermin</Trans>
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
            name="message"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Nachricht</Trans>
                </FormLabel>
                <FormControl>
                  <Textarea rows={4} {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <div>
            <Button type="submit" disabled={request.isPending}>
              <Trans>Anfrage senden</Trans>
            </Button>
          </div>
          <div aria-live="polite">
            {status === 'sent' && (
              <p className="rounded-md bg-green-50 p-3 text-green-900">
                <Trans>Danke! Ihre Anfrage ist beim Hafenteam angekommen.</Trans>
              </p>
            )}
            {status === 'unavailable' && (
              <p className="rounded-md bg-amber-50 p-3 text-amber-900">
                <Trans>Das Formular ist gerade nicht verfügbar. Bitte schreiben Sie uns an {harbour.email}.</Trans>
              </p>
            )}
            {status === 'tooMany' && (
              <p className="rounded-md bg-amber-50 p-3 text-amber-900">
                <Trans>
                  Sie haben in der letzten Stunde schon mehrere Nachrichten gesendet. Bitte versuchen Sie es später noch einmal oder rufen
                  Sie uns an: {harbour.phone}.
                </Trans>
              </p>
            )}
            {status === 'failed' && (
              <p className="rounded-md bg-red-50 p-3 text-red-900">
                <Trans>Die Anfrage konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal.</Trans>
              </p>
            )}
          </div>
        </form>
      </Form>
    </Page>
  );
}
