import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { messages } from '@/lib/validation';

/** A staff answer to an inbox message: 1 to 5,000 characters (the database checks again). */
export const replySchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, { error: () => t`Bitte eine Antwort schreiben.` })
    .max(5000, { error: () => messages.max(5000) }),
});

export type ReplyValues = z.infer<typeof replySchema>;
