/**
 * Accounts (issue 10): every validation message of the login, password-forgotten, reset,
 * profile, avatar, e-mail change and long-term application forms, in German and English.
 * (The new-password rules are in auth-password.test.tsx.) Only invalid input is submitted
 * here: nothing reaches the network.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { LoginPage } from '@/features/auth/components/login-page';
import { PasswordForgottenPage, ResetPasswordPage } from '@/features/auth/components/auth-pages';
import { ProfileForm } from '@/features/account/components/profile-page';
import { AvatarCard, EmailChangeCard } from '@/features/account/components/profile-extras';
import { ApplicationForm } from '@/features/account/components/long-term';
import { avatarProblem } from '@/features/account/schemas/profile';
import { renderPage } from './render';

const w = {
  de: {
    email: 'E-Mail',
    password: 'Passwort',
    login: 'Anmelden',
    emailRequired: 'E-Mail wird benötigt',
    emailInvalid: 'E-Mail ist nicht gültig',
    passwordRequired: 'Passwort wird benötigt',
    send: 'Link und Code senden',
    code: '6-stelliger Code',
    confirm: 'Bestätigen',
    codeDigits: 'Der Code hat 6 Ziffern',
    required: 'Pflichtfeld',
    phone: 'Telefon',
    phoneInvalid: 'Telefonnummer ist nicht gültig',
    length: 'Bootslänge (m)',
    width: 'Bootsbreite (m)',
    save: 'Speichern',
    first: 'Vorname',
    boatName: 'Bootsname',
    max: (n: number) => `Höchstens ${n} Zeichen`,
    metres: (a: string, b: string) => `Bitte eine Zahl zwischen ${a} und ${b} Metern mit höchstens einer Nachkommastelle`,
    choose: 'Bild auswählen',
    imageRequired: 'Bild wird benötigt (JPEG, PNG oder WebP)',
    tooLarge: 'Datei ist zu groß (höchstens 5 MB)',
    newEmail: 'Neue E-Mail-Adresse',
    sendCodes: 'Codes senden',
    sameEmail: 'Das ist bereits Ihre E-Mail-Adresse',
    apply: 'Bewerbung absenden',
    phoneOptional: 'Telefon (optional)',
    message: 'Nachricht an das Hafenbüro (optional)',
  },
  en: {
    email: 'E-mail',
    password: 'Password',
    login: 'Log in',
    emailRequired: 'E-mail is required',
    emailInvalid: 'E-mail is not valid',
    passwordRequired: 'Password is required',
    send: 'Send link and code',
    code: '6-digit code',
    confirm: 'Confirm',
    codeDigits: 'The code has 6 digits',
    required: 'This field is required',
    phone: 'Phone',
    phoneInvalid: 'Phone number is not valid',
    length: 'Boat length (m)',
    width: 'Boat width (m)',
    save: 'Save',
    first: 'First name',
    boatName: 'Boat name',
    max: (n: number) => `At most ${n} characters`,
    metres: (a: string, b: string) => `Please enter a number between ${a} and ${b} metres with at most one decimal`,
    choose: 'Choose a picture',
    imageRequired: 'Image required (JPEG, PNG or WebP)',
    tooLarge: 'File too large (at most 5 MB)',
    newEmail: 'New e-mail address',
    sendCodes: 'Send codes',
    sameEmail: 'That is already your e-mail address',
    apply: 'Send application',
    phoneOptional: 'Phone (optional)',
    message: 'Message to the harbour office (optional)',
  },
} as const;

const profileRow = {
  first_name: 'Klaus',
  last_name: 'Kunde',
  phone: null,
  company: null,
  street: null,
  postal_code: null,
  city: null,
  country: null,
  boat_name: null,
  boat_tag: null,
  boat_length: null,
  boat_width: null,
  boat_draught: null,
  locale: 'de' as const,
  avatar_path: null,
};

for (const locale of ['de', 'en'] as const) {
  const m = w[locale];
  const change = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

  describe(`account and auth forms (${locale})`, () => {
    it('login: e-mail and password required, e-mail pattern', async () => {
      await renderPage(() => <LoginPage />, { locale });
      const form = await screen.findByRole('form', { name: m.login });
      fireEvent.click(screen.getAllByRole('button', { name: m.login }).find((b) => form.contains(b))!);
      expect(await screen.findByText(m.emailRequired)).toBeTruthy();
      expect(screen.getByText(m.passwordRequired)).toBeTruthy();
      change(screen.getByLabelText(m.email), 'skipper@harbour');
      fireEvent.click(screen.getAllByRole('button', { name: m.login }).find((b) => form.contains(b))!);
      expect(await screen.findByText(m.emailInvalid)).toBeTruthy();
    });

    it('password forgotten: e-mail required and pattern', async () => {
      await renderPage(PasswordForgottenPage, { locale });
      fireEvent.click(await screen.findByRole('button', { name: m.send }));
      expect(await screen.findByText(m.emailRequired)).toBeTruthy();
      change(screen.getByLabelText(m.email), 'no-at-sign.de');
      fireEvent.click(screen.getByRole('button', { name: m.send }));
      expect(await screen.findByText(m.emailInvalid)).toBeTruthy();
    });

    it('reset password: the e-mail and the 6-digit code are checked', async () => {
      await renderPage(() => <ResetPasswordPage hasSession={false} />, { locale });
      fireEvent.click(await screen.findByRole('button', { name: m.confirm }));
      expect(await screen.findByText(m.emailRequired)).toBeTruthy();
      change(screen.getByLabelText(m.email), 'kunde@hafen.test');
      change(screen.getByLabelText(m.code), '12ab');
      fireEvent.click(screen.getByRole('button', { name: m.confirm }));
      expect(await screen.findByText(m.codeDigits)).toBeTruthy();
    });

    it('profile: names required and bounded, phone, boat length and width', async () => {
      await renderPage(() => <ProfileForm userId="u1" row={profileRow} />, { locale });
      change(await screen.findByLabelText(m.first), '');
      change(screen.getByLabelText(m.phone), 'abc');
      change(screen.getByLabelText(m.length), '61');
      change(screen.getByLabelText(m.width), '0,4');
      change(screen.getByLabelText(m.boatName), 'x'.repeat(61));
      fireEvent.click(screen.getByRole('button', { name: m.save }));
      expect(await screen.findByText(m.required)).toBeTruthy();
      expect(screen.getByText(m.phoneInvalid)).toBeTruthy();
      expect(screen.getByText(m.metres('1', '60'))).toBeTruthy();
      expect(screen.getByText(locale === 'de' ? m.metres('0,5', '15') : m.metres('0.5', '15'))).toBeTruthy();
      expect(screen.getByText(m.max(60))).toBeTruthy();
    });

    it("avatar: 'image required' for other files, 'file too large' above 5 MB", async () => {
      await renderPage(() => <AvatarCard userId="u1" path={null} />, { locale });
      const input = await screen.findByLabelText(m.choose);
      fireEvent.change(input, { target: { files: [new File(['text'], 'notes.txt', { type: 'text/plain' })] } });
      expect(await screen.findByText(m.imageRequired)).toBeTruthy();
      const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' });
      fireEvent.change(input, { target: { files: [big] } });
      expect(await screen.findByText(m.tooLarge)).toBeTruthy();
      expect(avatarProblem(undefined)).toBe(m.imageRequired);
      expect(avatarProblem({ type: 'image/png', size: 5 * 1024 * 1024 })).toBeUndefined();
    });

    it('e-mail change: required, pattern, and not the current address', async () => {
      await renderPage(() => <EmailChangeCard current="kunde@hafen.test" />, { locale });
      const send = await screen.findByRole('button', { name: m.sendCodes });
      fireEvent.click(send);
      expect(await screen.findByText(m.emailRequired)).toBeTruthy();
      change(screen.getByLabelText(m.newEmail), 'kunde@hafen');
      fireEvent.click(send);
      expect(await screen.findByText(m.emailInvalid)).toBeTruthy();
      change(screen.getByLabelText(m.newEmail), 'Kunde@Hafen.test');
      fireEvent.click(send);
      expect(await screen.findByText(m.sameEmail)).toBeTruthy();
    });

    it('long-term application: required fields, e-mail, phone, sizes, message length', async () => {
      await renderPage(() => <ApplicationForm placeId="" applicant={null} berths={[{ id: 'p1', name: 'C04', length: 12, width: 4 }]} />, {
        locale,
      });
      fireEvent.click(await screen.findByRole('button', { name: m.apply }));
      expect(await screen.findByText(m.emailRequired)).toBeTruthy();
      expect(screen.getAllByText(m.required)).toHaveLength(5); // first and last name, boat name, length, width
      change(screen.getByLabelText(m.email), 'a@b');
      change(screen.getByLabelText(m.phoneOptional), '12');
      change(screen.getByLabelText(m.length), '0,5');
      change(screen.getByLabelText(m.width), '20');
      change(screen.getByLabelText(m.message), 'x'.repeat(2001));
      fireEvent.click(screen.getByRole('button', { name: m.apply }));
      expect(await screen.findByText(m.emailInvalid)).toBeTruthy();
      expect(screen.getByText(m.phoneInvalid)).toBeTruthy();
      expect(screen.getByText(m.metres('1', '60'))).toBeTruthy();
      expect(screen.getByText(locale === 'de' ? m.metres('0,5', '15') : m.metres('0.5', '15'))).toBeTruthy();
      expect(screen.getByText(m.max(2000))).toBeTruthy();
    });
  });
}
