export { S3Driver, createS3Client } from "./s3-driver.js";
export { JitterRetryStrategy, type RetryPolicy } from "./retry.js";
export type { S3DriverOptions, ConditionalWrites } from "./options.js";
