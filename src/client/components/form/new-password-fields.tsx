import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';

interface PasswordInput {
  id: string;
  label: string;
  error?: string;
  registration: UseFormRegisterReturn;
}

/** A new password and its confirmation, as every account form asks for them. */
export function NewPasswordFields({
  password,
  confirm,
}: {
  password: PasswordInput;
  confirm: PasswordInput;
}) {
  return (
    <>
      <FormField type="password" autoComplete="new-password" {...password} />
      <FormField type="password" autoComplete="new-password" {...confirm} />
    </>
  );
}
