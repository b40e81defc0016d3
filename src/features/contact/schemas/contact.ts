import { z } from 'zod';
import { emailField, messageField, optionalPhone, requiredText } from '@/lib/validation';

export const contactSchema = z.object({
  name: requiredText(100),
  email: emailField(),
  phone: optionalPhone(),
  message: messageField(10, 2000),
});

export type ContactValues = z.infer<typeof contactSchema>;
