import { useEffect, useId, useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { pageMeta } from "~/lib/seo";
import {
  parseSettingsInput,
  SETTINGS_LIMITS,
  SOCIAL_NETWORKS,
  type SettingsIssue,
  type SiteSettings,
} from "~/lib/site-settings";
import { signedInAdmin } from "~/server/identity/index.server";
import { readFormBody } from "~/server/platform/http.server";
import { readSiteSettings, saveSiteSettings } from "~/server/settings/index.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/route";
import { BackupDownload } from "./backup-download";
import { BackupNow } from "./backup-now";
import { backupsText } from "~/content/backups";
import { offsiteBackupsWhere, readBackupStatus, type BackupStatus } from "~/server/backup/index.server";
import { BackupRestore } from "./backup-restore";
import { clientAddressContext, configContext, dbContext } from "~/server/platform/context.server";

/** /admin/settings: the owner's site settings, the backup download (ADR 034) and restore (ADR 078). */
export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const where = offsiteBackupsWhere(context.get(configContext));
  return {
    settings: await readSiteSettings(db),
    mailConfigured: context.get(configContext).smtp !== undefined,
    offsite: where ? { where, status: (await readBackupStatus(db)) ?? null } : null,
  };
}

/** The form's fields, named as the API names them. */
type FormValues = Record<FieldName, string>;
type FieldName =
  | "companyName"
  | "contactEmail"
  | "contactPhone"
  | "location"
  | "metaDescription"
  | "notifyEmail"
  | `socialUrls.${(typeof SOCIAL_NETWORKS)[number]}`;

const FIELD_NAMES: readonly FieldName[] = [
  "companyName",
  "contactEmail",
  "contactPhone",
  "location",
  "metaDescription",
  "notifyEmail",
  ...SOCIAL_NETWORKS.map((network) => `socialUrls.${network}` as const),
];

function formValues(settings: SiteSettings): FormValues {
  return {
    companyName: settings.companyName,
    contactEmail: settings.contactEmail ?? "",
    contactPhone: settings.contactPhone ?? "",
    location: settings.location ?? "",
    metaDescription: settings.metaDescription ?? "",
    notifyEmail: settings.notifyEmail ?? "",
    "socialUrls.facebook": settings.socialUrls.facebook ?? "",
    "socialUrls.instagram": settings.socialUrls.instagram ?? "",
    "socialUrls.linkedin": settings.socialUrls.linkedin ?? "",
  };
}

/**
 * Saves through the same rules as PUT /api/admin/settings. A refused form
 * answers 400 with every problem and what was typed, so nothing is lost
 * (with or without JavaScript).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const form = await readFormBody(request);
  const field = (name: FieldName) => form.get(name) ?? undefined;
  const typed = Object.fromEntries(FIELD_NAMES.map((name) => [name, field(name) ?? ""])) as FormValues;
  const db = context.get(dbContext);
  const parsed = parseSettingsInput(
    {
      companyName: field("companyName"),
      contactEmail: field("contactEmail"),
      contactPhone: field("contactPhone"),
      location: field("location"),
      metaDescription: field("metaDescription"),
      notifyEmail: field("notifyEmail"),
      socialUrls: Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, field(`socialUrls.${network}`)])),
    },
    await readSiteSettings(db),
  );
  if (!parsed.ok) return data({ saved: false as const, issues: parsed.issues, values: typed }, { status: 400 });
  await saveSiteSettings(db, parsed.value);
  await recordAudit({ action: "settings-changed", admin, request, clientAddress: context.get(clientAddressContext) });
  return { saved: true as const, savedAt: Date.now() };
}

export const meta = () => pageMeta({ title: "Settings | Blog Admin", noindex: true });

const inputClass =
  "w-full rounded-md border border-neutral-400 px-3 py-2 text-base aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-700";

/** What each field is called on screen. */
const LABELS: Record<FieldName, string> = {
  companyName: "Company name",
  contactEmail: "Contact e-mail",
  contactPhone: "Phone",
  location: "Location",
  metaDescription: "Description for search engines",
  notifyEmail: "Send contact notices to",
  "socialUrls.facebook": "Facebook page",
  "socialUrls.instagram": "Instagram profile",
  "socialUrls.linkedin": "LinkedIn page",
};

