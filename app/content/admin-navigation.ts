/**
 * The admin's navigation, grouped by the owner's tasks: writing (content),
 * clients, insights, the site, and people. A new admin screen adds its
 * route under the admin layout in app/routes.ts and one entry here, in the
 * group of the task it serves. Group names avoid the editor's field and
 * button words (Content, Save, Edit...): outside tests find those by
 * substring.
 */
export interface AdminSection {
  to: string;
  label: string;
}

export interface AdminSectionGroup {
  label: string;
  sections: AdminSection[];
}

export const ADMIN_NAVIGATION: AdminSectionGroup[] = [
  {
    label: "Writing",
    sections: [
      { to: "/admin", label: "Posts" },
      { to: "/admin/pages", label: "Pages" },
      { to: "/admin/images", label: "Images" },
      { to: "/admin/import", label: "Import" },
    ],
  },
  {
    label: "Clients",
    sections: [
      { to: "/admin/messages", label: "Messages" },
      { to: "/admin/saved-replies", label: "Saved replies" },
      { to: "/admin/booking", label: "Booking" },
      { to: "/admin/subscribers", label: "Subscribers" },
    ],
  },
  {
    label: "Insights",
    sections: [
      { to: "/admin/analytics", label: "Analytics" },
      { to: "/admin/not-found", label: "Not found" },
    ],
  },
  {
    label: "Site",
    sections: [
      { to: "/admin/settings", label: "Settings" },
      { to: "/admin/redirects", label: "Redirects" },
      { to: "/admin/webhooks", label: "Webhooks" },
      { to: "/admin/activity", label: "Activity" },
    ],
  },
  {
    label: "People",
    sections: [
      { to: "/admin/administrators", label: "Administrators" },
      { to: "/admin/audit", label: "Audit" },
      { to: "/admin/account", label: "Account" },
    ],
  },
];
