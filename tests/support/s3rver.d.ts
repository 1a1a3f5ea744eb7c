declare module "s3rver" {
  /** s3rver 3.7 (a devDependency, ships no types): the parts tests/support/s3.ts uses. */
  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      directory: string;
      configureBuckets?: Array<{ name: string; configs: unknown[] }>;
    });
    run(): Promise<{ port: number; address: string }>;
    close(): Promise<void>;
    httpServer: import("node:http").Server;
    on(
      event: "event",
      listener: (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => void,
    ): this;
  }
}
