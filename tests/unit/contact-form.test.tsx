import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { ContactForm } from '@/features/contact/components/contact-form';
import { renderPage } from './render';

describe('contact form', () => {
  it('shows the validation messages of spec section 5 in English', async () => {
    await renderPage(ContactForm, { locale: 'en' });
    fireEvent.click(await screen.findByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('E-mail is required')).toBeTruthy();
    expect(screen.getByText('This field is required')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
  });

  it('and in German, for an invalid address', async () => {
    await renderPage(ContactForm, { locale: 'de' });
    fireEvent.change(await screen.findByLabelText('E-Mail'), { target: { value: 'kapitaen@hafen' } });
    fireEvent.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    expect(await screen.findByText('E-Mail ist nicht gültig')).toBeTruthy();
  });
});
