import { data, redirect, useNavigation } from "react-router";
import { useAdminShell } from "~/components/admin/admin-shell";
import { CODE_MAX_LENGTH, MAX_PASSWORD_LENGTH } from "~/lib/account";
import { pageMeta } from "~/lib/seo";
import {
  AccountError,
  changeOwnPassword,
  checkOwnPassword,
  listOwnSessions,
  PASSWORD_MISSING,
  revokeOtherSessions,
  revokeOwnSession,
  signedInAdmin,
  busyRefusal,
  HashingBusyError,
  beginSetup,
  disableTwoFactor,
  enableTwoFactor,
  pendingSetup,
  qrCodeSvg,
  TwoFactorError,
  twoFactorStatus,
} from "~/server/identity/index.server";
import { formRetryAfter, readFormBody, retryAfterHeaders } from "~/server/platform/http.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/route";
import type { ActionResult, Intent } from "./account-ui";
import { PasswordSection } from "./password-section";
import { SessionsSection } from "./sessions-section";
import { TwoFactorSection } from "./two-factor-section";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

/** /admin/account: two-factor sign-in, the password and this account's sessions (ADR 037). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const db = context.get(dbContext);
  const status = await twoFactorStatus(db, admin.id);
  const setup = status.pending ? await pendingSetup(db, admin) : undefined;
  return data(
    {
      twoFactor: status,
      setup: setup && {
        secret: setup.secret,
        qrCode: `data:image/svg+xml;base64,${Buffer.from(await qrCodeSvg(setup.otpauthUrl)).toString("base64")}`,
      },
      sessions: await listOwnSessions(db, admin, request),
    },
    // A secret being set up is on this page: never kept by a cache.
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** A throttled or busy password check's Retry-After reaches the page's answer. */
export function headers(args: Route.HeadersArgs) {
  return formRetryAfter(args);
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const form = await readFormBody(request);
  const intent = String(form.get("intent") ?? "") as Intent;
  const text = (name: string, max: number) => String(form.get(name) ?? "").slice(0, max);
  const db = context.get(dbContext);
  const refuse = (error: string, status = 400, headers?: HeadersInit) =>
    data<ActionResult>({ intent, ok: false, error }, { status, headers });
  const done = (result: Omit<Extract<ActionResult, { ok: true }>, "intent" | "ok"> = {}) =>
    data<ActionResult>({ intent, ok: true, ...result });
  /** The current password asked again (ADR 046); a refusal answered beside its field. */
  const passwordRefusal = async () => {
    const password = text("password", MAX_PASSWORD_LENGTH);
    const check = password
      ? await checkOwnPassword(admin, password, context.get(clientAddressContext))
      : { ok: false as const, status: 400 as const, error: PASSWORD_MISSING };
    if (check.ok) return undefined;
    return data<ActionResult>(
      { intent, ok: false, error: check.error, field: "password" },
      { status: check.status, headers: retryAfterHeaders(check) },
    );
  };

  switch (intent) {
    case "setup-2fa": {
      const refused = await passwordRefusal();
      if (refused) return refused;
      try {
        await beginSetup(db, admin);
      } catch (error) {
        if (error instanceof TwoFactorError) return refuse(error.message, error.status);
        throw error;
      }
      return done();
    }
    case "cancel-2fa":
      await db
        .updateTable("admin_users")
        .set({ totp_pending_secret: null })
        .where("id", "=", admin.id)
        .where("totp_secret", "is", null)
        .execute();
      return done();
    case "enable-2fa": {
      const result = await enableTwoFactor(
        db,
        admin.id,
        text("code", CODE_MAX_LENGTH),
        context.get(clientAddressContext),
      );
      if (!result.ok) return refuse(result.error, result.status);
      // Sessions opened with the password alone end: a borrowed one must not outlive 2FA (ADR 046).
      await revokeOtherSessions(db, admin, request);
      await recordAudit({
        action: "two-factor-enabled",
        admin,
        request,
        clientAddress: context.get(clientAddressContext),
      });
      return done({ recoveryCodes: result.recoveryCodes });
    }
    case "disable-2fa": {
      const refused = await passwordRefusal();
      if (refused) return refused;
      await disableTwoFactor(db, admin.id);
      await recordAudit({
        action: "two-factor-disabled",
        admin,
        request,
        clientAddress: context.get(clientAddressContext),
      });
      return done({ message: "Two-factor sign-in is off. Your password alone signs you in." });
    }
    case "change-password": {
      const next = text("newPassword", MAX_PASSWORD_LENGTH + 1);
      if (next !== text("confirmPassword", MAX_PASSWORD_LENGTH + 1)) return refuse("The two new passwords differ.");
      if (next.length > MAX_PASSWORD_LENGTH) return refuse("The new password is too long.");
      const check = await checkOwnPassword(
        admin,
        text("currentPassword", MAX_PASSWORD_LENGTH),
        context.get(clientAddressContext),
      );
      if (!check.ok) {
        const error = check.status === 403 ? "The current password is not correct." : check.error;
        return refuse(error, check.status, retryAfterHeaders(check));
      }
      try {
        await changeOwnPassword(db, admin, request, next);
      } catch (error) {
        if (error instanceof AccountError) return refuse(`${error.message}.`);
        if (error instanceof HashingBusyError) {
          const busy = busyRefusal();
          return refuse(busy.error, busy.status, retryAfterHeaders(busy));
        }
        throw error;
      }
      await recordAudit({
        action: "password-changed",
        admin,
        request,
        clientAddress: context.get(clientAddressContext),
      });
      return done({ message: "Password changed. Your other sessions were signed out." });
    }
    case "revoke-session":
      if (!(await revokeOwnSession(db, admin, text("session", 64))))
        return refuse("That session has already ended.", 404);
      await recordAudit({
        action: "sessions-signed-out",
        admin,
        request,
        clientAddress: context.get(clientAddressContext),
        target: "one session",
      });
      return done({ message: "That session was signed out." });
    case "revoke-others": {
      const count = await revokeOtherSessions(db, admin, request);
      await recordAudit({
        action: "sessions-signed-out",
        admin,
        request,
        clientAddress: context.get(clientAddressContext),
        target: `${count} other session${count === 1 ? "" : "s"}`,
      });
      return done({ message: `Signed out everywhere else (${count} session${count === 1 ? "" : "s"}).` });
    }
    default:
      throw redirect("/admin/account");
  }
}

export const meta = () => pageMeta({ title: "Account | Blog Admin", noindex: true });

export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { twoFactor, setup, sessions } = loaderData;
  const admin = useAdminShell();
  const navigation = useNavigation();
  const pending = (intent: Intent) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const result = actionData;
  const resultFor = (intents: Intent[]) => (result && intents.includes(result.intent) ? result : undefined);

  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold">Account</h1>
      <p className="mt-1 text-neutral-700">
        Signed in as <strong className="break-all">{admin.email}</strong>.
      </p>

      <TwoFactorSection
        email={admin.email}
        twoFactor={twoFactor}
        setup={setup}
        result={resultFor(["setup-2fa", "cancel-2fa", "enable-2fa", "disable-2fa"])}
        pending={pending}
      />

      <PasswordSection result={resultFor(["change-password"])} busy={pending("change-password")} />

      <SessionsSection
        sessions={sessions}
        result={resultFor(["revoke-session", "revoke-others"])}
        busy={pending("revoke-others")}
      />
    </div>
  );
}
