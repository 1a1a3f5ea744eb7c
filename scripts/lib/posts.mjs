// Posts for the measuring scripts (bench, soak): deterministic ~1,000-word
// markdown articles, added through the admin API so they go through the same
// markdown pipeline as an administrator's.

const WORDS = (
  "cloud migration accessible design small business websites fast pages server rendering research " +
  "systems onboarding media production security backups monitoring support Ojai California team " +
  "clients projects budgets performance search engines phones readers articles analytics privacy"
).split(" ");

/** A deterministic article of about `words` words in markdown: headings, lists, links, code. */
export function article(seed, words = 1000) {
  let n = seed;
  const next = () => {
    n = (n * 1103515245 + 12345) % 2147483648;
    return WORDS[n % WORDS.length];
  };
  const sentence = (len) => {
    const s = Array.from({ length: len }, next).join(" ");
    return s[0].toUpperCase() + s.slice(1) + ".";
  };
  const parts = [];
  let count = 0;
  let section = 1;
  while (count < words) {
    parts.push(`## Section ${section++}: ${sentence(4).slice(0, -1)}`);
    const paragraph = Array.from({ length: 5 }, () => sentence(14)).join(" ");
    parts.push(
      paragraph,
      `- **${next()}**: ${sentence(8)}\n- [${next()}](/blog) ${sentence(6)}\n- \`${next()}\` ${sentence(6)}`,
    );
    count += 4 + 70 + 26;
  }
  return parts.join("\n\n");
}

/** Signs in through the API; answers the session cookie ("name=value"). */
export async function signIn(url, credentials) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(credentials),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status}`);
  return login.headers.get("set-cookie").split(";")[0];
}

/**
 * Adds `count` published posts (bench-post-1, ...), one minute apart, the
 * newest now; answers their slugs.
 */
export async function seedPosts(url, credentials, count) {
  const cookie = await signIn(url, credentials);
  const start = Date.now() - count * 60_000;
  let made = 0;
  const slugs = [];
  const worker = async () => {
    for (;;) {
      const i = made++;
      if (i >= count) return;
      const slug = `bench-post-${i + 1}`;
      const response = await fetch(`${url}/api/admin/posts`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({
          title: `Bench post ${i + 1}: notes from the field`,
          slug,
          excerpt: `What we learned on project ${i + 1}, in brief, for readers who want the outline first.`,
          content: article(i + 1),
          category: ["Web Design", "Cloud", "Research", "Operations"][i % 4],
          readTime: "5 min read",
          published: true,
          publishDate: new Date(start + i * 60_000).toISOString(),
          headerImage: null,
        }),
      });
      if (response.status !== 201) throw new Error(`creating ${slug}: ${response.status} ${await response.text()}`);
      slugs[i] = slug;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return slugs;
}
