import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { NewPasswordForm } from '@/features/auth/components/new-password-form';
import { RegisterPage } from '@/features/auth/components/auth-pages';
import { renderPage } from './render';

const words = {
  de: {
    secondFactor: 'Bitte bestätigen Sie zuerst die Anmeldung mit dem Code aus Ihrer Authenticator-App.',
    password: 'Neues Passwort',
    confirm: 'Passwort wiederholen',
    save: 'Passwort speichern',
    required: 'Passwort wird benötigt',
    min: 'Passwort muss mindestens 6 Zeichen haben',
    mix: 'Das Passwort braucht Klein- und Großbuchstaben und Ziffern',
    match: 'Die Passwörter stimmen nicht überein',
  },
  en: {
    secondFactor: 'Please first confirm your sign-in with the code from your authenticator app.',
    password: 'New password',
    confirm: 'Repeat password',
    save: 'Save password',
    required: 'Password is required',
    min: 'Password must have at least 6 characters',
    mix: 'The password needs lower and upper case letters and digits',
    match: 'The passwords do not match',
  },
} as const;

for (const locale of ['de', 'en'] as const) {
  const w = words[locale];
  describe(`new password form (${locale})`, () => {
    it('shows every password rule of spec section 5 and saves only a valid, confirmed password', async () => {
      const saved: string[] = [];
      await renderPage(
        () => (
          <NewPasswordForm
            save={async (p) => {
              saved.push(p);
            }}
            onDone={() => undefined}
          />
        ),
        { locale },
      );
      const password = await screen.findByLabelText(w.password);
      const confirm = screen.getByLabelText(w.confirm);
      const save = screen.getByRole('button', { name: w.save });
      fireEvent.click(save);
      expect(await screen.findByText(w.required)).toBeTruthy();
      fireEvent.change(password, { target: { value: 'Ab1' } });
      fireEvent.click(save);
      expect(await screen.findByText(w.min)).toBeTruthy();
      fireEvent.change(password, { target: { value: 'abcdef1' } });
      fireEvent.click(save);
      expect(await screen.findByText(w.mix)).toBeTruthy();
      fireEvent.change(password, { target: { value: 'Abcdef1' } });
      fireEvent.change(confirm, { target: { value: 'Abcdef2' } });
      fireEvent.click(save);
      expect(await screen.findByText(w.match)).toBeTruthy();
      expect(saved).toEqual([]);
      fireEvent.change(confirm, { target: { value: 'Abcdef1' } });
      fireEvent.click(save);
      await waitFor(() => expect(saved).toEqual(['Abcdef1']));
    });

    it('tells someone with a second factor to confirm it first when GoTrue refuses the password at aal1 (insufficient_aal)', async () => {
      // GoTrue's answer to PUT /user from a recovery session (aal1) of harbour staff.
      const refusal = Object.assign(new Error('AAL2 session is required to update email or password when MFA is enabled.'), {
        status: 401,
        code: 'insufficient_aal',
      });
      await renderPage(
        () => (
          <NewPasswordForm
            save={async () => {
              throw refusal;
            }}
            onDone={() => undefined}
          />
        ),
        { locale },
      );
      fireEvent.change(await screen.findByLabelText(w.password), { target: { value: 'Abcdef1' } });
      fireEvent.change(screen.getByLabelText(w.confirm), { target: { value: 'Abcdef1' } });
      fireEvent.click(screen.getByRole('button', { name: w.save }));
      expect((await screen.findByRole('alert')).textContent).toBe(w.secondFactor);
    });
  });
}

describe('register form', () => {
  it('asks for e-mail and names (de)', async () => {
    await renderPage(RegisterPage, { locale: 'de' });
    fireEvent.click(await screen.findByRole('button', { name: 'Weiter' }));
    expect(await screen.findByText('E-Mail wird benötigt')).toBeTruthy();
    expect(screen.getAllByText('Pflichtfeld')).toHaveLength(2);
  });

  it('refuses an invalid address (en)', async () => {
    await renderPage(RegisterPage, { locale: 'en' });
    fireEvent.change(await screen.findByLabelText('E-mail'), { target: { value: 'skipper@harbour' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('E-mail is not valid')).toBeTruthy();
  });
});
