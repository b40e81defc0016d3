import { randomUUID } from 'node:crypto';

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Base64 content, so tests can check e.g. an .ics file. */
  content: string;
}

export interface MailMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text?: string;
  html?: string;
  date: string;
  headers: Record<string, string>;
  attachments: MailAttachment[];
  /** The raw RFC 5322 source as received over SMTP (exact bytes; the parsed parts may be normalised). */
  raw?: string;
}

export type NewMail = Omit<MailMessage, 'id' | 'date' | 'attachments' | 'headers' | 'raw'> & {
  raw?: string;
  attachments?: MailAttachment[];
  headers?: Record<string, string>;
};

/** The catcher's mailbox: every message the stack did not send out over SMTP, newest last. */
export class MailStore {
  private messages: MailMessage[] = [];
  private waiters = new Set<() => void>();

  constructor(private readonly limit = 1000) {}

  add(mail: NewMail): MailMessage {
    const message: MailMessage = {
      id: randomUUID(),
      date: new Date().toISOString(),
      headers: {},
      attachments: [],
      ...mail,
      to: mail.to.map((a) => a.toLowerCase()),
    };
    this.messages.push(message);
    if (this.messages.length > this.limit) this.messages.shift();
    for (const wake of this.waiters) wake();
    return message;
  }

  list(to?: string): MailMessage[] {
    const address = to?.toLowerCase();
    return this.messages
      .filter((m) => !address || m.to.includes(address))
      .slice()
      .reverse();
  }

  get(id: string): MailMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  latest(to?: string): MailMessage | undefined {
    return this.list(to)[0];
  }

  clear(to?: string) {
    const address = to?.toLowerCase();
    this.messages = address ? this.messages.filter((m) => !m.to.includes(address)) : [];
  }

  /** Resolves with the newest message for `to` that arrives after `since` (or already has). */
  async waitFor(to: string | undefined, since: string | undefined, timeoutMs: number): Promise<MailMessage | undefined> {
    const find = () => this.list(to).find((m) => !since || m.date > since);
    const found = find();
    if (found || timeoutMs <= 0) return found;
    return new Promise((resolve) => {
      const wake = () => {
        const m = find();
        if (m) done(m);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (m: MailMessage | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(m);
      };
      this.waiters.add(wake);
    });
  }
}
