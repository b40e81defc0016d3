import nodemailer, { type Transporter } from 'nodemailer';
import { MailStore, type MailAttachment, type MailMessage } from './store.ts';

export interface OutgoingMail {
  to: string | string[];
  subject: string;
  text?: string;
  html?: string;
  from?: string;
  attachments?: MailAttachment[];
  headers?: Record<string, string>;
}

export interface SmtpSettings {
  host: string;
  port: number;
  user?: string;
  pass?: string;
  secure?: boolean;
}

/**
 * One way for every part of the stack to send mail: over SMTP when settings are given
 * (production-like), else into the local catcher (development and tests).
 */
export class Mailer {
  readonly store = new MailStore();
  private readonly transport?: Transporter;

  constructor(
    readonly sender: string,
    smtp?: SmtpSettings,
  ) {
    if (smtp?.host) {
      this.transport = nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure ?? smtp.port === 465,
        auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
      });
    }
  }

  get usesSmtp() {
    return this.transport !== undefined;
  }

  async send(mail: OutgoingMail): Promise<MailMessage | undefined> {
    const to = Array.isArray(mail.to) ? mail.to : [mail.to];
    const from = mail.from ?? this.sender;
    if (this.transport) {
      await this.transport.sendMail({
        from,
        to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        attachments: mail.attachments?.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content, 'base64'),
        })),
      });
      return undefined;
    }
    return this.store.add({
      from,
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments,
      headers: mail.headers,
    });
  }
}

export type { MailMessage, MailAttachment };
