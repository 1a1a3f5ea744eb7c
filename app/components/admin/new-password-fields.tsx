import { TextField } from "~/components/ui/text-field";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "~/lib/account";

/**
 * A new password and its repetition, named `password` and `confirm`, as the
 * setup and invitation pages ask for them (newPasswordProblem checks them).
 */
export function NewPasswordFields() {
  return (
    <>
      <TextField
        label={`Password (at least ${MIN_PASSWORD_LENGTH} characters)`}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        maxLength={MAX_PASSWORD_LENGTH}
        required
      />
      <TextField
        label="Repeat the password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        maxLength={MAX_PASSWORD_LENGTH}
        required
      />
    </>
  );
}
