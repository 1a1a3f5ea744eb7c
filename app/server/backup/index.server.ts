/** The backup domain's interface: what routes, server/ and other domains may use (README.md here). */
export { copyDatabase, CopyError } from "./copy-database.server";
export { BACKUP_PATH, sendBackup } from "./download.server";
export { BackupError } from "./format.server";
export { readBackupFile, restoreBackup } from "./read.server";
export { writeBackup } from "./write.server";
