/**
 * A new customer's password waits in memory (never in storage) between step 3 and the code;
 * after a reload the code step asks for it again.
 */
let pending: { email: string; password: string } | undefined;

export function rememberPassword(email: string, password: string) {
  pending = { email: email.toLowerCase(), password };
}

export function pendingPassword(email: string): string | undefined {
  return pending && pending.email === email.toLowerCase() ? pending.password : undefined;
}

export function forgetPassword() {
  pending = undefined;
}
