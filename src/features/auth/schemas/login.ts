import { z } from 'zod';
import { emailField, messages } from '@/lib/validation';

export const loginSchema = z.object({
  email: emailField(),
  password: z.string().min(1, { error: messages.passwordRequired }),
});

export type LoginValues = z.infer<typeof loginSchema>;
