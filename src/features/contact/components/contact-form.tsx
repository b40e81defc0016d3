import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input, Textarea } from '@/components/ui/input';
import { useHarbourContact } from '@/components/harbour-facts';
import { submissionStatus } from '@/lib/submit-message';
import { useSendContactMessage } from '@/features/contact/api/send-contact-message';
import { contactSchema, type ContactValues } from '@/features/contact/schemas/contact';

export function ContactForm() {
  const { t, i18n } = useLingui();
  const harbour = useHarbourContact();
  const send = useSendContactMessage();
  const status = submissionStatus(send);
  const form = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: { name: '', email: '', phone: '', message: '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    send.mutate(
      {
        p_name: values.name,
        p_email: values.email,
        p_phone: values.phone || undefined,
        p_message: values.message,
        p_locale: i18n.locale,
      },
      { onSuccess: () => form.reset() },
    ),
  );
  return (
    <Form {...form}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4" aria-label={t`Kontaktformular`}>
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
          name="message"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Nachricht</Trans>
              </FormLabel>
              <FormControl>
                <Textarea rows={5} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div>
          <Button type="submit" disabled={send.isPending}>
            <Trans>Nachricht senden</Trans>
          </Button>
        </div>
        <div aria-live="polite">
          {status === 'sent' && (
            <p className="rounded-md bg-green-50 p-3 text-green-900">
              <Trans>Danke! Ihre Nachricht ist angekommen; wir antworten so bald wie möglich.</Trans>
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
                Sie haben in der letzten Stunde schon mehrere Nachrichten gesendet. Bitte versuchen Sie es später noch einmal oder rufen Sie
                uns an: {harbour.phone}.
              </Trans>
            </p>
          )}
          {status === 'failed' && (
            <p className="rounded-md bg-red-50 p-3 text-red-900">
              <Trans>Die Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal.</Trans>
            </p>
          )}
        </div>
      </form>
    </Form>
  );
}
