import { z } from 'zod';
import { messages, optionalPhone } from '@/lib/validation';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => messages.max(max) });

/** The person fields an admin edits (the bounds of the profiles table), roles and active. */
export const userSchema = z.object({
  firstName: optionalText(100),
  lastName: optionalText(100),
  phone: optionalPhone(),
  company: optionalText(100),
  street: optionalText(200),
  postalCode: optionalText(20),
  city: optionalText(100),
  country: optionalText(100),
  admin: z.boolean(),
  harbor: z.boolean(),
  user: z.boolean(),
  active: z.boolean(),
});
export type UserValues = z.infer<typeof userSchema>;
