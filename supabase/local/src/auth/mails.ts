import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { StackConfig } from '../config.ts';
import { compileTemplate, TemplateError, type CompiledTemplate } from './template.ts';

export type MailType = 'confirmation' | 'magic_link' | 'recovery' | 'email_change' | 'invite' | 'reauthentication';
export const MAIL_TYPES: MailType[] = ['confirmation', 'magic_link', 'recovery', 'email_change', 'invite', 'reauthentication'];

const COMMON = ['SiteURL', 'ConfirmationURL', 'Email', 'Token', 'TokenHash', 'Data', 'RedirectTo'];
/** The fields GoTrue hands each template; using another one is an error at start. */
const FIELDS: Record<MailType, string[]> = {
  confirmation: COMMON,
  magic_link: COMMON,
  recovery: COMMON,
  invite: COMMON,
  email_change: [...COMMON, 'NewEmail', 'SendingTo'],
  reauthentication: ['SiteURL', 'Email', 'Token', 'Data'],
};

/** GoTrue's built-in subjects; the bodies below are plain stand-ins in the same spirit. */
const DEFAULTS: Record<MailType, { subject: string; body: string }> = {
  confirmation: {
    subject: 'Confirm Your Signup',
    body: '<h2>Confirm your signup</h2>\n<p>Follow this link to confirm your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm your mail</a></p>\n<p>Or enter this code: {{ .Token }}</p>',
  },
  magic_link: {
    subject: 'Your Magic Link',
    body: '<h2>Magic Link</h2>\n<p>Follow this link to login:</p>\n<p><a href="{{ .ConfirmationURL }}">Log In</a></p>\n<p>Or enter this code: {{ .Token }}</p>',
  },
  recovery: {
    subject: 'Reset Your Password',
    body: '<h2>Reset Password</h2>\n<p>Follow this link to reset the password for your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Reset Password</a></p>\n<p>Or enter this code: {{ .Token }}</p>',
  },
  invite: {
    subject: 'You have been invited',
    body: '<h2>You have been invited</h2>\n<p>You have been invited to create a user on {{ .SiteURL }}. Follow this link to accept the invite:</p>\n<p><a href="{{ .ConfirmationURL }}">Accept the invite</a></p>\n<p>Or enter this code: {{ .Token }}</p>',
  },
  email_change: {
    subject: 'Confirm Email Change',
    body: '<h2>Confirm Change of Email</h2>\n<p>Follow this link to confirm the update of your email from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="{{ .ConfirmationURL }}">Change Email</a></p>\n<p>Or enter this code: {{ .Token }}</p>',
  },
  reauthentication: {
    subject: 'Confirm reauthentication',
    body: '<h2>Confirm reauthentication</h2>\n<p>Enter the code: {{ .Token }}</p>',
  },
};

export interface MailTemplate {
  subject: CompiledTemplate;
  body: CompiledTemplate;
  source: string;
}

/**
 * Compiles every auth mail template from config.toml ([auth.email.template.<type>] subject and
 * content_path, the path relative to the project root as the CLI reads it), falling back to
 * GoTrue's defaults. Throws a TemplateError naming file and line for anything outside the
 * supported subset, or for a content_path that does not exist.
 */
export function loadMailTemplates(config: StackConfig, workdir: string): Record<MailType, MailTemplate> {
  const projectRoot = dirname(resolve(workdir));
  const out = {} as Record<MailType, MailTemplate>;
  for (const type of MAIL_TYPES) {
    const configured = config.auth.email.templates[type] ?? {};
    let bodySource = DEFAULTS[type].body;
    let source = `default ${type} template`;
    if (configured.contentPath) {
      const file = resolve(projectRoot, configured.contentPath);
      if (!existsSync(file)) {
        throw new TemplateError(`[auth.email.template.${type}] content_path ${configured.contentPath}: no such file (${file})`);
      }
      bodySource = readFileSync(file, 'utf8');
      source = file;
    }
    const subjectSource = configured.subject ?? DEFAULTS[type].subject;
    out[type] = {
      subject: compileTemplate(subjectSource, `[auth.email.template.${type}] subject`, FIELDS[type]),
      body: compileTemplate(bodySource, source, FIELDS[type]),
      source,
    };
  }
  return out;
}
