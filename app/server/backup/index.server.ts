/** The backup domain's interface: what routes, server/ and other domains may use (README.md here). */
export { copyDatabase, CopyError } from "./copy-database.server";
export { BACKUP_PATH, sendBackup } from "./download.server";
export { BackupError } from "./format.server";
export { init, offsiteBackupsWhere, readBackupStatus, startBackupNow, type BackupStatus } from "./offsite.server";
export { readBackupFile, restoreBackup } from "./read.server";
export { receiveRestoreUpload, restoreLeased, type Restorer } from "./restore.server";
export { backupStorage, type BackupStorage, type StoredBackup } from "./storage.server";
export { listStoredBackups, parseStoredBackupsQuery, receiveStoredRestore } from "./stored.server";
export { writeBackup } from "./write.server";