/** The API's message, in the screen's words: "contactEmail must be ..." becomes "Contact e-mail must be ...". */
const issueText = (issue: SettingsIssue) => {
  const label = LABELS[issue.field as FieldName];
  return label && issue.message.startsWith(issue.field)
    ? `${label}${issue.message.slice(issue.field.length)}`
    : issue.message;
};

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, mailConfigured, offsite } = loaderData;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formMethod === "POST";
  const refused = actionData && !actionData.saved ? actionData : undefined;
  const values = refused?.values ?? formValues(settings);
  const errors = new Map<string, string>(refused?.issues.map((issue) => [issue.field, issueText(issue)]));
  const summaryRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // After a refused save, focus the first field to fix; after a save, the confirmation.
  useEffect(() => {
    if (!actionData) return;
    if (actionData.saved) {
      summaryRef.current?.focus();
      return;
    }
    const first = actionData.issues[0]?.field;
    const input = first ? formRef.current?.elements.namedItem(first) : null;
    if (input instanceof HTMLElement) input.focus();
  }, [actionData]);

  const field = (name: FieldName, props: FieldProps = {}) => (
    <Field
      key={name}
      name={name}
      label={LABELS[name]}
      defaultValue={values[name]}
      error={errors.get(name)}
      {...props}
    />
  );

  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold">Settings</h1>
      <p className="mt-1 text-neutral-700">
        What the public pages show about the company. A change shows on the site at once.
      </p>

      <div ref={summaryRef} tabIndex={-1} className="mt-4 outline-none">
        {actionData?.saved && (
          <p role="status" className="rounded-md border border-brand-600 bg-brand-50 px-3 py-2 text-brand-900">
            Settings saved. The site shows them now.
          </p>
        )}
        {refused && (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            <p className="font-semibold">Nothing was saved. Please correct:</p>
            <ul className="mt-1 list-disc pl-5">
              {refused.issues.map((issue) => (
                <li key={issue.field}>{issueText(issue)}</li>
              ))}
            </ul>
          </div>
        )}
      </div>

      {/* Rendered again after each save, so the fields show what was saved (normalised). */}
      <Form
        method="post"
        ref={formRef}
        noValidate
        key={actionData?.saved ? actionData.savedAt : "form"}
        className="mt-6 flex flex-col gap-8"
      >
        <fieldset className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
          <legend className="px-1 text-lg font-semibold">Company and contact details</legend>
          <p className="text-sm text-neutral-700">
            Shown on the About page, in page titles and the footer. A detail left empty is not shown.
          </p>
          {field("companyName", {
            required: true,
            maxLength: SETTINGS_LIMITS.companyName,
            autoComplete: "organization",
          })}
          {field("contactEmail", { type: "email", maxLength: SETTINGS_LIMITS.email, autoComplete: "email" })}
          {field("contactPhone", { type: "tel", maxLength: SETTINGS_LIMITS.contactPhone, autoComplete: "tel" })}
          {field("location", {
            maxLength: SETTINGS_LIMITS.location,
            hint: "Town and state, for example Ojai, California",
          })}
        </fieldset>

        <fieldset className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
          <legend className="px-1 text-lg font-semibold">Social profiles</legend>
          <p className="text-sm text-neutral-700">
            The footer&apos;s icons link here. Full addresses starting with https://; leave one empty and its icon links
            nowhere.
          </p>
          {SOCIAL_NETWORKS.map((network) =>
            field(`socialUrls.${network}`, {
              type: "url",
              maxLength: SETTINGS_LIMITS.socialUrl,
              placeholder: `https://www.${network}.com/...`,
            }),
          )}
        </fieldset>

        <fieldset className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
          <legend className="px-1 text-lg font-semibold">Search results and notices</legend>
          {field("metaDescription", {
            multiline: true,
            maxLength: SETTINGS_LIMITS.metaDescription,
            hint: `The home page's summary in search results and link previews (${SETTINGS_LIMITS.metaDescription} characters at most; about 155 show).`,
          })}
          {field("notifyEmail", {
            type: "email",
            maxLength: SETTINGS_LIMITS.email,
            hint: mailConfigured
              ? "Each contact message is e-mailed here. Empty: to the contact e-mail."
              : "Each contact message would be e-mailed here, but this server has no mail server set (SMTP_URL): messages are in Messages only.",
          })}
        </fieldset>

        <div>
          <button
            type="submit"
            disabled={saving}
            className="rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {saving ? "Saving..." : "Save settings"}
          </button>
        </div>
      </Form>

      <section aria-labelledby="backup-heading" className="mt-10 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="backup-heading" className="text-lg font-semibold">
          Backup
        </h2>
        <p className="mt-2 text-neutral-800">
          One file with the whole site: posts, images, these settings, administrators and contact messages. Keep copies
          somewhere other than this server. Your password is asked before each download. To load one, see Restore from a
          backup below.
        </p>
        <BackupDownload />
        <h3 className="mt-8 font-semibold">{backupsText.heading}</h3>
        {offsite ? (
          <>
            <p className="mt-2 text-neutral-800">{backupsText.on(offsite.where)}</p>
            <OffsiteStatus status={offsite.status} />
            <BackupNow />
          </>
        ) : (
          <p className="mt-2 text-neutral-800">{backupsText.off}</p>
        )}
      </section>

      <BackupRestore storageConfigured={offsite !== null} />
    </div>
  );
}

/** The last off-site backup: when, how large, and whether it worked (with the reason when not). */
function OffsiteStatus({ status }: { status: BackupStatus | null }) {
  if (!status) return <p className="mt-2 text-neutral-800">{backupsText.none}</p>;
  return status.result === "ok" ? (
    <p className="mt-2 text-neutral-800">{backupsText.ok(status.lastAt, status.size)}</p>
  ) : (
    <p className="mt-2 font-medium text-red-800">{backupsText.failed(status.lastAt, status.reason, status.lastOkAt)}</p>
  );
}

interface FieldProps {
  type?: string;
  required?: boolean;
  maxLength?: number;
  autoComplete?: string;
  placeholder?: string;
  hint?: string;
  multiline?: boolean;
}

function Field({
  name,
  label,
  defaultValue,
  error,
  hint,
  multiline,
  required,
  ...input
}: FieldProps & { name: string; label: string; defaultValue: string; error?: string }) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    defaultValue,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
    "aria-required": required || undefined,
    className: inputClass,
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-neutral-800">
        {label}
        {required && <span className="text-neutral-700"> (required)</span>}
      </label>
      {multiline ? (
        <textarea rows={4} {...common} className={`${inputClass} min-h-32`} maxLength={input.maxLength} />
      ) : (
        <input {...common} {...input} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-neutral-700">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
