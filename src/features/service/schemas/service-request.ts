import { z } from 'zod';
import { emailField, messageField, messages, optionalPhone, requiredText } from '@/lib/validation';

/** The services a guest may ask for (request_service's p_service). */
export const serviceKinds = [
  'ice',
  'boat_lift',
  'washing_machine',
  'mechanic',
  'diesel',
  'charter',
  'skipper_training',
  'parking',
  'other',
] as const;
export type ServiceKind = (typeof serviceKinds)[number];

export const serviceRequestSchema = z.object({
  topic: z.enum(serviceKinds, { error: messages.required }),
  name: requiredText(100),
  email: emailField(),
  phone: optionalPhone(),
  berth: z
    .string()
    .trim()
    .max(60, { error: () => messages.max(60) }),
  date: z.string().trim().min(1, { error: messages.required }),
  message: messageField(10, 2000),
});

export type ServiceRequestValues = z.infer<typeof serviceRequestSchema>;
